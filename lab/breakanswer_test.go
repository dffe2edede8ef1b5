package lab

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
)

// brokenLocks are locks each broken in its own way, as a learner writes
// them: the parts by file name, the rest of the lab's defaults.
var brokenLocks = map[string]map[string]string{
	// the lock never lets a client in: refused on an empty server
	"error-reply acquire": {
		"acquire.lua":   `return redis.error_reply("\27[2J\27]0;PWNED\7\27[31mRED\226\128\174rev")` + "\n",
		"release.redis": "DEL {key}\n",
	},
	"status-reply acquire": {
		"acquire.lua":   `return redis.status_reply("FOO")` + "\n",
		"release.redis": "DEL {key}\n",
	},
	"zero acquire": {
		"acquire.lua":   "return 0\n",
		"release.redis": "DEL {key}\n",
	},
	// granted once, then refused on a free lock after A's release
	"grants once": {
		"acquire.lua": `if redis.call("INCR", KEYS[1] .. ":n") == 1 then
  return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])
end
return nil
`,
		"release.redis": "DEL {key}\n",
	},
	// a release that frees nothing: B is refused after A's release
	"release frees nothing": {
		"acquire.redis": "SET {key} {token} NX PX {ttl}\n",
		"release.lua":   "return 0\n",
	},
	"no-TTL acquire": {
		"acquire.redis": "SET {key} {token} NX\n",
		"release.redis": "DEL {key}\n",
	},
	"blind DEL": {
		"acquire.redis": "SET {key} {token} NX PX {ttl}\n",
		"release.redis": "DEL {key}\n",
	},
	"GET-then-DEL release": {
		"acquire.redis": "SET {key} {token} NX PX {ttl}\n",
		"release.redis": "GET {key}\nif token: DEL {key}\n",
	},
}

// TestBreakAnswerIsTheVerdict: for every break the adversary finds in
// brokenLocks (one fault a schedule, the quick tier's bound), the break's
// story asks, its choices are two properties or more and "none", and the
// answer its replies give (BrokenWithin, read on the embedded server
// after the move it asks about, to the end) is the property the verdict
// names, never "none": the lab's verdict and the story's answer are one
// judgement of the same replies. The judgement says its story's ledger
// shows it and its story asks (Judgement.Ledger, Judgement.Asks).
func TestBreakAnswerIsTheVerdict(t *testing.T) {
	ctx := context.Background()
	text, be := storyRig(t)
	root := t.TempDir()
	names := make([]string, 0, len(brokenLocks))
	for name := range brokenLocks {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		dir := filepath.Join(root, strings.ReplaceAll(name, " ", "-"))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for file, src := range brokenLocks[name] {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		l, err := Load(dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		l.Policy.Bound.Faults = 1
		l.Policy.Bound.Depth = 10
		rep, err := Check(ctx, l, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n := 0
		for _, v := range rep.Judgements {
			if v.Status != Fail || v.Break == nil {
				continue
			}
			n++
			b := v.Break
			what := name + "/" + string(v.Property)
			if !v.Ledger || !v.Asks {
				t.Errorf("%s: the story's ledger does not show the break %s, or its story asks nothing (ledger %v, asks %v)", what, b, v.Ledger, v.Asks)
			}
			answerIsVerdict(t, ctx, be, text, what, b)
		}
		if n == 0 {
			t.Errorf("%s: no break found: %+v", name, rep.Judgements)
		}
	}
}

// answerIsVerdict plays b's story on be and checks that its question
// offers b's property among two or more, and that the replies answer it
// with b's property at every position from the move asked about to the
// end, where the verdict line names it too.
func answerIsVerdict(t *testing.T, ctx context.Context, be *sim.Backend, text content.Text, what string, b *Break) {
	t.Helper()
	sc := b.Scene()
	if sc.Predict == nil {
		t.Errorf("%s: the story asks nothing", what)
		return
	}
	q := b.Question(ctx)
	want := slices.Index(q.Choices, b.Property)
	if want < 0 || len(q.Choices) < 2 {
		t.Errorf("%s: the question before %q offers %v: want %s and another", what, q.Move, q.Choices, b.Property)
		return
	}
	lines := strings.Split(sc.Question(text, nil, "choices"), "\n")
	if len(lines) != len(q.Choices)+1 || !strings.HasPrefix(lines[want], string(b.Property)+":") {
		t.Errorf("%s: choices on screen %q, for %v", what, lines, q.Choices)
	}
	script := sc.Build(nil)
	var labels []string
	for _, m := range script.Moves {
		labels = append(labels, sim.MoveLabel(m))
	}
	at := sc.PredictAt(labels)
	if at < 0 {
		t.Fatalf("%s: the story stops before no move; its moves %q", what, labels)
	}
	r := sim.NewRun(be, script, 1)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for k := at + 1; k <= len(script.Moves); k++ {
		if err := r.Seek(ctx, k); err != nil {
			t.Fatal(err)
		}
		v := scenes.Frame{L: scenes.Fold(r.Snapshot(ctx))}
		var said scenes.Said
		sc.Say(v, &said)
		if got := sc.Predict.Answer(v); got != want || !strings.HasPrefix(said.Verdict, string(b.Property)+" broken") {
			t.Errorf("%s: after move %d of %q the replies answer choice %d of %v, the verdict names %s; verdict line %q",
				what, k, labels, got, q.Choices, b.Property, said.Verdict)
			return
		}
	}
}

// TestAcquireReplyReadout: an acquire's readout is true of its reply. A
// status other than OK, or an integer of 0, is a reply that grants
// nothing, not an error the server refused the command with; an error
// reply names its code. On a free lock each says that nobody held it; on
// a held one, nothing of the kind.
func TestAcquireReplyReadout(t *testing.T) {
	ctx := context.Background()
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(ctx) })
	text, err := content.Load(SceneID)
	if err != nil {
		t.Fatal(err)
	}
	const free = "while the key held nothing and nobody held the lock"
	for _, c := range []struct {
		acquire string
		sel     int // the client whose readout is read: 0 for A, 1 for B
		want    []string
		not     []string
	}{
		{`return redis.status_reply("FOO")`, 0, []string{`answered "FOO" ` + free, "not an error"}, []string{"refused by the server", "An error"}},
		{`return 0`, 0, []string{`answered (integer) 0 ` + free}, []string{"refused by the server", "An error"}},
		{`return redis.error_reply("NOPE not today")`, 0, []string{"got the error NOPE", free}, nil},
		{`if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return redis.status_reply("OK") end
return redis.status_reply("TAKEN")`, 1, []string{`answered "TAKEN": not an error, and not a grant`}, []string{free, "refused by the server"}},
	} {
		l := &Lock{Acquire: Part{Name: PartAcquire, Lang: Lua, Src: c.acquire + "\n"},
			Release: Part{Name: PartRelease, Lang: Commands, Src: "DEL {key}\n"}, Extend: Part{Name: PartExtend}, Policy: DefaultPolicy()}
		sc := HandScene(l, 2)
		r := sim.NewRun(b, sc.Script(nil), 1)
		if err := r.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		for _, m := range []sim.Move{sim.StepOf("A"), sim.StepOf("B")}[:c.sel+1] {
			if err := r.Insert(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		snap := r.Snapshot(ctx)
		got := scenes.Explain(sc, scenes.Frame{Snap: snap, L: scenes.Fold(snap), Sel: c.sel, Text: text}).Readout
		got = strings.Join(strings.Fields(got), " ")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the readout %q does not say %q", c.acquire, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: the readout %q says %q", c.acquire, got, w)
			}
		}
		r.Close()
	}
}
