package content

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFillAsReplacer: fill gives what a strings.Replacer of every "{slot}"
// gives, for every section of every embedded text with slots of the names
// it uses and more, and for made-up text: slots next to each other, a
// brace left open, braces in a name or in a value, a value that is itself
// a slot.
func TestFillAsReplacer(t *testing.T) {
	vars := func(r *rand.Rand, names []string) map[string]string {
		values := []string{"", "w1", "{actor}", "30000", "}", "{", "a b", "{n}{n}"}
		m := map[string]string{}
		for _, n := range names {
			if r.IntN(4) > 0 {
				m[n] = values[r.IntN(len(values))]
			}
		}
		return m
	}
	r := rand.New(rand.NewPCG(55, 1))
	var texts []string
	entries, err := files.ReadDir("text")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := files.ReadFile("text/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range ParseForm(string(b), Raw) {
			texts = append(texts, v)
		}
	}
	pieces := []string{"{", "}", "{n}", "{actor}", "{a{n}}", "{}", "x", " ", "{{n}}", "{n", "n}"}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	names := []string{"actor", "n", "holder", "token", "ttl", "at", "op", "a{n", "", "x}"}
	for _, s := range texts {
		// the slots the text names, and names a text never has
		var own []string
		for rest := s; ; {
			_, after, ok := strings.Cut(rest, "{")
			if !ok {
				break
			}
			name, tail, ok := strings.Cut(after, "}")
			if !ok {
				break
			}
			own = append(own, name)
			rest = tail
		}
		for _, withBraces := range []bool{false, true} {
			var use []string
			for _, n := range own {
				if withBraces || !strings.ContainsAny(n, "{}") {
					use = append(use, n)
				}
			}
			use = append(use, names[:7]...)
			if withBraces {
				use = append(use, names[7:]...)
			}
			m := vars(r, use)
			if got, want := fill(s, m), replacerFill(s, m); got != want {
				t.Fatalf("fill(%q, %q) = %q, a Replacer gives %q", s, m, got, want)
			}
		}
	}
}
