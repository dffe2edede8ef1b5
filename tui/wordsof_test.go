package tui

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestWordsOf: the hand scan finds the words and gaps the regexp finds,
// on every string of up to eight characters drawn from spaces of every
// kind, letters and a wide one.
func TestWordsOf(t *testing.T) {
	alphabet := []string{" ", "\t", "\n", "\r", "\f", "a", "b", "PX", "1", "é", "─"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		s := ""
		for range r.IntN(9) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		want, got := wordsIn.FindAllStringSubmatch(s, -1), wordsOf(s)
		if len(want) != len(got) || len(want) > 0 && !reflect.DeepEqual(want, got) {
			t.Fatalf("%q: the regexp finds %q, the scan %q", s, want, got)
		}
	}
}
