package check

import (
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

const s = time.Second

// ops numbers hand-written ops in order, as build does.
func ops(list ...Op) History {
	h := History{}
	for i, op := range list {
		if op.Return == 0 && op.Outcome != Open {
			op.Return = op.Call
		}
		if op.Outcome == Open {
			op.Return = -1
		}
		if op.Clock == 0 {
			op.Clock = op.Call
		}
		if op.Lock == "" {
			op.Lock = "lock"
		}
		if op.Node == "" && op.Kind != Crash {
			op.Node = "lock"
		}
		op.Key, op.pos = "resource:lock", i
		h.Ops = append(h.Ops, op)
	}
	return h
}

func TestMutexModel(t *testing.T) {
	for _, c := range []struct {
		name string
		h    History
		want Result
		at   int
	}{
		{"one holder, then the next after a release", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted},
			Op{Actor: "B", Kind: Acquire, Outcome: Refused},
			Op{Actor: "A", Kind: Release, Ends: true},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted},
		), Linearizable, -1},
		{"a second grant while the first never let go", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted, Call: 32 * s},
			Op{Actor: "A", Kind: Release, Ends: true, Call: 35 * s},
		), NotLinearizable, 1},
		{"a crash lets go", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted},
			Op{Actor: "A", Kind: Crash, Ends: true},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted},
		), Linearizable, -1},
		{"a reentrant acquire nests, and only the last release frees", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted},
			Op{Actor: "A", Kind: Acquire, Outcome: Granted, Nested: true},
			Op{Actor: "A", Kind: Release, Nested: true},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted},
		), NotLinearizable, 3},
		{"an acquire with no reply may have had no effect", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Open},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted},
		), Linearizable, -1},
		{"no grant at all", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Refused},
		), NotApplicable, -1},
	} {
		v := CheckModel(c.h, Mutex(), 0)
		if v.Result != c.want || v.At != c.at {
			t.Errorf("%s: %s at %d, want %s at %d", c.name, v.Result, v.At, c.want, c.at)
		}
	}
}

func TestServerModel(t *testing.T) {
	for _, c := range []struct {
		name string
		h    History
		want Result
		at   int
	}{
		{"a lease runs out after the millisecond it ends", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted, NX: true, TTL: 30 * s, Token: "a"},
			Op{Actor: "B", Kind: Acquire, Outcome: Refused, NX: true, Call: 30 * s, Token: "b"},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted, NX: true, Call: 30*s + time.Millisecond, TTL: 30 * s, Token: "b"},
			Op{Actor: "A", Kind: Release, Form: "script", Int: 0, Outcome: Refused, Call: 35 * s, Token: "a"},
			Op{Actor: "B", Kind: Release, Form: "script", Int: 1, Call: 35 * s, Token: "b"},
		), Linearizable, -1},
		{"a grant while the key still lives is a broken promise", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted, NX: true, TTL: 30 * s, Token: "a"},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted, NX: true, Call: 30 * s, Token: "b"},
		), NotLinearizable, 1},
		{"a node's clock ahead of the story lets its key go early", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted, NX: true, TTL: 30 * s, Token: "a"},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted, NX: true, Call: 10 * s, Clock: 40 * s, Token: "b"},
		), Linearizable, -1},
		{"an empty restart loses the key", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted, NX: true, TTL: 30 * s, Token: "a"},
			Op{Kind: Restart, Call: s},
			Op{Actor: "B", Kind: Acquire, Outcome: Granted, NX: true, Call: 2 * s, Token: "b"},
		), Linearizable, -1},
		{"SETNX leaves no TTL: the key never lapses", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted, NX: true, Token: "a"},
			Op{Actor: "B", Kind: Acquire, Outcome: Refused, NX: true, Call: 300 * s, Token: "b"},
		), Linearizable, -1},
		{"a compare-and-delete that answers 1 for another's token", ops(
			Op{Actor: "A", Kind: Acquire, Outcome: Granted, NX: true, TTL: 30 * s, Token: "a"},
			Op{Actor: "B", Kind: Release, Form: "script", Int: 1, Token: "b"},
		), NotLinearizable, 1},
		{"a claim reaped after its deadline, claimed again, and the late completion refused", ops(
			Op{Actor: "w1", Kind: Acquire, Form: "claim", Outcome: Granted, Token: "j1", Fence: 1, TTL: 30 * s},
			Op{Actor: "reaper", Kind: Release, Form: "reap", Call: 31 * s, reaped: []string{"j1"}},
			Op{Actor: "w3", Kind: Acquire, Form: "claim", Outcome: Granted, Token: "j1", Fence: 2, TTL: 30 * s, Call: 32 * s},
			Op{Actor: "w1", Kind: Release, Form: "complete", Token: "j1", Fence: 1, Int: 0, Call: 35 * s},
			Op{Actor: "w3", Kind: Release, Form: "complete", Token: "j1", Fence: 2, Int: 1, Call: 35 * s},
		), Linearizable, -1},
		{"a reap that takes back a claim before its deadline", ops(
			Op{Actor: "w1", Kind: Acquire, Form: "claim", Outcome: Granted, Token: "j1", Fence: 1, TTL: 30 * s},
			Op{Actor: "reaper", Kind: Release, Form: "reap", Call: 10 * s, reaped: []string{"j1"}},
		), NotLinearizable, 1},
		{"a reap that leaves an overdue claim", ops(
			Op{Actor: "w1", Kind: Acquire, Form: "claim", Outcome: Granted, Token: "j1", Fence: 1, TTL: 30 * s},
			Op{Actor: "reaper", Kind: Release, Form: "reap", Call: 31 * s},
		), NotLinearizable, 1},
	} {
		v := CheckModel(c.h, Server(), 0)
		if v.Result != c.want || v.At != c.at {
			t.Errorf("%s: %s at %d, want %s at %d", c.name, v.Result, v.At, c.want, c.at)
		}
	}
}

