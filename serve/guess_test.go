package serve

import (
	"context"
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
	onBoth(t, Config{Class: seatingClass{}, ClassSize: 2}, func(t *testing.T, _ *Server, d termtest.Dialer, _ string) {
		for range 2 {
			d.New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24).WaitFor("1  race")
		}
		endsWith(t, d, d.New(t).Open(t, termtest.At{Class: "k7q2a"}, 80, 24), true, "locksim: class k7q2a is full (2 sessions at once); ask the instructor")
		d.New(t).Open(t, termtest.At{}, 80, 24).WaitFor("1  race")
	})
}
