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

// TestPlainTrialsLoss: with replies lost, the transcript runs the two
// trials of a retried release too and prints the losses' table, whose
// counts are the run's: a blind DEL's retry deleted w2's lock in some
// trials, the compare-and-delete script's in none; it keeps to 80 columns.
func TestPlainTrialsLoss(t *testing.T) {
	b, err := sim.OpenEmbeddedRealClock()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	cfg := race.DefaultConfig(7)
	cfg.Loss = 0.4
	var out bytes.Buffer
	if err := PlainTrials(context.Background(), &out, b, 40, cfg); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	row := func(name string) []string {
		return regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` +(\d+) +(\d+) +(\d+)$`).FindStringSubmatch(text)
	}
	blind, cad, atomic := row("blind DEL"), row("compare+DEL"), row("SET NX PX")
	if blind == nil || cad == nil || atomic == nil || !strings.Contains(text, "deleted by a retry") {
		t.Fatalf("the losses' table is missing a row:\n%s", text)
	}
	if blind[3] == "0" || cad[3] != "0" || blind[1] == "0" {
		t.Errorf("blind DEL lost %s and deleted %s by a retry, compare+DEL %s:\n%s", blind[1], blind[3], cad[3], text)
	}
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "so the retry deletes w2's lock ("+blind[3]+" trials)") {
		t.Errorf("the blind DEL's note does not give its count %s:\n%s", blind[3], text)
	}
	for _, line := range strings.Split(text, "\n") {
		if n := len([]rune(line)); n > plainColumns {
			t.Errorf("line of %d columns, want at most %d:\n%s", n, plainColumns, line)
		}
	}
}
