package views

import (
	"math/rand/v2"
	"testing"
)

// TestMayJoin: the scan that spares Join its regexp lets through every
// text the regexp matches, here every string of up to six characters
// from those the regexp reads, and the texts of a screen.
func TestMayJoin(t *testing.T) {
	const alphabet = "-1PXEAT (a"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(7))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if s := string(b); unbroken.MatchString(s) && !mayJoin(s) {
			t.Errorf("%q: the regexp matches, the scan says no", s)
		}
	}
	for _, s := range []string{"PTTL -2", "a SET PX 30000", "EXAT 17", "PXAT 1", "(-1 ms)", "-5", "x -- -7"} {
		if !mayJoin(s) || Join(s) == s {
			t.Errorf("%q should be joined: %q", s, Join(s))
		}
	}
	for _, s := range []string{"the key is gone", "w1 — w2", "a-b", ""} {
		if mayJoin(s) {
			t.Errorf("%q has nothing to join", s)
		}
	}
}
