package transcript

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"locksim/race"
	"locksim/sim"
)

// TestPlainTrialsColumns: the trials transcript keeps to 80 columns like
// every other transcript, and writes a unit after a space ("10 ms").
func TestPlainTrialsColumns(t *testing.T) {
	b, err := sim.OpenEmbeddedRealClock()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	var out bytes.Buffer
	if err := PlainTrials(context.Background(), &out, b, 20, race.DefaultConfig(1)); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"10 ms lease", "GET, then DEL: w1 checks"} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("the transcript should say %q:\n%s", want, text)
		}
	}
	// the anomalies by kind: an atomic trial shows none, and every split
	// trial whose winner crashed left a key with no TTL
	table := regexp.MustCompile(`(?m)^SET NX PX +(\d+) +(\d+) +(\d+) +(\d+)$`).FindStringSubmatch(text)
	if table == nil || table[1]+table[2]+table[3]+table[4] != "0000" || !strings.Contains(text, "no TTL (crash)") {
		t.Errorf("the anomalies table is missing or counts an atomic trial:\n%s", text)
	}
	unspaced := regexp.MustCompile(`\d(ms|s)\b`)
	for _, line := range strings.Split(text, "\n") {
		if n := len([]rune(line)); n > plainColumns {
			t.Errorf("line of %d columns, want at most %d:\n%s", n, plainColumns, line)
		}
		if m := unspaced.FindString(line); m != "" {
			t.Errorf("unit without a space (%q):\n%s", m, line)
		}
	}
}
