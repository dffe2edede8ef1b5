package check

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"locksim/sim"
)

// Porcupine reads an operation as a closed interval [Call, Return] of
// integer times. Every command of one story step shares its story time, so
// the intervals come from the order of the ops instead: op j is called at
// tick(j) and returns just after, the ops of a race volley are all called
// at the volley's first tick, and an open call returns after everything
// (the model may place it anywhere after its call, or take it as having
// had no effect).
func tick(j int) int64 { return int64(4*j + 4) }

func (h History) operations(include func(Op) bool) []porcupine.Operation {
	var out []porcupine.Operation
	end := tick(len(h.Ops)) + 4
	for j, op := range h.Ops {
		if !include(op) {
			continue
		}
		call := tick(j)
		if op.volley > 0 {
			call = tick(op.volley - 1)
		}
		ret := call + 2
		if op.volley > 0 {
			ret = tick(j) + 2
		}
		if op.Outcome == Open {
			ret = end
		}
		out = append(out, porcupine.Operation{ClientId: 0, Input: j, Call: call, Output: j, Return: ret, Metadata: j})
	}
	return out
}

// partitions splits ops by sp.partition; an op of several parts (a crash,
// a node's restart) goes into each. Parts come out in the order of their
// first op.
func (h History) partitions(sp spec, ops []porcupine.Operation) [][]porcupine.Operation {
	byName := map[string]int{}
	var parts [][]porcupine.Operation
	everywhere := []porcupine.Operation{} // ops of every part: added after
	for _, o := range ops {
		keys := sp.partition(h.Ops[o.Metadata.(int)])
		if keys == nil {
			everywhere = append(everywhere, o)
			continue
		}
		for _, k := range keys {
			i, ok := byName[k]
			if !ok {
				i = len(parts)
				byName[k] = i
				parts = append(parts, nil)
			}
			parts[i] = append(parts[i], o)
		}
	}
	for i := range parts {
		parts[i] = append(parts[i], everywhere...)
		sort.SliceStable(parts[i], func(a, b int) bool { return parts[i][a].Metadata.(int) < parts[i][b].Metadata.(int) })
	}
	return parts
}

func checkModel(h History, m Model, timeout time.Duration) Finding {
	f := Finding{Model: m, At: -1}
	sp := m.spec(h)
	ops := h.operations(sp.include)
	if m.note != nil {
		m.note(h, &f)
	}
	if !h.reads(sp) {
		f.Result = NotApplicable
		f.Sentence = sentence(h, f)
		return f
	}
	parts := h.partitions(sp, ops)
	model := sp.model
	model.Partition = func([]porcupine.Operation) [][]porcupine.Operation { return parts }
	res, info := porcupine.CheckOperationsVerbose(model, ops, timeout)
	switch res {
	case porcupine.Ok:
		f.Result = Linearizable
	case porcupine.Unknown:
		f.Result = Unknown
	default:
		f.Result = NotLinearizable
		f.At = h.firstUnplaced(parts, info)
		if f.At >= 0 {
			f.Op = h.Ops[f.At]
		}
	}
	f.Sentence = sentence(h, f)
	return f
}

// firstUnplaced is the op no order could place: in each part porcupine
// could not linearize, the earliest op (not an open call) left out of its
// longest partial linearization; of those, the earliest. -1 if none.
func (h History) firstUnplaced(parts [][]porcupine.Operation, info porcupine.LinearizationInfo) int {
	best := -1
	partials := info.PartialLinearizations()
	for p, part := range parts {
		if p >= len(partials) {
			break
		}
		var longest []int
		for _, l := range partials[p] {
			if len(l) > len(longest) {
				longest = l
			}
		}
		if len(longest) == len(part) {
			continue
		}
		placed := map[int]bool{}
		for _, id := range longest {
			placed[id] = true
		}
		for id, o := range part {
			j := o.Metadata.(int)
			if placed[id] || h.Ops[j].Outcome == Open {
				continue
			}
			if best < 0 || j < best {
				best = j
			}
			break
		}
	}
	return best
}

// describe is an op as porcupine's visualisation labels it.
func (h History) describe(j int) string {
	op := h.Ops[j]
	s := op.Who()
	switch {
	case op.Kind == Write && op.Fenced:
		s += fmt.Sprintf(" token %d", op.Rank)
	case op.Kind == Write:
		s += fmt.Sprintf(" (grant #%d, no token)", op.Rank)
	case op.Node != "" && op.Node != sim.LockNode && op.Form != sim.FormQuorum && op.Kind != Crash && op.Kind != LetGo:
		s += " on " + op.Node
	}
	switch {
	case op.Outcome == Open:
		s += " → no reply"
	case op.Reply != "":
		// an array reply reads on one line
		s += " → " + strings.Join(strings.Fields(op.Reply), " ")
	}
	return s + " @" + stamp(op.Call)
}

func short(token string) string {
	if len(token) > 8 {
		return token[:8] + "…"
	}
	return token
}

// stamp is a story time as the transcript prints it: +32.000s.
func stamp(d time.Duration) string { return fmt.Sprintf("+%.3fs", d.Seconds()) }
