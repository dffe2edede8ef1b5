package play

import (
	"context"
	"strings"
	"testing"
)

// TestReentrantPageHoldsBackTheAnswer: at reentrant's question ("What does
// the acquire script answer?"), the learner's story page keeps the setup
// (the hash, its holder-id field and its count) and holds back what the
// question asks: that a plain SET NX refuses a holder asking again and
// that the lock is built to let it in, which wait for the answer.
func TestReentrantPageHoldsBackTheAnswer(t *testing.T) {
	ctx := context.Background()
	s, err := started(ctx, Position{Version: PositionVersion, Scene: "reentrant", Seed: 5}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	d := Driver{S: s}
	for i := 0; i < 100 && !s.Asking; i++ {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Asking {
		t.Fatal("reentrant's story asks nothing")
	}
	page := strings.Join(strings.Fields(s.Page(Learner)), " ")
	for _, held := range []string{"refused by its own key", "built for that case", "(integer) 2"} {
		if strings.Contains(page, held) {
			t.Errorf("the page answers the open question (%q):\n%s", held, page)
		}
	}
	for _, setup := range []string{"a hash whose field is the holder id", "whose value is a count", WaitsForAnswer} {
		if !strings.Contains(page, setup) {
			t.Errorf("the page at the question lacks %q:\n%s", setup, page)
		}
	}
}
