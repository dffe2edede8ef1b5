package serve

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"locksim/serve/termtest"
	"locksim/tui"

	tea "github.com/charmbracelet/bubbletea"
)

// seatingClass has one class, k7q2a; any other five letters are a wrong
// code.
type seatingClass struct{}

func (seatingClass) Model(_ *Session, app *tui.App) tea.Model { return app }
func (seatingClass) Join(*Session)                            {}
func (seatingClass) Leave(*Session)                           {}

func (seatingClass) Seat(_ context.Context, id Identity) (string, bool, error) {
	switch {
	case id.User == "k7q2a":
		return "k7q2a", false, nil
	case len(id.User) == 5:
		return "", true, nil
	}
	return "", false, nil
}

// TestClassCodeGuesses: an address may try GuessBurst wrong class codes
// at once; the next try, wrong or right, is refused with the wait, until
// the wait is over; another address is not held; the held address is
// logged once; on both transports.
func TestClassCodeGuesses(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	onBoth(t, Config{Clock: clock, Class: seatingClass{}}, func(t *testing.T, s *Server, d termtest.Dialer, _ string) {
		guesser := d.From("127.0.0.12")
		for i := range GuessBurst {
			code := "zzzz" + string(rune('a'+i))
			guesser.New(t).Open(t, termtest.At{Class: code}, 80, 24).WaitFor("1  race")
		}
		held := "locksim: too many wrong class codes from your address; try again in 6 s, and check the code with the instructor"
		endsWith(t, d, guesser.New(t).Open(t, termtest.At{Class: "zzzzz"}, 80, 24), true, held)
		endsWith(t, d, guesser.New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24), true, held)
		d.From("127.0.0.13").New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24).WaitFor("1  race")
		clock.Advance(GuessEvery)
		guesser.New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24).WaitFor("1  race")
		if n := strings.Count(s.cfg.Log.Writer().(*testLog).String(), "address 127.0.0.12: 10 wrong class codes at once"); n != 1 {
			t.Fatalf("the guessing address was logged %d times", n)
		}
	})
}

// TestClassSize: a class has ClassSize sessions at once; the next join is
// refused, and a session in no class still gets in; on both transports.
func TestClassSize(t *testing.T) {
	t.Parallel()
	onBoth(t, Config{Class: seatingClass{}, ClassSize: 2}, func(t *testing.T, _ *Server, d termtest.Dialer, _ string) {
		for range 2 {
			d.New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24).WaitFor("1  race")
		}
		endsWith(t, d, d.New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24), true, "locksim: class k7q2a is full (2 sessions at once); ask the instructor")
		d.New(t).Open(t, termtest.At{}, 80, 24).WaitFor("1  race")
	})
}

// TestClassSeatsKept: on a full server a class's seats not yet taken are
// kept for it. A server of 8 sessions (2 kept for instructors) with a
// class of 3 that has one student: sessions in no class get the other 3
// seats, then the line; an instructor still gets in; the class's
// students fill its seats; on both transports.
func TestClassSeatsKept(t *testing.T) {
	t.Parallel()
	teacher := termtest.NewKey(t)
	file := filepath.Join(t.TempDir(), "instructors")
	writeKeys(t, file, teacher)
	onBoth(t, Config{Class: seatingClass{}, ClassSize: 3, MaxSessions: 8, Instructors: file}, func(t *testing.T, _ *Server, d termtest.Dialer, addr string) {
		d.New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24).WaitFor("1  race")
		for range 3 {
			d.New(t).Open(t, termtest.At{}, 80, 24).WaitFor("1  race")
		}
		endsWith(t, d, d.New(t).Open(t, termtest.At{}, 80, 24), true,
			"locksim: the server's free sessions are kept for class k7q2a, which has 2 seats left to fill; join with a class code, or try again as sessions close")
		// a wrong code joins no class: it is a session in no class
		endsWith(t, d, d.New(t).Open(t, termtest.At{Class: "zzzzz"}, 80, 24), true,
			"locksim: the server's free sessions are kept for class k7q2a, which has 2 seats left to fill")
		termtest.Open(t, termtest.Dial(t, addr, "prof", teacher), "xterm", 80, 24).WaitFor("1  race")
		for range 2 {
			d.New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24).WaitFor("1  race")
		}
		endsWith(t, d, d.New(t).Open(t, termtest.At{}, 80, 24), true,
			"locksim: the server is full (8 sessions at once, 2 of them kept for instructors)")
	})
}
