package tui

import (
	"context"
	"testing"

	"locksim/play"
	"locksim/race"
	"locksim/scenes"
	"locksim/views"
)

// TestTrialsOpenInACommand: Init opens the trials' server in a command
// (nothing runs in Update before it reports), then the trials run every
// variant to the end.
func TestTrialsOpenInACommand(t *testing.T) {
	tr, err := NewTrials(embedded(t), 3, race.DefaultConfig(1), NewCommon(views.ASCII(), scenes.Export{}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { tr.Close(); tr.Wait(context.Background()) }()
	cmd := tr.Init()
	if tr.Running() {
		t.Fatal("Init started the trials itself")
	}
	for cmd != nil {
		m := cmd()
		_, cmd = tr.Update(m)
		if _, over := m.(play.TrialsOver); over {
			break
		}
	}
	if tr.err != "" || len(tr.all) != len(race.Variants()) || tr.Running() {
		t.Errorf("after the run: err %q, %d variants counted, running %v", tr.err, len(tr.all), tr.Running())
	}
	for _, c := range tr.all {
		if c.Trials != 3 {
			t.Errorf("%+v: want 3 trials", c)
		}
	}
}
