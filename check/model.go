package check

import "github.com/anishathalye/porcupine"

// Model is one sequential object a history is checked against, as a value
// the way porcupine's own Model is: what it is called, how it reads a
// history into porcupine's terms, and how it words what porcupine found.
// Everything that shows models (the report, the transcripts, porcupine's
// page, the history page) ranges over Models, so a new model is one value
// in a file of its own and one entry in Models, never a case in a switch.
type Model struct {
	// Name is the model as a report line names it ("client's mutex"). It
	// tells the models apart (Report.Of), so no two share one.
	Name string
	// Title is the model named in a sentence ("the client's mutex").
	Title string
	// Flags is set on the model whose first unplaced operation the history
	// page flags on its timeline: the client's mutex, whose break is the
	// story's point.
	Flags bool

	// text begins the names of the model's lines in the course text
	// (content/text/check.txt): text+"-ok", text+"-bad", text+"-na".
	text string
	// spec reads h as the model sees it: the ops it takes, the parts they
	// split into, porcupine's model of one part, the ops that give it
	// something to judge.
	spec func(h History) spec
	// note fills in what the model reads beside porcupine's search (the
	// resource's fencing); nil when nothing.
	note func(h History, f *Finding)
	// short and line are the model's own words for f: its short form and
	// the name of its line in the course text; "" (or nil) leaves either
	// to the wording every model shares.
	short func(f Finding) string
	line  func(h History, f Finding) string
}

// Models are the models every history is checked against, in the order a
// report, a transcript and the history page show them.
func Models() []Model { return []Model{Server(), Mutex(), Resource()} }

// spec is a model's reading of one history: which ops it takes, how it
// splits them into independent parts, the porcupine model of one part,
// and which of its ops give it something to judge (a history with none is
// not applicable).
type spec struct {
	include   func(Op) bool
	partition func(Op) []string // the parts an op belongs to; nil: every part
	model     porcupine.Model
	judges    func(Op) bool
}

// reads reports whether the model has anything to judge in h.
func (h History) reads(sp spec) bool {
	for _, op := range h.Ops {
		if sp.include(op) && sp.judges(op) {
			return true
		}
	}
	return false
}
