package check

import (
	"strings"
	"sync"
	"time"
)

// Model names one of the three models a history is checked against.
type Model int

const (
	Server   Model = iota // the server's lease: holder, token and expiry on the node's clock
	Mutex                 // the client's mutex: held from an OK until its own release
	Resource              // the fenced resource: a write needs a token at least as high as any accepted
)

// Models lists the three in the order a report shows them.
func Models() []Model { return []Model{Server, Mutex, Resource} }

// Name is the model as a report line names it: "server", "client's
// mutex", "fenced resource".
func (m Model) Name() string {
	return [...]string{"server", "client's mutex", "fenced resource"}[m]
}

// Title is the model named in a sentence: "the server's lease", "the
// client's mutex", "the fenced resource".
func (m Model) Title() string {
	return [...]string{"the server's lease", "the client's mutex", "the fenced resource"}[m]
}

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
	// Resource only: Unfenced is set when an accepted write carried no
	// fencing token; Refused counts the stale writes a fenced resource
	// refused.
	Unfenced bool
	Refused  int
	// Sentence says in one line what the finding means for this story.
	Sentence string
}

// Short is the finding as a report line shows it after the model's name:
// "linearizable", "not linearizable at B's acquire", "unfenced, stale
// write accepted", "fenced, stale write refused", "unknown (timed out)",
// "not applicable".
func (v Finding) Short() string {
	switch {
	case v.Result == Unknown:
		return "unknown (timed out)"
	case v.Model == Resource && v.Result == NotLinearizable && v.Unfenced:
		return "unfenced, stale write accepted"
	case v.Model == Resource && v.Result == Linearizable && v.Refused > 0:
		return "fenced, stale write refused"
	case v.Result == NotLinearizable && v.At >= 0:
		return "not linearizable at " + v.Op.Who()
	}
	return v.Result.String()
}

// Report is the three findings on one history.
type Report struct {
	Findings [3]Finding // indexed by Model
	Took     time.Duration
}

// Of is the finding of model m.
func (r Report) Of(m Model) Finding { return r.Findings[m] }

// Line is the three findings on one line, as the transcript and the
// screen print them: "server: linearizable · client's mutex: not
// linearizable at B's acquire · fenced resource: unfenced, stale write
// accepted".
func (r Report) Line() string {
	parts := make([]string, 0, 3)
	for _, v := range r.Findings {
		parts = append(parts, v.Model.Name()+": "+v.Short())
	}
	return strings.Join(parts, " · ")
}

// DefaultTimeout bounds a check on a screen or in a transcript: porcupine
// gives up after it and the finding says unknown.
const DefaultTimeout = 500 * time.Millisecond

// Check checks h against the three models with porcupine, side by side,
// each within timeout (0: no limit). A model that times out says Unknown,
// so Check returns within about timeout whatever the history.
func Check(h History, timeout time.Duration) Report {
	start := time.Now()
	var r Report
	var wg sync.WaitGroup
	for _, m := range Models() {
		wg.Go(func() { r.Findings[m] = CheckModel(h, m, timeout) })
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
