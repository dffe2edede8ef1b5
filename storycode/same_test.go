package storycode

import (
	"testing"

	"locksim/play"
)

// TestSamePositionAsJSON: samePosition judges every pair of positions as
// their JSON does (jsonOf): the positions the codes carry, and each with
// one field changed, or its list or map nil, empty or filled, its pointer
// nil or to a zero value, a string that is not UTF-8, a trial or a lab
// story.
func TestSamePositionAsJSON(t *testing.T) {
	var all []play.Position
	for _, s := range positions {
		all = append(all, parse(t, s))
	}
	base := parse(t, positions[1])
	vary := []func(p *play.Position){
		func(p *play.Position) { p.Settings = nil },
		func(p *play.Position) { p.Settings = map[string]int{} },
		func(p *play.Position) { p.Settings = map[string]int{"pause": 1, "TTL": 3} },
		func(p *play.Position) { p.Settings = map[string]int{"pause": 1, "ttl": 2} },
		func(p *play.Position) { p.Own = nil },
		func(p *play.Position) { p.Own = []play.Own{} },
		func(p *play.Position) {
			p.Own = []play.Own{{At: 2, Kind: "wait", MS: 5000}, {At: 3, Kind: "crash", Actor: "B"}}
		},
		func(p *play.Position) { p.Own = []play.Own{{At: 2, Kind: "wait", MS: 5000}} },
		func(p *play.Position) { p.Prediction = nil },
		func(p *play.Position) { p.Prediction = &play.Prediction{} },
		func(p *play.Position) { p.Prediction = &play.Prediction{Chosen: 1, Passed: true} },
		func(p *play.Position) { p.Quiz = &play.QuizPlace{} },
		func(p *play.Position) { p.Quiz = &play.QuizPlace{Answers: []int{}} },
		func(p *play.Position) { p.Quiz = &play.QuizPlace{Answers: []int{0}, Shown: []bool{}} },
		func(p *play.Position) { p.Quiz = &play.QuizPlace{Answers: []int{0}, Shown: []bool{false}} },
		func(p *play.Position) { p.Race = &play.RaceRecord{} },
		func(p *play.Position) { p.Race = &play.RaceRecord{Shots: []play.RaceShot{}} },
		func(p *play.Position) {
			p.Race = &play.RaceRecord{Shots: []play.RaceShot{{Worker: "w1", Order: 1, Reply: "OK"}}}
		},
		func(p *play.Position) { p.Selected = "" },
		func(p *play.Position) { p.Selected = "\xff" },
		func(p *play.Position) { p.Selected = "\xfe" },
		func(p *play.Position) { p.Settings = map[string]int{"\xff": 1} },
		func(p *play.Position) { p.Node = "A" },
		func(p *play.Position) { p.Seed, p.Step, p.Version = 0, 0, 2 },
		func(p *play.Position) { p.Trial = &play.TrialRecord{Trial: 1, Variant: "SETNX+EXPIRE"} },
		func(p *play.Position) { p.Lab = &play.LabPlace{Clients: 2, Policy: []byte(`{ "ttl": 1 }`)} },
		func(p *play.Position) { p.Lab = &play.LabPlace{Clients: 2, Policy: []byte(`{"ttl":1}`)} },
	}
	for _, v := range vary {
		p := base
		p.Settings = map[string]int{"pause": 1, "TTL": 2}
		p.Own = append([]play.Own(nil), base.Own...)
		v(&p)
		all = append(all, p)
	}
	judged := 0
	for _, a := range all {
		for _, b := range all {
			if got, want := samePosition(a, b), jsonOf(a) == jsonOf(b); got != want {
				t.Errorf("samePosition = %v, but their JSON is\n%s\n%s", got, jsonOf(a), jsonOf(b))
			}
			if got := samePosition(a, b); got {
				judged++
			}
		}
	}
	if judged <= len(all) {
		t.Errorf("only %d pairs of %d positions alike: the variants that read alike as JSON were not", judged, len(all))
	}
}
