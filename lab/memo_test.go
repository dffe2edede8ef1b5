package lab

import (
	"context"
	"reflect"
	"slices"
	"testing"
)

// TestNodeKeyReadsTheWholeWorld: two nodes whose worlds differ in any
// field but the reasons of their breaks have different keys, so the memo
// never serves one subtree for another. A field added to world or client
// is set here by reflection: one nodeKey does not read fails.
func TestNodeKeyReadsTheWholeWorld(t *testing.T) {
	base := nodeKey(&world{}, 0, State{})
	if nodeKey(&world{}, 1, State{}) == base {
		t.Error("the depth is not in the key")
	}
	if nodeKey(&world{}, 0, State{now: 1}) == base {
		t.Error("the server's state is not in the key")
	}
	var w world
	w.why[0] = "a reason"
	if nodeKey(&w, 0, State{}) != base {
		t.Error("a break's reason is in the key: nodes that differ in it alone share a subtree")
	}
	// set sets field f of v to a value that is not its zero
	var set func(name string, v reflect.Value)
	set = func(name string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int8, reflect.Int64:
			v.SetInt(1)
		case reflect.Uint8:
			v.SetUint(1)
		case reflect.Interface:
			if v.Type() == reflect.TypeFor[error]() {
				v.Set(reflect.ValueOf(error(ErrorReply("ERR"))))
			} else {
				v.Set(reflect.ValueOf(int64(1)))
			}
		default:
			t.Fatalf("%s: a %s the test cannot set", name, v.Type())
		}
	}
	var each func(name string, get func(*world) reflect.Value)
	each = func(name string, get func(*world) reflect.Value) {
		var probe world
		v := get(&probe)
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				each(name+"."+v.Type().Field(i).Name, func(w *world) reflect.Value { return get(w).Field(i) })
			}
			return
		case reflect.Array:
			for i := range v.Len() {
				each(name+"["+string(rune('0'+i))+"]", func(w *world) reflect.Value { return get(w).Index(i) })
			}
			return
		}
		if name == ".why" || len(name) > 4 && name[:5] == ".why[" {
			return
		}
		var w world
		f := get(&w)
		f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem() // unexported fields too
		set(name, f)
		if nodeKey(&w, 0, State{}) == base {
			t.Errorf("world%s is not in the key", name)
		}
	}
	each("", func(w *world) reflect.Value { return reflect.ValueOf(w).Elem() })
}

// TestReuseCountsAsExploring: a node met again counts its subtree's
// schedules and breaks behind the path that reaches it, as exploring it
// again would: its best break after the path's moves, and a break with no
// lesson fault only when the path has none either.
func TestReuseCountsAsExploring(t *testing.T) {
	step := func(c string) Move { return Move{Client: c, Label: "acquire"} }
	pause := Move{Client: "A", Fault: PausePast}
	s := &search{ctx: context.Background(), bound: Bound{MaxSchedules: 100}}
	s.lessons[0] = []Fault{PausePast}
	s.judged = bit(MutualExclusion)
	// the child's tally: one break of mutual exclusion, no lesson fault
	child := &tally{explored: 3, broke: 1}
	child.brokeBy[0] = 1
	w := &world{faults: 0, breaks: bit(MutualExclusion)}
	w.why[0] = "both hold"
	child.found(s, w, 0, []Move{step("B")}, false)
	if !child.own[0] || child.best[0] == nil || len(child.best[0].moves) != 1 {
		t.Fatalf("found: %+v", child)
	}
	// its parent through a pause: not the lock's own break
	parent := &tally{}
	parent.add(s, pause, child)
	if parent.own[0] || parent.explored != 3 || parent.broke != 1 || parent.brokeBy[0] != 1 ||
		!slices.Equal(parent.best[0].moves, []Move{pause, step("B")}) {
		t.Errorf("add through a lesson fault: %+v, best %+v", parent, parent.best[0])
	}
	other := &tally{}
	other.add(s, step("A"), child)
	if !other.own[0] {
		t.Error("add through a step: the break is the lock's own")
	}
	s.reuse(parent, []Move{step("A")})
	if s.explored != 3 || s.broke != 1 || s.brokeBy[0] != 1 || s.own[0] {
		t.Errorf("reuse: explored %d, broke %d, by %v, own %v", s.explored, s.broke, s.brokeBy, s.own)
	}
	if b := s.best[0]; b == nil || !slices.Equal(b.Moves, []Move{step("A"), pause, step("B")}) || b.Why != "both hold" || b.Property != MutualExclusion {
		t.Errorf("reuse's best: %+v", b)
	}
	// the same subtree reached with no lesson fault: the lock's own break,
	// and no better than the one kept (as long, as many faults)
	s.reuse(child, []Move{step("A"), step("C")})
	if !s.own[0] || len(s.best[0].Moves) != 3 || s.best[0].Moves[1] != pause || s.explored != 6 {
		t.Errorf("reuse again: own %v, best %+v, explored %d", s.own, s.best[0], s.explored)
	}
	// a shorter one replaces it
	s.reuse(child, nil)
	if len(s.best[0].Moves) != 1 {
		t.Errorf("a shorter break is not kept: %+v", s.best[0])
	}
}
