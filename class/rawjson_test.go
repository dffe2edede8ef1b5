package class

import (
	"context"
	"encoding/json"
	"testing"

	"locksim/play"
	"locksim/scenes/progress"
)

// TestHubsRefuseInvalidJSON: every store refuses a row or a place that
// JSON cannot hold (invalid raw JSON in a progress's place, a lab
// place's policy) as the Redis hub refuses it, and keeps nothing of it:
// the memory hub copied it, and a class kept on disk could then write
// its file no more. A valid row is kept after it.
func TestHubsRefuseInvalidJSON(t *testing.T) {
	for _, k := range storeKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			h := k.open(t)
			info, err := h.Open(ctx, "teacher-key")
			if err != nil {
				t.Fatal(err)
			}
			for what, m := range map[string]Member{
				"a place":      {ID: "bad-1", Name: "bad one", Role: Student, Prog: progress.Progress{Places: map[string]json.RawMessage{"race": json.RawMessage(`{"step":`)}}},
				"the lab's":    {ID: "bad-2", Name: "bad two", Role: Student, Prog: progress.Progress{Lab: json.RawMessage(`not json`)}},
				"a lab policy": {ID: "bad-3", Name: "bad three", Role: Student, Pos: play.Position{Lab: &play.LabPlace{Policy: json.RawMessage(`{`)}}},
			} {
				if err := h.Put(ctx, info.Code, m); err == nil {
					t.Errorf("a row with invalid raw JSON in %s was taken", what)
				}
			}
			if err := h.Put(ctx, info.Code, Member{ID: "good", Name: "good", Role: Student}); err != nil {
				t.Fatal(err)
			}
			roster, err := h.Roster(ctx, info.Code)
			if err != nil {
				t.Fatal(err)
			}
			if len(roster) != 1 || roster[0].ID != "good" {
				t.Errorf("the roster holds %d rows (%s), want the good one alone", len(roster), ids(roster))
			}
			bad := Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "lab", Lab: &play.LabPlace{Policy: json.RawMessage(`{"ttl":`)}}}
			if _, ok, err := h.SwapLead(ctx, info.Code, 0, bad); err == nil || ok {
				t.Errorf("a place with an invalid lab policy was taken: %t, %v", ok, err)
			}
			if l, ok, err := h.LeadOf(ctx, info.Code); err != nil || ok {
				t.Errorf("the class's place after the refused one: %+v, %t, %v; want none", l, ok, err)
			}
		})
	}
}

func ids(ms []Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}