func TestResourceModel(t *testing.T) {
	stale := ops(
		Op{Actor: "B", Kind: Write, Accepted: true, Rank: 2},
		Op{Actor: "A", Kind: Write, Accepted: true, Rank: 1},
	)
	if v := CheckModel(stale, Resource(), 0); v.Result != NotLinearizable || v.At != 1 || !v.Unfenced {
		t.Errorf("an unfenced stale write: %s at %d", v.Short(), v.At)
	}
	fenced := ops(
		Op{Actor: "B", Kind: Write, Accepted: true, Fenced: true, Rank: 34},
		Op{Actor: "A", Kind: Write, Accepted: false, Fenced: true, Rank: 33},
		Op{Actor: "B", Kind: Write, Accepted: true, Fenced: true, Rank: 34},
	)
	if v := CheckModel(fenced, Resource(), 0); v.Result != Linearizable || v.Refused != 1 || v.Short() != "fenced, stale write refused" {
		t.Errorf("a refused stale token: %s", v.Short())
	}
	wrong := ops(
		Op{Actor: "B", Kind: Write, Accepted: true, Fenced: true, Rank: 34},
		Op{Actor: "A", Kind: Write, Accepted: true, Fenced: true, Rank: 33},
	)
	if v := CheckModel(wrong, Resource(), 0); v.Result != NotLinearizable || v.Short() != "not linearizable at A's write" {
		t.Errorf("a fenced resource that took a stale token: %s", v.Short())
	}
}

// TestTimeoutSaysUnknown: a history porcupine cannot settle in any time
// (many concurrent calls, none of which can be placed last) comes back
// unknown once the timeout passes, and the check returns; the server's
// model, which settles the same history quickly, gives its answer, as it
// does in a check beside the mutex's (each model's search is its own).
// Nothing here waits for a search to end in time: the timeout the mutex
// runs out is a millisecond, and the server's model has no limit.
func TestTimeoutSaysUnknown(t *testing.T) {
	var list []Op
	for range 40 {
		list = append(list, Op{Actor: "w", Kind: Acquire, Outcome: Granted})
	}
	h := ops(list...)
	for i := 1; i < len(h.Ops); i++ {
		h.Ops[i].volley = 1 // all called together
	}
	// every order grants 40 acquires of distinct actors: none is legal,
	// and each order fails only at its second op; a big search
	for i := range h.Ops {
		h.Ops[i].Actor = string(rune('A'+i%26)) + string(rune('a'+i/26))
		h.Ops[i].Outcome = Open
	}
	h.Ops = append(h.Ops, Op{Actor: "x", Kind: Acquire, Outcome: Granted, Lock: "lock", Node: "lock", Key: "resource:lock", pos: 41})
	h.Ops = append(h.Ops, Op{Actor: "y", Kind: Acquire, Outcome: Granted, Lock: "lock", Node: "lock", Key: "resource:lock", pos: 42})
	done := make(chan Report)
	// the mutex search cannot end in any time a test could wait
	go func() { done <- Check(h, time.Millisecond) }()
	select {
	case r := <-done:
		if v := r.Of(Mutex()); v.Result != Unknown || v.Short() != "unknown (timed out)" || v.Sentence != sentences().Get("unknown") {
			t.Errorf("a check past its timeout: %s (%s)", v.Short(), v.Sentence)
		}
		// beside it, the server's model had the same millisecond: it is
		// its answer or, on a busy machine, unknown, never another's
		if v := r.Of(Server()); v.Result != Linearizable && v.Short() != "unknown (timed out)" {
			t.Errorf("the server's model in a check that timed out says %s", v.Short())
		}
	case <-time.After(time.Minute): // a hang guard, not a timing
		t.Fatal("the check did not return after its timeout")
	}
	if v := CheckModel(h, Server(), 0); v.Result != Linearizable {
		t.Errorf("the server's model, which has a quick answer, says %s", v.Short())
	}
}

