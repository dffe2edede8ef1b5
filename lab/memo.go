package lab

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
)

// weight is a schedule's length for shrinking: its moves, a step whose
// reply was lost counting twice, as it is both a step and a fault. So a
// crash between two commands, which takes a move of its own, is as short
// as a lost reply of the first, and the first found of the two (the
// crash, as faults come after steps and a lost reply after a crash) is
// kept: a story of a crash is the plainer one.
func weight(path []Move) int {
	n := len(path)
	for _, m := range path {
		if m.Fault == LostReply {
			n++
		}
	}
	return n
}

// record keeps the path as the best break of each property it newly
// broke: fewer faults first, then fewer moves; the first found on a tie.
func (s *search) record(w *world, before uint8, path []Move, probe bool) {
	for k, p := range AllProperties() {
		b := bit(p)
		if w.breaks&b == 0 || before&b != 0 || s.judged&b == 0 {
			continue
		}
		if !slices.ContainsFunc(path, func(m Move) bool { return slices.Contains(s.lessons[k], m.Fault) }) {
			s.own[k] = true
		}
		if cur := s.best[k]; cur != nil && (cur.Faults < w.faults || cur.Faults == w.faults && weight(cur.Moves) <= weight(path)) {
			continue
		}
		s.best[k] = &Break{Property: p, Moves: slices.Clone(path), Faults: w.faults, Probe: probe, Why: w.why[k]}
	}
}

// tally is what the search found below a node: the schedules it counted
// there, and the breaks it would record, by the moves from the node. Two
// nodes at the same depth with the same world (its reasons aside) and the
// same server state have the same subtree: the tally of the first serves
// the second (see nodeKey), which a search meets often (two clients
// stepping in either order to the same keys; a crash or a pause that
// changes nothing the lock reads).
type tally struct {
	explored, broke int
	brokeBy         [5]int
	// best is, for each property, the break record keeps first among
	// the subtree's (fewest faults, then fewest moves, the first found on
	// a tie), by its moves from the node
	best [5]*sub
	// own is set for a property some break below the node broke with no
	// lesson fault among the moves from the node
	own [5]bool
}

// sub is a break below a node: the moves from the node to it, and what
// record keeps of it.
type sub struct {
	moves  []Move
	faults int
	probe  bool
	why    string
}

// beats reports whether a break of faults faults and moves moves (from
// the same node) comes before b, as record keeps them.
func beats(faults int, moves []Move, b *sub) bool {
	return b == nil || faults < b.faults || faults == b.faults && weight(moves) < weight(b.moves)
}

// found is record for t: the properties w newly broke (before are the
// breaks before it), by the moves from t's node.
func (t *tally) found(s *search, w *world, before uint8, moves []Move, probe bool) {
	for k, p := range AllProperties() {
		b := bit(p)
		if w.breaks&b == 0 || before&b != 0 || s.judged&b == 0 {
			continue
		}
		if !s.lessonIn(moves, k) {
			t.own[k] = true
		}
		if beats(w.faults, moves, t.best[k]) {
			t.best[k] = &sub{moves: slices.Clone(moves), faults: w.faults, probe: probe, why: w.why[k]}
		}
	}
}

// add counts c, the tally of the child m leads to, into t.
func (t *tally) add(s *search, m Move, c *tally) {
	t.explored += c.explored
	t.broke += c.broke
	for k := range t.brokeBy {
		t.brokeBy[k] += c.brokeBy[k]
		if c.own[k] && !slices.Contains(s.lessons[k], m.Fault) {
			t.own[k] = true
		}
		b := c.best[k]
		if b == nil {
			continue
		}
		if cur := t.best[k]; cur == nil || b.faults < cur.faults || b.faults == cur.faults && weight(b.moves)+weight([]Move{m}) < weight(cur.moves) {
			t.best[k] = &sub{moves: append([]Move{m}, b.moves...), faults: b.faults, probe: b.probe, why: b.why}
		}
	}
}

