package check

import (
	"fmt"
	"io"
	"time"

	"github.com/anishathalye/porcupine"

	"locksim/sim"
)

// Visualize writes porcupine's own visualisation of h (one self-contained
// HTML file for a browser) to w: every model's partitions one under the
// other, in the order of Models (the server's keys node by node, the
// client's mutex per lock, the resource), each model on rows of its own so
// no model's bars hide another's: a row per client (the first actor to
// act first, each row named "model · actor" at its start) and, after
// them, a row for the nodes' own operations (a restart, a replication).
// It draws the longest order each model could place, and the faults
// (pauses, crashes, clock jumps, restarts, partitions, slow and hung
// nodes) on every model's rows, on the same clock. The check behind it is
// bounded by timeout like Check. It returns w's error.
func Visualize(w io.Writer, h History, timeout time.Duration) (err error) {
	// porcupine panics when a model contradicts its own search; say so
	// as an error rather than end the program
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("porcupine could not draw the history: %v", p)
		}
	}()
	// one model over them all: an op's input names its model, and a
	// state carries its model, so each is stepped, compared and described
	// by its own
	type input struct {
		m int // in models
		j int
	}
	type state struct {
		m int
		s any
	}
	clients := map[string]int{}
	for _, op := range h.Ops {
		if _, ok := clients[op.Actor]; !ok && op.Actor != "" {
			clients[op.Actor] = len(clients)
		}
	}
	nodes := len(clients)
	rows := nodes + 1 // each model's: its clients', then the nodes'
	models := Models()
	specs := make([]spec, len(models))
	var ops []porcupine.Operation
	var parts [][]porcupine.Operation
	for m := range models {
		sp := models[m].spec(h)
		specs[m] = sp
		mine := h.operations(sp.include)
		for i := range mine {
			j := mine[i].Input.(int)
			mine[i].Input, mine[i].Output = input{m, j}, nil
			mine[i].ClientId = m*rows + nodes
			if c, ok := clients[h.Ops[j].Actor]; ok {
				mine[i].ClientId = m*rows + c
			}
		}
		ops = append(ops, mine...)
		parts = append(parts, h.partitions(sp, mine)...)
	}
	// a part starts from nil, which its first op turns into its model's
	// initial state
	model := porcupine.Model{
		Init: func() any { return nil },
		Step: func(st, in, _ any) (bool, any) {
			x := in.(input)
			from := specs[x.m].model.Init()
			if st != nil {
				from = st.(state).s
			}
			ok, next := specs[x.m].model.Step(from, x.j, nil)
			return ok, state{x.m, next}
		},
		Equal: func(a, b any) bool {
			if a == nil || b == nil {
				return a == b
			}
			x, y := a.(state), b.(state)
			switch {
			case x.m != y.m:
				return false
			case specs[x.m].model.Equal != nil:
				return specs[x.m].model.Equal(x.s, y.s)
			}
			return x.s == y.s
		},
		DescribeOperation: func(in, _ any) string {
			x := in.(input)
			return models[x.m].Name + ": " + h.describe(x.j)
		},
		DescribeState: func(st any) string {
			if st == nil {
				return "start"
			}
			x := st.(state)
			return specs[x.m].model.DescribeState(x.s)
		},
		DescribeOperationMetadata: func(any) string { return "" },
	}
	model.Partition = func([]porcupine.Operation) [][]porcupine.Operation { return parts }
	_, info := porcupine.CheckOperationsVerbose(model, ops, timeout)
	for m, model := range models {
		info.AddAnnotations(h.annotations(model.Name, m*rows, clients, nodes))
	}
	return porcupine.Visualize(model, info, w)
}

// annotations are the names of one model's rows, which start at row
// first, and h's faults on them, on porcupine's clock: a mark at event
// position p sits just before the first op read at or after p.
func (h History) annotations(model string, first int, clients map[string]int, nodes int) []porcupine.Annotation {
	at := func(seq int) int64 {
		for j, op := range h.Ops {
			if op.pos >= seq {
				return tick(j) - 1
			}
		}
		return tick(len(h.Ops)) + 1
	}
	endAt := func(m Mark) int64 {
		for j, op := range h.Ops {
			if op.Call > m.To || (op.Call == m.To && op.pos > m.Seq && !m.Open) {
				return tick(j) - 1
			}
		}
		return tick(len(h.Ops)) + 3
	}
	var out []porcupine.Annotation
	// porcupine numbers the clients' rows: each row starts with its name
	names := make([]string, len(clients))
	for name, c := range clients {
		names[c] = name
	}
	for c, name := range names {
		out = append(out, porcupine.Annotation{ClientId: first + c, Start: 0, Description: model + " · " + name,
			Details: "the operations of " + name + ", as the " + model + " model reads them"})
	}
	for _, m := range h.Marks {
		a := porcupine.Annotation{Start: at(m.Seq), Description: m.Kind.String(), Details: fmt.Sprintf("%s at %s", m.Text, stamp(m.From)),
			BackgroundColor: "#f6d6a8"}
		if m.To > m.From || m.Open {
			a.End = endAt(m)
			a.Details += " until " + stamp(m.To)
		}
		switch {
		case m.Node != "" && m.Actor != "":
			a.Tag = "node " + m.Node + " / " + m.Actor
		case m.Node != "" && m.Node != sim.LockNode:
			a.Tag = "node " + m.Node
		case m.Actor != "":
			c, ok := clients[m.Actor]
			if !ok {
				a.Tag = m.Actor
			}
			a.ClientId = first + c
		default:
			a.ClientId = first + nodes
		}
		if m.Kind == ClockJump {
			a.Description = "clock +" + sim.FormatSpan(m.Jump)
		}
		if a.Tag != "" && first > 0 {
			continue // a tagged mark has one row of its own, drawn once
		}
		out = append(out, a)
	}
	return out
}
