package tui

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// wordsIn is what scanWords finds, as a regexp.
var wordsIn = regexp.MustCompile(`([ \t]*)(\S+)`)

// TestWordsOf: the hand scan (scanWords) finds the words and gaps the regexp finds,
// on every string of up to eight characters drawn from spaces of every
// kind, letters and a wide one.
func TestWordsOf(t *testing.T) {
	alphabet := []string{" ", "\t", "\n", "\r", "\f", "a", "b", "PX", "1", "é", "─"}
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	for range 20000 {
		s := ""
		for range r.IntN(9) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		if seen[s] {
			continue // drawn before (a short one, mostly): compared already
		}
		seen[s] = true
		var want []keptWord
		for _, m := range wordsIn.FindAllStringSubmatch(s, -1) {
			want = append(want, keptWord{m[1], m[2]})
		}
		if got := scanWords(s); !slices.Equal(want, got) {
			t.Fatalf("%q: the regexp finds %q, the scan %q", s, want, got)
		}
	}
}
