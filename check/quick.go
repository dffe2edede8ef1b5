package check

import "time"

func quick(h History, m Model, timeout time.Duration) Finding {
	sp := m.spec(h)
	for _, op := range h.Ops {
		if sp.include(op) && (op.Outcome == Open || op.volley > 0) {
			return checkModel(h, m, timeout)
		}
	}
	v := Finding{Model: m, At: -1}
	if m.note != nil {
		m.note(h, &v)
	}
	if !h.reads(sp) {
		v.Result = NotApplicable
		v.Sentence = sentence(h, v)
		return v
	}
	v.Result = Linearizable
	// one state per part, each from the model's initial state; an op of
	// every part (a crash) steps each part seen so far, and a part begun
	// later starts after it (a crash before any op of a lock changes
	// nothing in it)
	var keys []string
	var states []any
	find := func(k string) int {
		for i, x := range keys {
			if x == k {
				return i
			}
		}
		keys, states = append(keys, k), append(states, sp.model.Init())
		return len(keys) - 1
	}
	for j, op := range h.Ops {
		if !sp.include(op) {
			continue
		}
		parts := sp.partition(op)
		var idx []int
		if parts == nil {
			for i := range keys {
				idx = append(idx, i)
			}
		}
		for _, k := range parts {
			idx = append(idx, find(k))
		}
		for _, i := range idx {
			ok, next := sp.model.Step(states[i], j, j)
			if !ok {
				v.Result, v.At, v.Op = NotLinearizable, j, op
				v.Sentence = sentence(h, v)
				return v
			}
			states[i] = next
		}
	}
	v.Sentence = sentence(h, v)
	return v
}
