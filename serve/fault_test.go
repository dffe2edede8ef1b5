package serve

import (
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"locksim/serve/termtest"
	"locksim/sim/simtest"
)

// TestFault: a panic in one session's program, or in its resize
// forwarding, ends that session with a line to the student and a line in
// the server's log; the session beside it goes on; on both transports.
func TestFault(t *testing.T) {
	t.Parallel()
	simtest.SkipUnlessSlow(t)
	for _, where := range []string{"key", "resize"} {
		t.Run(where, func(t *testing.T) {
			onBoth(t, Config{}, func(t *testing.T, s *Server, d termtest.Dialer, _ string) {
				var resizes atomic.Int32
				s.faults = func(at string, ses *Session) bool {
					// the first resize is the terminal's own size, at the start
					return at == where && ses.User == "boom" && (at == "key" || resizes.Add(1) == 2)
				}
				other := d.New(t).Open(t, termtest.At{}, 80, 24)
				other.WaitFor("1  race")
				// "boom" is the SSH user, the tab's /c/ route
				boom := d.New(t).Open(t, termtest.At{Class: "boom"}, 80, 24)
				boom.WaitFor("1  race")
				if where == "key" {
					boom.Send("\x1b[B")
				} else if err := boom.Resize(100, 30); err != nil {
					t.Fatal(err)
				}
				endsWith(t, d, boom, false, "locksim: this session hit a fault in locksim and was closed")
				other.Send("\r")
				other.WaitFor("1-3 your prediction")
				other.Send("2")
				other.WaitFor("OK · holder")
				if log := s.cfg.Log.Writer().(*testLog).String(); !strings.Contains(log, "ended by a panic") {
					t.Fatalf("no log line of the panic:\n%s", log)
				}
			})
		})
	}
}

// TestColours: each session draws in its own terminal's colours: a
// 256-colour terminal gets 256-colour codes, a 16-colour one never does,
// and a client that sends NO_COLOR gets none.
func TestColours(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	_, addr := testServer(t, Config{})
	sgr256 := regexp.MustCompile(`\x1b\[[0-9;]*38;5;[0-9]+`)
	sgr16 := regexp.MustCompile(`\x1b\[(?:[0-9]+;)*(?:3[0-7]|9[0-7])m`)
	rich := termtest.Open(t, termtest.Dial(t, addr, "a", termtest.NewKey(t)), "xterm-256color", 80, 24)
	plain := termtest.Open(t, termtest.Dial(t, addr, "b", termtest.NewKey(t)), "xterm", 80, 24)
	c := termtest.Dial(t, addr, "c", termtest.NewKey(t))
	none := termtest.OpenEnv(t, c, "xterm-256color", 80, 24, map[string]string{"NO_COLOR": "1"})
	for _, tm := range []*termtest.Term{rich, plain, none} {
		// a key sent before the first screen can be read as part of the
		// terminal's answer to the renderer's colour query, and lost: a
		// loaded machine showed it
		tm.WaitFor("1  race")
		tm.Send("\r")
		tm.WaitFor("1-3 your prediction")
		tm.Send("2")
		tm.WaitFor("OK · holder")
	}
	r, p := rich.RawSince(0), plain.RawSince(0)
	if !sgr256.MatchString(r) {
		t.Errorf("xterm-256color got no 256-colour code")
	}
	if sgr256.MatchString(p) || strings.Contains(p, "38;2;") {
		t.Errorf("xterm got 256-colour or true-colour codes")
	}
	if !sgr16.MatchString(p) {
		t.Errorf("xterm got no 16-colour code")
	}
	if n := none.RawSince(0); sgr256.MatchString(n) || sgr16.MatchString(n) {
		t.Errorf("NO_COLOR=1 got colour codes")
	}
}
