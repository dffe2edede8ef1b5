package play

import (
	"context"
	"testing"
	"time"
)

// TestTrialsRunInTheCore: the trials open, count every variant (the two
// of a lost release's retry too when replies are lost) and end in
// messages that name them; trials closed before their command runs let go
// at once, and their command reports only their end.
func TestTrialsRunInTheCore(t *testing.T) {
	lossy := DefaultTrials(1)
	lossy.Loss = 0.3
	if TrialVariants(lossy) != TrialVariants(DefaultTrials(1))+2 {
		t.Errorf("with replies lost, %d variants run", TrialVariants(lossy))
	}
	for _, cfg := range []TrialsConfig{DefaultTrials(1), lossy} {
		trialsInTheCore(t, cfg)
	}
}

func trialsInTheCore(t *testing.T, cfg TrialsConfig) {
	run, cmd := StartTrials(embedded(t), 2, cfg)
	finals := 0
	for cmd != nil {
		var next Cmd
		switch m := cmd().(type) {
		case TrialsOpened:
			if m.T != run || m.Err != nil {
				t.Fatalf("opened: %+v", m)
			}
			next = m.Next
		case TrialsCounted:
			if m.Err != nil {
				t.Fatal(m.Err)
			}
			if m.Final {
				finals++
			}
			next = m.Next
		case TrialsOver:
			if m.T != run {
				t.Fatal("the end of other trials")
			}
		}
		cmd = next
	}
	if finals != TrialVariants(cfg) {
		t.Errorf("%d variants counted to their end, want %d", finals, TrialVariants(cfg))
	}
	run.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	run.Wait(ctx)
	if ctx.Err() != nil {
		t.Error("the trials did not let go")
	}

	closed, cmd := StartTrials(embedded(t), 2, DefaultTrials(1))
	closed.Close()
	closed.Wait(ctx)
	if m, ok := cmd().(TrialsOver); !ok || m.T != closed {
		t.Errorf("trials closed before they ran reported %#v", m)
	}
}
