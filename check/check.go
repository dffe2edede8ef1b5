package check

import (
	"strings"
	"sync"
	"time"
)

// Result is what the checker found.
type Result int

const (
	NotApplicable   Result = iota // the history has no operation the model reads
	Linearizable                  // some order of the operations, each inside its call and return, obeys the model
	NotLinearizable               // none does: At is the first operation no order can place
	Unknown                       // the check ran out of time (porcupine's timeout) before deciding
)

func (r Result) String() string {
	return [...]string{"not applicable", "linearizable", "not linearizable", "unknown"}[r]
}

// Finding is one model's reading of a history: what porcupine found,
// and the words for it.
type Finding struct {
	Model  Model
	Result Result
	// At is the index in History.Ops of the first operation that cannot
	// be placed (the earliest call left out of porcupine's longest partial
	// linearization), -1 unless NotLinearizable.
	At int
	Op Op // History.Ops[At], when At >= 0
	// Unfenced is set when an accepted write carried no fencing token;
	// Refused counts the stale writes a fenced resource refused. Only the
	// resource reads them (its note), and only its words use them.
	Unfenced bool
	Refused  int
	// Sentence says in one line what the finding means for this story.
	Sentence string
}

// Short is the finding as a report line shows it after the model's name:
// "linearizable", "not linearizable at B's acquire", "unfenced, stale
// write accepted", "fenced, stale write refused", "unknown (timed out)",
// "not applicable".
func (f Finding) Short() string {
	if f.Result == Unknown {
		return "unknown (timed out)"
	}
	if f.Model.short != nil {
		if s := f.Model.short(f); s != "" {
			return s
		}
	}
	if f.Result == NotLinearizable && f.At >= 0 {
		return "not linearizable at " + f.Op.Who()
	}
	return f.Result.String()
}

// Report is every model's finding on one history.
type Report struct {
	Findings []Finding // in the order of Models
	Took     time.Duration
}

// Of is the finding of model m; a report that has none (one not yet
// checked) says m was not applied.
func (r Report) Of(m Model) Finding {
	for _, f := range r.Findings {
		if f.Model.Name == m.Name {
			return f
		}
	}
	return Finding{Model: m, At: -1}
}

// Line is the findings on one line, as the transcript and the screen
// print them: "server: linearizable · client's mutex: not linearizable at
// B's acquire · fenced resource: unfenced, stale write accepted".
func (r Report) Line() string {
	parts := make([]string, 0, len(r.Findings))
	for _, f := range r.Findings {
		parts = append(parts, f.Model.Name+": "+f.Short())
	}
	return strings.Join(parts, " · ")
}

// DefaultTimeout bounds a check on a screen or in a transcript: porcupine
// gives up after it and the finding says unknown. A story's history is a
// few dozen operations, searched in milliseconds on an idle machine; the
// bound is for a pathological history, and is long because it is wall
// time: at 500 ms a story code's transcript read "unknown (timed out)"
// beside two CPU hogs and the same code's transcript elsewhere did not.
const DefaultTimeout = 10 * time.Second

// Check checks h against every model with porcupine, side by side,
// each within timeout (0: no limit). A model that times out says Unknown,
// so Check returns within about timeout whatever the history.
func Check(h History, timeout time.Duration) Report {
	start := time.Now()
	models := Models()
	r := Report{Findings: make([]Finding, len(models))}
	var wg sync.WaitGroup
	for i, m := range models {
		wg.Go(func() { r.Findings[i] = CheckModel(h, m, timeout) })
	}
	wg.Wait()
	r.Took = time.Since(start)
	return r
}

// CheckModel checks h against one model with porcupine, within timeout
// (0: no limit).
func CheckModel(h History, m Model, timeout time.Duration) Finding {
	return checkModel(h, m, timeout)
}

// Quick is CheckModel for a history whose operations do not overlap (no
// open call, no race volley), as a trial's are once read in the order
// they were sent: such a history has one order only, so the model is
// stepped through it in that order, which decides what porcupine's search
// would, without the search's cost. A history with overlapping operations
// goes to CheckModel.
func Quick(h History, m Model, timeout time.Duration) Finding {
	return quick(h, m, timeout)
}
