package lab

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"
)

// TestBreakQuestionHasOneTrueChoice: for every break the adversary finds
// in the lab's table of locks and in its levels, the story's question
// offers its property among two or more and "none", and the story's own
// ledger, at every position after the move the question comes before,
// makes exactly one choice true: the break's property, the one its
// verdict names. Just before the move that property still holds, so the
// move is what breaks it, and no other property offered is broken from
// the move to the end. The quick tier checks every level and a sample
// of the table (quickQuestions) at one fault a schedule; the slow tier
// every lock under its own bound.
func TestBreakQuestionHasOneTrueChoice(t *testing.T) {
	ctx := context.Background()
	text, be := storyRig(t)
	locks := map[string]*Lock{}
	dirs, err := os.ReadDir("testdata/table")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		// the quick tier checks a sample of the table, with every
		// level's lock below: a lock that fails each of
		// deadlock-freedom, no-foreign-release and mutual-exclusion
		if !simtest.Slow && !quickQuestions[d.Name()] {
			continue
		}
		l, err := Load(filepath.Join("testdata/table", d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !simtest.Slow {
			l.Policy.Bound.Faults = min(l.Policy.Bound.Faults, 1)
		}
		locks[d.Name()] = l
	}
	for _, lv := range Levels() {
		locks["level "+lv.ID] = &lv.Lock
	}
	breaks := 0
	for lock, l := range locks {
		var rep *Report
		var err error
		if id, ok := strings.CutPrefix(lock, "level "); ok {
			rep, err = levelReport(id) // as TestEveryLevelBreaks's
		} else {
			rep, err = Check(ctx, l, Options{})
		}
		if err != nil {
			t.Fatalf("%s: %v", lock, err)
		}
		for _, v := range rep.Judgements {
			if v.Status == Fail && v.Break != nil {
				breaks++
				checkQuestion(t, ctx, be, text, lock+"/"+string(v.Property), v.Break)
			}
		}
	}
	if breaks < len(locks) {
		t.Fatalf("%d breaks in %d locks: each should break", breaks, len(locks))
	}
}

// quickQuestions is TestBreakQuestionHasOneTrueChoice's sample of the
// table in the quick tier (one fault a schedule); the slow tier checks
// every lock of the table under its own bound.
var quickQuestions = map[string]bool{"setnx-expire": true, "blind-del": true, "set-without-nx": true}

// checkQuestion plays b's story on be and checks its question against
// the ledger at each position from the move it asks about to the end.
func checkQuestion(t *testing.T, ctx context.Context, be *sim.Backend, text content.Text, name string, b *Break) {
	t.Helper()
	sc := b.Scene()
	q := b.Question(ctx)
	props := q.Choices
	// the break's property, the one its verdict names (Question)
	want := slices.Index(props, b.Property)
	t.Logf("%s: before %q, choices %v", name, q.Move, props)
	if len(props) < 2 || want < 0 {
		t.Fatalf("%s: the choices %v should offer %s and another property or more", name, props, b.Property)
	}
	lines := strings.Split(sc.Question(text, nil, "choices"), "\n")
	if len(lines) != len(props)+1 || !strings.HasPrefix(lines[want], string(b.Property)+":") || !strings.HasPrefix(lines[len(props)], "none:") {
		t.Fatalf("%s: choices on screen %q, for %v", name, lines, props)
	}
	if q := sc.Question(text, nil, "predict"); strings.Contains(q, string(b.Property)) || strings.Contains(q, "{") {
		t.Errorf("%s: the question names its answer or leaves a slot: %q", name, q)
	}
	// the scene's own story (its lock compiled once for all its builds),
	// which has the moves of b's
	script := sc.Build(nil)
	var labels, own []string
	for _, m := range script.Moves {
		labels = append(labels, sim.MoveLabel(m))
	}
	for _, m := range b.Script().Moves {
		own = append(own, sim.MoveLabel(m))
	}
	if !slices.Equal(labels, own) {
		t.Errorf("%s: the scene's story has the moves %q, the break's %q", name, labels, own)
	}
	at := sc.PredictAt(labels)
	if at < 0 {
		t.Fatalf("%s: the story asks nothing; its moves %q", name, labels)
	}
	r := sim.NewRun(be, script, 1)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for k := at; k <= len(script.Moves); k++ {
		if err := r.Seek(ctx, k); err != nil {
			t.Fatal(err)
		}
		v := scenes.Frame{L: scenes.Fold(r.Snapshot(ctx))}
		broken := BrokenWithin(v.L, b.Lock.Policy.TTL)
		if k == at {
			if slices.Contains(broken, b.Property) {
				t.Errorf("%s: %s is broken before the move the question asks about; moves %q at %d", name, b.Property, labels, at)
			}
			continue
		}
		var said scenes.Said
		sc.Say(v, &said)
		if got := sc.Predict.Answer(v); got != want || !strings.HasPrefix(said.Verdict, string(b.Property)+" broken") {
			t.Errorf("%s: at move %d of %d the answer is choice %d, want %d (%s); broken %v, verdict %q",
				name, k, len(script.Moves), got, want, b.Property, broken, said.Verdict)
		}
		for _, p := range props {
			if p != b.Property && slices.Contains(broken, p) {
				t.Errorf("%s: the wrong choice %s is also true at move %d", name, p, k)
			}
		}
	}
}

// TestLabIntroHidesTheAnswer: nothing the lab story shows before its
// question is answered (its introduction, its notes, its opening line,
// the question) names a property, so none names the one that breaks.
func TestLabIntroHidesTheAnswer(t *testing.T) {
	text, err := content.Load(SceneID)
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range []string{"intro", "notes", "start", "predict", "hint-1", "hint-2"} {
		for _, p := range AllProperties() {
			if strings.Contains(text.Get(sec), string(p)) {
				t.Errorf("section %s names %s before the question is answered: %q", sec, p, text.Get(sec))
			}
		}
	}
}

// TestLabHintsPointAtWhatIsShown: a hint is offered only while the keys
// are hidden (play's quiz gives none once the key is shown), so no hint
// sends the reader to look at the lock key's value or TTL.
func TestLabHintsPointAtWhatIsShown(t *testing.T) {
	text, err := content.Load(SceneID)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; text.Has("hint-" + strconv.Itoa(i)); i++ {
		h := strings.ToLower(text.Get("hint-" + strconv.Itoa(i)))
		for _, bad := range []string{"look at the lock key", "key's value", "and ttl now"} {
			if strings.Contains(h, bad) {
				t.Errorf("hint-%d points at the hidden keys (%q): %q", i, bad, h)
			}
		}
	}
}

// storyRig is the lab scene's text and an embedded server, closed when
// the test ends: what a test that plays a break's story opens first.
func storyRig(t *testing.T) (content.Text, *sim.Backend) {
	t.Helper()
	text, err := content.Load(SceneID)
	if err != nil {
		t.Fatal(err)
	}
	be, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = be.Close(context.Background()) })
	return text, be
}
