package scenes

import (
	"testing"

	"locksim/sim"
)

// TestShortenedTokenEndsSentence: a token that ends a sentence, cut short
// for the screen, ends it with its ellipsis, not with "…." (an ellipsis and
// a full stop); one inside a sentence keeps what follows it.
func TestShortenedTokenEndsSentence(t *testing.T) {
	tok := "6ae6783f4fbde91b6eb88b73a48ed247"
	got := ShortenTokens("A's token is "+tok+". B asks. SET k "+tok+" NX.", []sim.Actor{{Name: "A", Token: tok}}, nil)
	if want := "A's token is 6ae6783f… B asks. SET k 6ae6783f… NX."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
