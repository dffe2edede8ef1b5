package tui

import (
	"strings"
	"testing"

	"locksim/scenes"
)

// flat is s with its runs of spaces and line breaks as one space: a
// wrapped sentence whole.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// verdictRow is the screen's verdict line ("" when none is drawn).
func verdictRow(view string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, "verdict ") {
			return l
		}
	}
	return ""
}

// TestTimeoutFailFastCountsNoRetries: failing fast, no client retries, so
// the verdict says so rather than "0 of 0 retries in step"; a retrying
// policy before its first retry says there are none yet.
func TestTimeoutFailFastCountsNoRetries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ presses, want string }{
		{"mmmnnnnnnn", " · no retries"}, // fail fast, to the end
		{"nnn", " · no retries yet"},    // every 100 ms, the first SETs refused
	} {
		a := openScene(t, embedded(t), "timeout", 1, 80, 24, c.presses)
		v := verdictRow(a.View())
		if !strings.HasSuffix(v, c.want) || strings.Contains(v, "0 of 0") {
			t.Errorf("after %q the verdict reads %q, want it to end %q\n%s", c.presses, v, c.want, a.View())
		}
	}
}

// TestLostReplyNamesATokenAsItsCard: the lost-reply readout quotes A's
// commands with the token A's card shows ("88388ba5…"), never a made-up
// "tokA"; a question, the same for every run, names it "<A's token>", as
// its choices name it.
func TestLostReplyNamesATokenAsItsCard(t *testing.T) {
	t.Parallel()
	for _, p := range []scenes.Params{{}, {"retry": 1}, {"retry": 2}, {"story": 1, "release": 2}} {
		a := openLost(t, p, 80, 24, "")
		v := a.View()
		tok := scenes.ShortToken(a.pl.Snap.Actors[0].Token)
		if strings.Contains(v, "tokA") || strings.Count(v, tok) < 2 {
			t.Errorf("%v: the screen should show A's token %s on its card and in the readout, and no tokA:\n%s", p, tok, v)
		}
		for range 8 {
			if a.pl.Asking {
				break
			}
			drive(t, a, keys("n")...)
		}
		if !a.pl.Asking {
			t.Fatalf("%v: no question:\n%s", p, a.View())
		}
		if v := a.View(); strings.Contains(v, "tokA") {
			t.Errorf("%v: the question says tokA:\n%s", p, v)
		}
	}
}

// TestReleaseFinallyHasNoLapsedLock: in the DEL-in-finally story A never
// held the lock, so no lease of its lapses: the settings line says so
// rather than "lapsed lock: B takes it", the readout offers no o, and o
// changes nothing, saying why.
func TestReleaseFinallyHasNoLapsedLock(t *testing.T) {
	t.Parallel()
	a := openScene(t, embedded(t), "release", 1, 80, 24, "mmm")
	v := a.View()
	if !strings.Contains(v, "release: DEL in finally when refused  [o] lapsed lock: none\n") ||
		strings.Contains(v, "takes it") || strings.Contains(flat(v), "o whether") {
		t.Errorf("the finally story's settings and readout should have no lapsed lock to change:\n%s", v)
	}
	drive(t, a, keys("o")...)
	if v := a.View(); !strings.Contains(flat(v), "lapsed lock is its own, none: o changes nothing here") || !strings.Contains(v, "lapsed lock: none\n") {
		t.Errorf("o in the finally story should change nothing, and say so:\n%s", v)
	}
	b := openScene(t, embedded(t), "release", 1, 80, 24, "")
	if v := b.View(); !strings.Contains(v, "[o] lapsed lock: B takes it") || !strings.Contains(flat(v), "o whether B takes the lapsed lock") {
		t.Errorf("a lapsed-lock story should offer o:\n%s", v)
	}
}
