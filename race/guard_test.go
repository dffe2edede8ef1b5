package race

import (
	"context"
	"strings"
	"testing"
)

// TestTogetherPanics: a racer's panic ends its goroutine only and comes
// back as one panic in the caller's, after every racer is done.
func TestTogetherPanics(t *testing.T) {
	ran := make([]bool, 4)
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "a racer failed: racer 2") {
			t.Fatalf("Together panicked with %v", r)
		}
		for i, ok := range ran {
			if !ok && i != 2 {
				t.Errorf("racer %d did not run", i)
			}
		}
	}()
	Together(4, func(i int) {
		if i == 2 {
			panic("racer 2")
		}
		ran[i] = true
	})
	t.Fatal("Together returned after a racer's panic")
}

// TestLanePanicIsAnError: a trial that panics (here on a lane with no
// server) is the trial's error, not the process's end.
func TestLanePanicIsAnError(t *testing.T) {
	_, err := (&lane{}).guarded(context.Background(), Variants()[0], 0)
	if err == nil || !strings.Contains(err.Error(), "the trial failed") {
		t.Fatalf("a lane with no server: %v", err)
	}
}