// TestSentences: every line the checker says is in the course text: the
// intro, the unknown line, each model's -ok, -bad and -na lines, and the
// lines a model words for itself (tried on a finding of each result,
// fenced and not, on a live server and not).
func TestSentences(t *testing.T) {
	names := []string{"intro", "unknown"}
	for _, m := range Models() {
		names = append(names, m.text+"-ok", m.text+"-bad", m.text+"-na")
		if m.line == nil {
			continue
		}
		for _, h := range []History{{}, {Live: true}} {
			for _, r := range []Result{NotApplicable, Linearizable, NotLinearizable} {
				for _, f := range []Finding{{Model: m, Result: r, At: -1}, {Model: m, Result: r, Refused: 1, Op: Op{Fenced: true}}} {
					if name := m.line(h, f); name != "" {
						names = append(names, name)
					}
				}
			}
		}
	}
	for _, name := range names {
		if !sentences().Has(name) {
			t.Errorf("content/text/check.txt has no section %q", name)
		}
	}
}

// TestModels: the models are values told apart by name, each with words
// for a sentence and a reading of a history, and one of them flags the
// history page's timeline.
func TestModels(t *testing.T) {
	seen, flags := map[string]bool{}, 0
	for _, m := range Models() {
		if m.Name == "" || m.Title == "" || m.text == "" || m.spec == nil || seen[m.Name] {
			t.Errorf("model %q (%q): a name of its own, a title, its lines and a reading of a history", m.Name, m.Title)
		}
		seen[m.Name] = true
		if m.Flags {
			flags++
		}
	}
	if flags != 1 {
		t.Errorf("%d models flag the timeline, want the client's mutex alone", flags)
	}
	if r := (Report{}); r.Of(Mutex()).Model.Name != Mutex().Name || r.Of(Mutex()).Short() != "not applicable" || r.Line() != "" {
		t.Errorf("a report not yet checked: %+v, line %q", r.Of(Mutex()), r.Line())
	}
}

// TestAnotherModel: a model is one value; one written here, beside the
// package's own, is checked, worded and reported with no change elsewhere.
func TestAnotherModel(t *testing.T) {
	writes := Model{Name: "writer", Title: "the writes", text: "resource", spec: func(h History) spec {
		return spec{
			include:   func(op Op) bool { return op.Kind == Write },
			partition: func(op Op) []string { return []string{op.Lock} },
			judges:    func(op Op) bool { return op.Kind == Write },
			model: porcupine.Model{
				Init: func() any { return 0 },
				// one write only
				Step: func(state, _, _ any) (bool, any) { return state.(int) == 0, state.(int) + 1 },
			},
		}
	}}
	h := ops(Op{Actor: "A", Kind: Write, Lock: "lock", Accepted: true}, Op{Actor: "B", Kind: Write, Lock: "lock", Accepted: true})
	f := CheckModel(h, writes, 0)
	if f.Result != NotLinearizable || f.At != 1 || f.Short() != "not linearizable at B's write" || !strings.Contains(f.Sentence, "B's write") {
		t.Errorf("%+v", f)
	}
	if q := Quick(h, writes, 0); q.Result != f.Result || q.At != f.At || q.Sentence != f.Sentence {
		t.Errorf("stepped in order: %+v, porcupine: %+v", q, f)
	}
	r := Report{Findings: []Finding{CheckModel(h, Mutex(), 0), f}}
	if got := r.Line(); got != "client's mutex: not applicable · writer: not linearizable at B's write" {
		t.Errorf("line %q", got)
	}
	if r.Of(writes).At != 1 {
		t.Errorf("Of: %+v", r.Of(writes))
	}
}

// TestFill: the checker's own slot filling says what content's Fill says.
func TestFill(t *testing.T) {
	vars := map[string]string{"op": "B's acquire", "at": "+32.000s", "holder": "A", "actor": "B", "n": "1"}
	for name := range sentences() {
		if got, want := fill(name, vars), sentences().Fill(name, vars); got != want {
			t.Errorf("%s: fill %q, Fill %q", name, got, want)
		}
	}
}
