package serve

import (
	"path/filepath"
	"testing"

	"locksim/serve/termtest"
)

// TestProjectorTabsKeepTheirOwnSlots: a class's projector tabs (its
// /p/TOKEN link) have ProjectorsPerClass slots of their own: two open
// beside two students, over either transport, and the instructor still
// gets both instructor slots of a server of four; a third projector tab
// is refused with its line.
func TestProjectorTabsKeepTheirOwnSlots(t *testing.T) {
	t.Parallel()
	teacher := termtest.NewKey(t)
	file := filepath.Join(t.TempDir(), "instructors")
	writeKeys(t, file, teacher)
	onBoth(t, Config{MaxSessions: 4, Instructors: file}, func(t *testing.T, s *Server, d termtest.Dialer, addr string) {
		base := serveWeb(t, s)
		route := "/ws/p/" + s.projectors.token("k7q2a", keyHash(teacher.PublicKey()))
		for range ProjectorsPerClass {
			termtest.NewBrowser(t).Open(t, base, route, 80, 24).WaitFor("1  race")
		}
		over := termtest.NewBrowser(t).Open(t, base, route, 80, 24)
		endsWith(t, termtest.Web(base), over, true, "locksim: class k7q2a has 2 projector tabs open, the most it may have: close one, then try again")
		for range 2 {
			d.New(t).Open(t, termtest.At{}, 80, 24).WaitFor("1  race")
		}
		endsWith(t, d, d.New(t).Open(t, termtest.At{}, 80, 24), true, "locksim: the server is full (4 sessions at once, 2 of them kept for instructors)")
		for range 2 {
			termtest.Open(t, termtest.Dial(t, addr, "prof", teacher), "xterm", 80, 24).WaitFor("1  race")
		}
	})
}
