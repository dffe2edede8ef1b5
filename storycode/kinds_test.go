package storycode

import (
	"context"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/play"
)

// TestTrialCode: a position in a recorded trial of the race travels as a
// code of its own kind, the trial's commands with it, and comes back whole.
func TestTrialCode(t *testing.T) {
	pos := trialAt(3)
	code, err := Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(code, "race.") {
		t.Fatalf("code %s does not name the race", code)
	}
	back, err := Decode(code)
	if err != nil {
		t.Fatal(err)
	}
	if jsonOf(back) != jsonOf(pos) {
		t.Fatalf("the trial came back as\n%s\nwant\n%s", jsonOf(back), jsonOf(pos))
	}
	// the same record under another kind's byte is not read as a position
	body := decodeBody(t, code)
	body[0] = Version<<4 | byte(KindPosition)
	if _, err := Decode(recode("race", body)); err == nil {
		t.Fatal("a trial's record read as a plain position")
	}
}

// trialAt is a position at step in a recorded trial of the race: a GET
// then DEL whose release deletes another's lock.
func trialAt(step int) play.Position {
	return play.Position{Version: play.PositionVersion, Scene: "race", Seed: 2, Step: step, Trial: &play.TrialRecord{
		Trial: 7, Variant: "GET, then DEL", Anomaly: "a release deleted another's lock", Moves: []play.TrialMove{
			{Worker: "w1", US: 0, Kind: "SET NX PX", MS: 10, Reply: "OK"},
			{Worker: "w2", US: 200, Kind: "SET NX PX", MS: 10, Reply: "(nil)"},
			{Worker: "w1", US: 9500, Kind: "GET mine", Reply: `"…"`},
			{Worker: "w2", US: 11500, Kind: "SET NX PX", MS: 10, Reply: "OK"},
			{Worker: "w1", US: 11700, Kind: "DEL", Reply: "(integer) 1"},
		}}}
}

// TestEncoderReuse: an Encoder that has made codes makes each next one as
// Encode does, byte for byte (its compressor is reset between codes), for
// records of other lengths in turn.
func TestEncoderReuse(t *testing.T) {
	short := trialAt(1)
	short.Trial.Moves = short.Trial.Moves[:2]
	var e Encoder
	for i, pos := range []play.Position{trialAt(3), short, trialAt(4), short} {
		want, err := Encode(pos)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := e.Encode(pos); err != nil || got != want {
			t.Errorf("code %d of one Encoder:\n%s, %v\nwant Encode's\n%s", i+1, got, err, want)
		}
	}
}

// TestLabCode: a lab story (a break the adversary found) travels with its
// lock and schedule, and opens at the same step; a lab story whose lock
// now plays differently is refused as changed.
func TestLabCode(t *testing.T) {
	lv, ok := lab.FindLevel("get-then-del")
	if !ok {
		t.Fatal("no get-then-del level")
	}
	l := lv.Lock
	l.Policy.Faults = []lab.Fault{lab.PausePast}
	l.Policy.Bound = lab.Bound{Clients: 2, Faults: 1, Depth: 8, MaxSchedules: 10_000}
	rep, err := lab.Check(context.Background(), &l, lab.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := rep.Judgement(lab.NoForeignRelease)
	if v.Break == nil {
		t.Fatalf("get-then-del should break no-foreign-release: %+v", v)
	}
	place := play.LabBreak(v.Break, "fix:get-then-del")
	pos := play.Position{Version: play.PositionVersion, Scene: lab.SceneID, Seed: 5, Step: 2, Lab: place}
	code, err := Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(code)
	if err != nil {
		t.Fatal(err)
	}
	if jsonOf(back) != jsonOf(pos) {
		t.Fatalf("the lab story came back as\n%s\nwant\n%s", jsonOf(back), jsonOf(pos))
	}
	// a long code wrapped at 80 columns, as a transcript prints it, reads
	// the same
	var wrapped strings.Builder
	for i := 0; i < len(code); i += 80 {
		wrapped.WriteString(code[i:min(i+80, len(code))] + "\n")
	}
	if again, err := Decode(wrapped.String()); err != nil || jsonOf(again) != jsonOf(pos) {
		t.Fatalf("the code wrapped at 80 columns: %v", err)
	}
	// the fingerprint is the story's: with another fingerprint the code
	// is refused as one another build made (TestOtherBuildsLabCode)
	body := decodeBody(t, code)
	body[1] ^= 0xff
	if _, err := Decode(recode(lab.SceneID, body)); err == nil || !strings.Contains(err.Error(), "another build") {
		t.Fatalf("a lab code with another fingerprint: %v", err)
	}
}

// decodeBody is a code's record without its checksum.
func decodeBody(t *testing.T, code string) []byte {
	t.Helper()
	_, text, _ := strings.Cut(code, ".")
	data, err := encoding.DecodeString(text)
	if err != nil {
		t.Fatal(err)
	}
	return data[:len(data)-4]
}

// recode is the code of a record, its checksum made again.
func recode(id string, body []byte) string {
	return id + "." + encoding.EncodeToString(appendCRC(id, body))
}
