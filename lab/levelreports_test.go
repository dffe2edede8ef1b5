package lab

import (
	"context"
	"fmt"
	"sync"
)

// levelReports is Check's report of each level's lock as shipped, made
// once for the tests that read it (TestEveryLevelBreaks, the levels of
// TestBreakQuestionHasOneTrueChoice, TestBreakScene and
// TestBreakVerdictTrueAtItsStep searched the same locks four times over).
// A report is the same whoever asks: Check of the same lock under the same
// policy is deterministic, and the tests read the reports, never write
// them (a Break's Scene and Question build from it, changing nothing).
var levelReports sync.Map // level ID → func() (*Report, error)

// levelReport is Check of level id's lock, searched at most once per test
// binary.
func levelReport(id string) (*Report, error) {
	lv, ok := FindLevel(id)
	if !ok {
		return nil, fmt.Errorf("no level %q", id)
	}
	f, _ := levelReports.LoadOrStore(id, sync.OnceValues(func() (*Report, error) {
		return Check(context.Background(), &lv.Lock, Options{})
	}))
	return f.(func() (*Report, error))()
}
