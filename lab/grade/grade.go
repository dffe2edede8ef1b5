// Package grade is the lab's headless grade (locksim -grade DIR -out OUT):
// the adversary run on a learner's lock, and its verdicts written as
// results.json in Exercism's test-runner format. It sits above the lab
// and the story codes, so a failure's message carries a code -story
// opens, made here rather than handed down.
package grade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"locksim/lab"
	"locksim/play"
	"locksim/storycode"
)

// Results is results.json in Exercism's test-runner format, version 2:
// Status "pass" when every test passed, "fail" when one failed, "error"
// when none could run (Message then says why); one test per judged
// property, named by its id.
type Results struct {
	Version int          `json:"version"`
	Status  lab.Status   `json:"status"`
	Message string       `json:"message,omitempty"`
	Tests   []TestResult `json:"tests"`
}

// TestResult is one property's test. Message is set for a failure (the
// shrunk break and its story code) or an error; TestCode says what was
// checked and within which bound, as the format asks for the test's code.
type TestResult struct {
	Name     string     `json:"name"`
	Status   lab.Status `json:"status"`
	Message  string     `json:"message,omitempty"`
	TestCode string     `json:"test_code"`
}

// Dir runs the adversary on the lock in dir and returns its results. A
// usage error (no such directory, no acquire) is returned as err; a lock
// that cannot run (a syntax error, a script over budget, a bad lab.json)
// is Results with status error.
func Dir(ctx context.Context, dir string) (Results, error) {
	l, err := lab.Load(dir)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) || errors.Is(err, lab.ErrNoAcquire) || strings.Contains(err.Error(), "not a directory") {
			return Results{}, err
		}
		return Results{Version: 2, Status: lab.Error, Message: err.Error(), Tests: []TestResult{}}, nil
	}
	rep, err := lab.Check(ctx, l, lab.Options{})
	if err != nil {
		if ctx.Err() != nil {
			return Results{}, err
		}
		return Results{Version: 2, Status: lab.Error, Message: err.Error(), Tests: []TestResult{}}, nil
	}
	return Of(rep), nil
}

// Of turns a report into results.json's shape.
func Of(rep *lab.Report) Results {
	res := Results{Version: 2, Status: lab.Pass, Tests: []TestResult{}}
	if rep.Refused {
		res.Status, res.Message = lab.Error, rep.Summary()
	}
	for _, v := range rep.Judgements {
		t := TestResult{Name: string(v.Property), Status: v.Status, TestCode: testCode(v.Property, rep)}
		switch v.Status {
		case lab.Fail:
			t.Message = v.Message
			if v.Break != nil {
				t.Message += " (story code " + Code(v.Break) + ")"
			}
			if v.Property == lab.MutualExclusion && rep.Lesson != "" {
				t.Message += ". " + rep.Lesson
			}
			for _, e := range rep.Errors {
				t.Message += ". In some schedules a script raised an error, sent back as an error reply: " + e.Error()
			}
			if res.Status == lab.Pass {
				res.Status = lab.Fail
			}
		case lab.Error:
			t.Message = v.Message
		}
		res.Tests = append(res.Tests, t)
	}
	return res
}

// Code is the story code of a shrunk break, at its first step: locksim
// -story CODE opens it as a story of the lab, to step through. A break the
// code cannot carry keeps its schedule as plain text: "lab:" and the
// moves, separated by commas (see lab.Move.String).
func Code(b *lab.Break) string {
	pos := play.Position{Version: play.PositionVersion, Scene: lab.SceneID, Seed: 1, Lab: play.LabBreak(b, "")}
	if code, err := storycode.Encode(pos); err == nil {
		return code
	}
	s := make([]string, len(b.Moves))
	for i, m := range b.Moves {
		s[i] = strings.ReplaceAll(m.String(), " ", "_")
	}
	return "lab:" + strings.Join(s, ",")
}

func testCode(p lab.Property, rep *lab.Report) string {
	faults := "no faults"
	if len(rep.Faults) > 0 {
		names := make([]string, len(rep.Faults))
		for i, f := range rep.Faults {
			names[i] = string(f)
		}
		faults = "faults: " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("check %s over all schedules of %d clients with up to %d faults, depth %d (%s)",
		p, rep.Bound.Clients, rep.Bound.Faults, rep.Bound.Depth, faults)
}

// Write writes OUT/results.json (OUT created if missing).
func Write(out string, res Results) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "results.json"), append(data, '\n'), 0o644)
}
