package play

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// passed is a race position's prediction put to the class, so that
// opening it fires the SETs at once.
var passed = &Prediction{Chosen: -1, Passed: true}

func TestRacePositionRoundTrip(t *testing.T) {
	pos := Position{Version: PositionVersion, Scene: "race", Seed: 3, Step: 1, Prediction: passed,
		Race: &RaceRecord{Shots: []RaceShot{{"w3", 1, "OK"}, {"w1", 2, "(nil)"}, {"w2", 3, "(nil)"}, {"w4", 4, "(nil)"}}}}
	data, err := json.Marshal(pos)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePosition(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, pos) {
		t.Errorf("%s read back as %+v, want %+v", data, back, pos)
	}
	if got := back.Race.Order(); !slices.Equal(got, []string{"w3", "w1", "w2", "w4"}) {
		t.Errorf("order %v", got)
	}
	if _, err := ParsePosition([]byte(`{"version":1,"scene":"race","race":{"shots":[{"worker":"w1","order":0,"reply":"OK"}]}}`)); err == nil {
		t.Error("a race shot with no place was read")
	}
}

// TestOpenRaceReplaysTheRecord: a real race saved as a position opens on
// a fresh server with the same replies, cards and verdict; the readout
// says it is a replay of a recorded race.
func TestOpenRaceReplaysTheRecord(t *testing.T) {
	ctx := context.Background()
	s, err := started(ctx, Position{Version: PositionVersion, Scene: "race", Seed: 5, Prediction: passed}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	pos := s.Position()
	if pos.Race == nil || len(pos.Race.Shots) != 4 {
		t.Fatalf("a race that has run has no record of four shots: %+v", pos.Race)
	}
	winner := pos.Race.Order()[0]
	if strings.Contains(s.Explanation().Readout, "Replayed") {
		t.Errorf("a real race says it is replayed: %s", s.Explanation().Readout)
	}
	o, err := started(ctx, pos, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close(ctx)
	if got, want := replies(o.Snap), replies(s.Snap); !slices.Equal(got, want) {
		t.Errorf("replayed replies\n%v\nwant\n%v", got, want)
	}
	a, b := o.Explanation(), s.Explanation()
	if !reflect.DeepEqual(a.Cards, b.Cards) || a.Verdict != b.Verdict || a.Alarm != b.Alarm {
		t.Errorf("replayed screen %+v, want %+v", a, b)
	}
	if want := "Replayed from a recorded race: " + winner + "'s SET went first"; !strings.Contains(a.Readout, want) || !strings.Contains(a.Readout, "recorded replies again") {
		t.Errorf("readout %q does not say %q and that the replies are the recorded ones", a.Readout, want)
	}
	if !reflect.DeepEqual(o.Position().Race, pos.Race) {
		t.Errorf("reopened record %+v, want %+v", o.Position().Race, pos.Race)
	}
}

// TestOpenRaceInRecordedOrder: the SETs go in the record's order, not the
// order a new race would give: w3's, sent first, is the one that gets OK.
func TestOpenRaceInRecordedOrder(t *testing.T) {
	ctx := context.Background()
	for _, first := range []string{"w3", "w4"} {
		rec := &RaceRecord{}
		for i, w := range append([]string{first}, slices.DeleteFunc([]string{"w1", "w2", "w3", "w4"}, func(w string) bool { return w == first })...) {
			rec.Shots = append(rec.Shots, RaceShot{Worker: w, Order: i + 1, Reply: map[bool]string{true: "OK", false: "(nil)"}[i == 0]})
		}
		s, err := started(ctx, Position{Version: PositionVersion, Scene: "race", Seed: 9, Prediction: passed, Race: rec}, embedded(t))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close(ctx)
		got := volleyShots(s.Snap)
		if !reflect.DeepEqual(got, rec.Shots) {
			t.Errorf("replayed %+v, want %+v", got, rec.Shots)
		}
		if ls := s.Ledger.Leases; len(ls) != 1 || ls[0].Actor != first {
			t.Errorf("the ledger's leases %+v, want one, %s's", ls, first)
		}
	}
}

// TestOpenRaceSaysTheRepliesDiffer: a record the server does not repeat
// (here, two OKs) is replayed with the server's real replies, and the
// readout says they differ from the record.
func TestOpenRaceSaysTheRepliesDiffer(t *testing.T) {
	ctx := context.Background()
	rec := &RaceRecord{Shots: []RaceShot{{"w2", 1, "OK"}, {"w1", 2, "OK"}, {"w3", 3, "(nil)"}, {"w4", 4, "(nil)"}}}
	s, err := started(ctx, Position{Version: PositionVersion, Scene: "race", Seed: 9, Prediction: passed, Race: rec}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if got := volleyShots(s.Snap); got[1].Worker != "w1" || got[1].Reply != "(nil)" {
		t.Errorf("w1's SET after w2's got %+v, want (nil) from the server", got)
	}
	if r := s.Explanation().Readout; !strings.Contains(r, "differ from the record (w1 was told OK then and (nil) now)") {
		t.Errorf("readout %q does not say the replies differ", r)
	}
}

// TestRaceAgainDropsTheRecord: r after opening a recorded race fires a new
// race for real, and the position no longer carries the old record.
func TestRaceAgainDropsTheRecord(t *testing.T) {
	ctx := context.Background()
	rec := &RaceRecord{Shots: []RaceShot{{"w4", 1, "OK"}, {"w1", 2, "(nil)"}, {"w2", 3, "(nil)"}, {"w3", 4, "(nil)"}}}
	s, err := started(ctx, Position{Version: PositionVersion, Scene: "race", Seed: 9, Prediction: passed, Race: rec}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	before := s.Snap.Actors[0].Token
	if err := (Driver{S: s}).Do(Do(Replay)); err != nil {
		t.Fatal(err)
	}
	if s.kind.(*raceKind).replaying != nil || strings.Contains(s.Explanation().Readout, "Replayed") {
		t.Errorf("after r the race is still a replay: %q", s.Explanation().Readout)
	}
	if s.Snap.Actors[0].Token == before || len(volleyShots(s.Snap)) != 4 {
		t.Errorf("r did not fire a new race with fresh tokens: %+v", volleyShots(s.Snap))
	}
	pos := s.Position()
	if pos.Race == nil || pos.Seed != 10 {
		t.Fatalf("position after r: %+v", pos)
	}
	if got := volleyShots(s.Snap); !reflect.DeepEqual(pos.Race.Shots, got) {
		t.Errorf("position's record %+v, want the new race's %+v", pos.Race.Shots, got)
	}
}

// TestHeadlessFiresNoRaceAtStart: a headless session (a transcript, a
// story's code or script) fires no race as it starts, even with the
// prediction put to the class: its reader plays the story from the start
// itself, so a race fired here would be reset and fired again, two volleys
// of SETs on a live server for the one the reader reads (b18dae7). The
// session on screen, not headless, fires it at once.
func TestHeadlessFiresNoRaceAtStart(t *testing.T) {
	ctx := context.Background()
	for _, headless := range []bool{true, false} {
		s, err := Open(ctx, Position{Version: PositionVersion, Scene: "race", Seed: 5, Prediction: passed}, Env{Backend: embedded(t), ID: 1, Headless: headless})
		if err != nil {
			t.Fatal(err)
		}
		Driver{S: s}.Run(s.Start(nil))
		fired := len(volleyShots(s.Snap)) > 0
		if fired == headless {
			t.Errorf("headless %v: the race fired at the start: %v (shots %+v, step %d)", headless, fired, volleyShots(s.Snap), s.Snap.Pos)
		}
		s.Close(ctx)
	}
}
