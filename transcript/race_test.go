package transcript

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"locksim/sim"
	"locksim/sim/simtest"
)

func TestRacePlainLive(t *testing.T) {
	url := simtest.StartRedis(t)
	ctx := context.Background()
	b, err := sim.OpenLive(ctx, url, simtest.LiveOptions(20))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	var out bytes.Buffer
	if err := Plain(ctx, &out, b, "race", 1); err != nil {
		t.Fatal(err)
	}
	// the transcript wraps at 80 columns: compare words
	text := " " + strings.Join(strings.Fields(out.String()), " ")
	// on a live server PX is scaled: 30000 / 20
	if strings.Count(text, " NX PX 1500 → OK") != 1 || strings.Count(text, " NX PX 1500 → (nil)") != 3 {
		t.Fatalf("want one OK and three (nil):\n%s", text)
	}
	if !strings.Contains(text, b.Prefix+"resource:lock") {
		t.Fatalf("the transcript should show the prefixed key actually sent (%s):\n%s", b.Prefix, text)
	}
	if keys := simtest.Keys(t, url); strings.Join(keys, " ") != b.Prefix+"heartbeat "+b.Prefix+"registration" {
		t.Fatalf("keys on the server after the scene: %v, want only the run's heartbeat and registration", keys)
	}
}
