package play

import (
	"context"
	"strings"
	"testing"
	"time"

	"locksim/scenes/progress"
	"locksim/sim"
)

func TestParsePosition(t *testing.T) {
	p, err := ParsePosition([]byte(`{"version":1,"scene":"fencing","seed":7,"own":[{"at":2,"kind":"wait","ms":5000}],"step":7,"prediction":{"chosen":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.Scene != "fencing" || p.Step != 7 || len(p.Own) != 1 || p.Own[0].D() != 5*time.Second || p.Prediction.Chosen != 1 {
		t.Errorf("read %+v", p)
	}
	for _, bad := range []string{
		`{"version":2,"scene":"fencing"}`,
		`{"version":1,"scene":"fencing","own":[{"at":0,"kind":"teleport"}]}`,
		`{"version":1,"scene":`,
		`{"scene":"fencing"}`, // no version
		`{"version":0,"scene":"fencing"}`,
		`{"version":1,"scene":"nope"}`,
		`{"version":1,"scene":"gc-pause","settings":{"pause":-1}}`,
		`{"version":1,"scene":"gc-pause","settings":{"pause":3}}`,
		`{"version":1,"scene":"gc-pause","settings":{"colour":1}}`,
		`{"version":1,"scene":"fencing","step":-1}`,
		`{"version":1,"scene":"fencing","step":999}`,
		`{"version":1,"scene":"fencing","own":[{"at":999,"kind":"wait","ms":1}]}`,
		`{"version":1,"scene":"fencing","own":[{"at":-1,"kind":"wait","ms":1}]}`,
		`{"version":1,"scene":"fencing","own":[{"at":1,"kind":"crash","actor":"Z"}]}`,
		`{"version":1,"scene":"redlock","own":[{"at":1,"kind":"stop","node":"Q"}]}`,
		`{"version":1,"scene":"fencing","own":[{"at":1,"kind":"wait","ms":-5}]}`,
	} {
		if _, err := ParsePosition([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "position: ") {
			t.Errorf("%s: err %v, want a position error", bad, err)
		}
	}
}

func TestOwnMoves(t *testing.T) {
	for _, c := range []struct {
		own  Own
		want sim.Move
	}{
		{Own{Kind: "crash", Actor: "w1"}, sim.Crash("w1")},
		{Own{Kind: "resume", Actor: "w1"}, sim.Resume("w1")},
		{Own{Kind: "wait", MS: 1500}, sim.Advance(1500 * time.Millisecond)},
		{Own{Kind: "heal", Actor: "w1", Node: "C"}, sim.NodeCut("w1", "C", false)},
		{Own{Kind: "jump", Node: "C", MS: 31000}, sim.NodeJump("C", 31*time.Second)},
	} {
		m, err := c.own.Move()
		if err != nil || sim.MoveLabel(m) != sim.MoveLabel(c.want) || m.Kind != c.want.Kind {
			t.Errorf("%+v: move %q (%v), want %q", c.own, sim.MoveLabel(m), err, sim.MoveLabel(c.want))
		}
	}
}

func TestPositionFromOldMoment(t *testing.T) {
	m := progress.Moment{Scene: "gc-pause", Settings: map[string]int{"TTL": 2}, Seed: 3, Step: 4}
	p := FromMoment(m)
	if p.Version != PositionVersion || p.Own != nil || p.Prediction != nil {
		t.Errorf("from %+v: %+v", m, p)
	}
	if back := p.Moment(); back.Scene != m.Scene || back.Settings["TTL"] != 2 || back.Seed != 3 || back.Step != 4 {
		t.Errorf("back to %+v", back)
	}
}

func TestMemoryStoreKeepsACopy(t *testing.T) {
	var m Memory
	p, err := m.Load()
	if err != nil || p.Done == nil || p.Answers == nil || p.Scores == nil {
		t.Fatalf("empty store: %+v, %v", p, err)
	}
	p.Done["race"] = true
	p.Moment = progress.Moment{Scene: "race", Step: 1}
	if err := m.Save(p); err != nil {
		t.Fatal(err)
	}
	p.Done["fencing"] = true // after the save: not in the store
	q, _ := m.Load()
	if !q.Done["race"] || q.Done["fencing"] || q.Moment.Scene != "race" {
		t.Errorf("loaded %+v", q)
	}
}

// TestPositionKeepsTheSelection: the picked actor and node are part of a
// position, by name, and come back when it opens.
func TestPositionKeepsTheSelection(t *testing.T) {
	pos := Position{Version: PositionVersion, Scene: "redlock", Step: 3, Selected: "c2", Node: "C"}
	s, err := started(context.Background(), pos, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if got := s.Position(); got.Selected != "c2" || got.Node != "C" || s.Sel != 1 || s.Node != 2 {
		t.Errorf("opened with selection %q (%d) and node %q (%d), want c2 (1) and C (2)", got.Selected, s.Sel, got.Node, s.Node)
	}
}
