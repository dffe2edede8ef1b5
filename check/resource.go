package check

import (
	"fmt"
	"math"

	"github.com/anishathalye/porcupine"
)

// Resource is the fenced resource: a write is accepted only with a token at
// least as high as any accepted before. An unfenced resource takes every
// write, so a stale one makes the history illegal; with fencing it is safe
// again, and the words tell the two apart.
func Resource() Model {
	return Model{Name: "fenced resource", Title: "the fenced resource", text: "resource", spec: History.resourceSpec,
		note: func(h History, f *Finding) { f.Unfenced, f.Refused = h.fencing() },
		short: func(f Finding) string {
			switch {
			case f.Result == NotLinearizable && f.Unfenced:
				return "unfenced, stale write accepted"
			case f.Result == Linearizable && f.Refused > 0:
				return "fenced, stale write refused"
			}
			return ""
		},
		line: func(_ History, f Finding) string {
			switch {
			case f.Result == NotLinearizable && !f.Op.Fenced:
				return "resource-bad"
			case f.Result == NotLinearizable:
				return "resource-bad-fenced"
			case f.Result == Linearizable && f.Refused > 0:
				return "resource-fenced"
			}
			return ""
		}}
}

func (h History) resourceSpec() spec {
	return spec{
		include:   func(op Op) bool { return op.Kind == Write },
		partition: func(op Op) []string { return []string{op.Lock} },
		judges:    func(op Op) bool { return op.Kind == Write },
		model: (&porcupine.NondeterministicModel{
			Init: func() []any { return []any{int64(math.MinInt64)} },
			Step: func(state, input, _ any) []any {
				highest, op := state.(int64), h.Ops[input.(int)]
				allowed := op.Rank >= highest
				switch {
				case op.Outcome == Open && allowed:
					return []any{highest, op.Rank}
				case op.Outcome == Open:
					return []any{highest}
				case op.Accepted && allowed:
					return []any{op.Rank}
				case !op.Accepted && !allowed:
					return []any{highest}
				}
				return nil
			},
			DescribeOperation: func(input, _ any) string { return h.describe(input.(int)) },
			DescribeState: func(state any) string {
				if v := state.(int64); v != math.MinInt64 {
					return fmt.Sprintf("highest token accepted: %d", v)
				}
				return "no write accepted yet"
			},
		}).ToModel(),
	}
}

// fencing reports whether the resource accepted a write with no token,
// and how many stale tokens it refused.
func (h History) fencing() (unfenced bool, refused int) {
	for _, op := range h.Ops {
		if op.Kind != Write {
			continue
		}
		if op.Accepted && !op.Fenced {
			unfenced = true
		}
		if op.Fenced && !op.Accepted && op.Outcome != Open {
			refused++
		}
	}
	return unfenced, refused
}