// lessonIn reports whether moves hold one of property k's lesson faults.
func (s *search) lessonIn(moves []Move, k int) bool {
	return slices.ContainsFunc(moves, func(m Move) bool { return slices.Contains(s.lessons[k], m.Fault) })
}

// reuse counts t, the tally of a node met before, for the node path
// reaches again, as exploring it again would: its schedules, and its
// breaks as record keeps them, behind path.
func (s *search) reuse(t *tally, path []Move) error {
	was := s.explored
	s.explored += t.explored
	s.broke += t.broke
	for k, p := range AllProperties() {
		s.brokeBy[k] += t.brokeBy[k]
		if t.own[k] && !s.lessonIn(path, k) {
			s.own[k] = true
		}
		b := t.best[k]
		if b == nil {
			continue
		}
		moves := append(slices.Clone(path), b.moves...)
		if cur := s.best[k]; cur != nil && (cur.Faults < b.faults || cur.Faults == b.faults && weight(cur.Moves) <= weight(moves)) {
			continue
		}
		s.best[k] = &Break{Property: p, Moves: moves, Faults: b.faults, Probe: b.probe, Why: b.why}
	}
	if s.explored/256 != was/256 {
		if s.o.Progress != nil {
			s.o.Progress(Progress{Explored: s.explored, Broke: s.broke, Max: s.bound.MaxSchedules, Done: s.done()})
		}
		return s.ctx.Err()
	}
	return nil
}

// maxMemo bounds the nodes a search keeps a tally of: some 200 bytes each
// with their keys, and more for the breaks below them. A search past it
// explores the nodes it did not keep again, as it did before the memo.
const maxMemo = 1 << 18

// nodeKey names a node of the search for the memo: its depth, its world
// but the reasons it keeps for its breaks (they are read only where a
// property breaks anew), and the server's state st, as the SHA-256 of
// them: the keys' values run to a megabyte (maxData), which a map of
// every node must not hold.
func nodeKey(w *world, depth int, st State) [32]byte {
	b := make([]byte, 0, 256)
	num := func(n int64) { b = append(strconv.AppendInt(b, n, 10), ' ') }
	flag := func(f bool) {
		if f {
			b = append(b, '1')
		} else {
			b = append(b, '0')
		}
	}
	num(int64(depth))
	num(int64(w.n))
	num(int64(w.grants))
	num(int64(w.owner))
	num(w.hiFence)
	num(int64(w.maxGrant))
	num(int64(w.accepted))
	num(int64(w.faults))
	flag(w.pausedHalf)
	num(int64(w.breaks))
	for i := range w.c {
		c := &w.c[i]
		num(int64(c.phase))
		num(int64(c.line))
		num(int64(c.tries))
		num(c.fence)
		num(int64(c.grant))
		num(int64(c.nest))
		num(int64(c.workLeft))
		flag(c.wait)
		flag(c.holds)
		flag(c.crashed)
		flag(c.started)
		flag(c.renewed)
		b = appendValue(b, c.last.val)
		if c.last.err != nil {
			b = append(b, 'e')
			b = appendField(b, fmt.Sprintf("%T", c.last.err))
			b = appendField(b, c.last.err.Error())
		}
		b = append(b, ';')
	}
	return sha256.Sum256(append(b, st.key()...))
}

// appendValue appends reply value v to a node's key, each kind of value
// apart from the others.
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 'n')
	case int64:
		return append(strconv.AppendInt(append(b, 'i'), x, 10), ' ')
	case string:
		return appendField(append(b, 's'), x)
	case []any:
		b = append(strconv.AppendInt(append(b, 'a'), int64(len(x)), 10), ' ')
		for _, e := range x {
			b = appendValue(b, e)
		}
		return b
	}
	return appendField(append(b, 'v'), fmt.Sprintf("%T %#v", v, v))
}

// appendField appends s with its length, so that no two lists of fields
// read alike.
func appendField(b []byte, s string) []byte {
	b = append(strconv.AppendInt(b, int64(len(s)), 10), ':')
	return append(b, s...)
}
