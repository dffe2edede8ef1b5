package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Results is results.json in Exercism's test-runner format, version 2:
// Status "pass" when every test passed, "fail" when one failed, "error"
// when none could run (Message then says why); one test per judged
// property, named by its id.
type Results struct {
	Version int          `json:"version"`
	Status  Status       `json:"status"`
	Message string       `json:"message,omitempty"`
	Tests   []TestResult `json:"tests"`
}

// TestResult is one property's test. Message is set for a failure (the
// shrunk break and its story code) or an error; TestCode says what was
// checked and within which bound, as the format asks for the test's code.
type TestResult struct {
	Name     string `json:"name"`
	Status   Status `json:"status"`
	Message  string `json:"message,omitempty"`
	TestCode string `json:"test_code"`
}

// StoryCode is the schedule of a shrunk break as plain text: "lab:" and
// the moves, separated by commas (see Move.String). A grade's failure
// message carries it when GradeWith is given no encoder; locksim -grade
// passes the story-code package's, which sits above this one, so the
// message carries a code -story opens, and falls back to this only for a
// break a code cannot carry.
func StoryCode(b *Break) string {
	s := make([]string, len(b.Moves))
	for i, m := range b.Moves {
		s[i] = strings.ReplaceAll(m.String(), " ", "_")
	}
	return "lab:" + strings.Join(s, ",")
}

// Grade runs the adversary on the lock in dir and returns its results. A
// usage error (no such directory, no acquire) is returned as err; a lock
// that cannot run (a syntax error, a script over budget, a bad lab.json)
// is Results with status error.
func Grade(ctx context.Context, dir string) (Results, error) {
	return GradeWith(ctx, dir, nil)
}

// GradeWith is Grade with the story code of each failure's break written
// by code; nil means StoryCode.
func GradeWith(ctx context.Context, dir string, code func(*Break) string) (Results, error) {
	l, err := Load(dir)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) || errors.Is(err, ErrNoAcquire) || strings.Contains(err.Error(), "not a directory") {
			return Results{}, err
		}
		return Results{Version: 2, Status: Error, Message: err.Error(), Tests: []TestResult{}}, nil
	}
	rep, err := Check(ctx, l, Options{})
	if err != nil {
		if ctx.Err() != nil {
			return Results{}, err
		}
		return Results{Version: 2, Status: Error, Message: err.Error(), Tests: []TestResult{}}, nil
	}
	return ResultsWith(rep, code), nil
}

// ResultsOf turns a report into results.json's shape.
func ResultsOf(rep *Report) Results { return ResultsWith(rep, nil) }

// ResultsWith is ResultsOf with each failure's story code written by code;
// nil means StoryCode.
func ResultsWith(rep *Report, code func(*Break) string) Results {
	if code == nil {
		code = StoryCode
	}
	res := Results{Version: 2, Status: Pass, Tests: []TestResult{}}
	if rep.Refused {
		res.Status, res.Message = Error, rep.Summary()
	}
	for _, v := range rep.Judgements {
		t := TestResult{Name: string(v.Property), Status: v.Status, TestCode: testCode(v.Property, rep)}
		switch v.Status {
		case Fail:
			t.Message = v.Message
			if v.Break != nil {
				t.Message += " (story code " + code(v.Break) + ")"
			}
			if v.Property == MutualExclusion && rep.Lesson != "" {
				t.Message += ". " + rep.Lesson
			}
			for _, e := range rep.Errors {
				t.Message += ". In some schedules a script raised an error, sent back as an error reply: " + e.Error()
			}
			if res.Status == Pass {
				res.Status = Fail
			}
		case Error:
			t.Message = v.Message
		}
		res.Tests = append(res.Tests, t)
	}
	return res
}

func testCode(p Property, rep *Report) string {
	faults := "no faults"
	if len(rep.Faults) > 0 {
		faults = "faults: " + joinNames(rep.Faults)
	}
	return fmt.Sprintf("check %s over all schedules of %d clients with up to %d faults, depth %d (%s)",
		p, rep.Bound.Clients, rep.Bound.Faults, rep.Bound.Depth, faults)
}

// WriteResults writes OUT/results.json (OUT created if missing).
func WriteResults(out string, res Results) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "results.json"), append(data, '\n'), 0o644)
}
