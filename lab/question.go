package lab

import (
	"context"
	"slices"
	"strings"
	"sync"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
)

// Question is what a break's story asks before the move that breaks its
// property: "which property does it break?".
type Question struct {
	// Move is the label of the move the question comes before: the first
	// after which the story's ledger shows the break's property broken.
	// The player stops before the first move of that label.
	Move string
	// Choices are the properties offered, in AllProperties' order; the
	// choice "none" follows them. They are the break's own property and
	// each other property judged by default or by the lock's policy that
	// the ledger shows holding at every position from Move to the end of
	// the story, so no choice but one is true of the story. A level that
	// checks one property is still asked about the others: the ledger
	// reads them all, and a choice of two would be yes or no again.
	//
	// Choices is nil when the story asks nothing: its ledger never shows
	// the break's property broken, or the player would stop before an
	// earlier move of the breaking move's label (either way the replies
	// would answer "none", against the verdict), or fewer than two
	// properties can be offered (one and "none" is yes or no, and names
	// the answer the page holds back). When it asks, the answer the
	// replies give is the break's property, the one its verdict names.
	Choices []Property
	// Before are the properties the ledger shows broken just before Move:
	// the move does not break them.
	Before []Property
}

// Question plays b's story on a fresh embedded server and reads from its
// ledger, position by position, the move that breaks b's property and
// the choices its question offers (see Question). If the story cannot be
// played, or never shows the property broken, it asks nothing (Choices
// nil, Move the break's last move): the question's answer and the
// break's verdict come from one judgement of the story's replies
// (BrokenWithin), never from two.
func (b *Break) Question(ctx context.Context) Question {
	q, _ := b.question(ctx, b.Script())
	return q
}

// question is Question with b's story given, and the story as its play
// ended (nil if it could not be played).
func (b *Break) question(ctx context.Context, script sim.Script) (Question, *scenes.Played) {
	be, err := sim.OpenEmbedded()
	if err != nil {
		return Question{Move: lastMove(b)}, nil
	}
	defer be.Close(ctx)
	broken, played, err := brokenOn(ctx, be, b, script)
	if err != nil {
		return Question{Move: lastMove(b)}, nil
	}
	return b.questionOf(script, broken), played
}

// questionOf is the question of b's story script, whose ledger shows
// broken at each position (brokenOn).
func (b *Break) questionOf(script sim.Script, broken [][]Property) Question {
	q := Question{Move: lastMove(b)}
	j := slices.IndexFunc(broken, func(ps []Property) bool { return slices.Contains(ps, b.Property) }) - 1
	if j < 0 {
		return q
	}
	// the player stops before the first move of that label (see
	// scenes.Scene.PredictAt): if that is an earlier move (two pauses of
	// one client look alike), b's property breaks later, and the replies
	// would answer "none" to a question the verdict answers with b's
	// property: the story asks nothing
	q.Move = sim.MoveLabel(script.Moves[j])
	at := slices.IndexFunc(script.Moves, func(m sim.Move) bool { return sim.MoveLabel(m) == q.Move })
	if at != j {
		return q
	}
	q.Before = broken[at]
	for _, p := range AllProperties() {
		offered := slices.Contains(DefaultProperties(), p) || slices.Contains(b.Lock.Policy.Properties, p)
		if p == b.Property || offered && !brokenAfter(broken, at, p) {
			q.Choices = append(q.Choices, p)
		}
	}
	if len(q.Choices) < 2 {
		q.Choices = nil
	}
	return q
}

// Answer is the index of the choice the ledger's broken properties make
// true of the question's move: the one choice they name that was not
// broken before it, len(Choices) ("none") when there is none, -1 when
// there are more than one.
func (q Question) Answer(broken []Property) int {
	at := len(q.Choices)
	for i, p := range q.Choices {
		if slices.Contains(broken, p) && !slices.Contains(q.Before, p) {
			if at < len(q.Choices) {
				return -1
			}
			at = i
		}
	}
	return at
}

// lastMove is the label of the break's last move: the probe's acquire in
// a deadlock-freedom break.
func lastMove(b *Break) string {
	switch {
	case b.Probe:
		return ProbeClient(b.Clients) + " acquire"
	case len(b.Moves) > 0:
		return b.Moves[len(b.Moves)-1].String()
	}
	return ""
}

// brokenOn plays script, b's story, on be (an embedded server) and lists
// the properties its ledger shows broken at each position: before any
// move, then after each.
func brokenOn(ctx context.Context, be *sim.Backend, b *Break, script sim.Script) ([][]Property, *scenes.Played, error) {
	r := sim.NewRun(be, script, 1)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		return nil, nil, err
	}
	var out [][]Property
	var snap sim.Snapshot
	for k := 0; k <= len(script.Moves); k++ {
		if err := r.Seek(ctx, k); err != nil {
			return nil, nil, err
		}
		snap = r.Snapshot(ctx)
		out = append(out, BrokenWithin(scenes.Fold(snap), b.Lock.Policy.TTL))
	}
	return out, &scenes.Played{Events: snap.Events, Moves: snap.Moves}, nil
}

// brokenAfter reports whether p is broken at any position after move at.
func brokenAfter(broken [][]Property, at int, p Property) bool {
	for _, ps := range broken[at+1:] {
		if slices.Contains(ps, p) {
			return true
		}
	}
	return false
}

// StoryOf builds a story of l with the given clients (2 or 3) and moves
// (nil for none: a learner schedules every step by hand, with the
// player's own moves). Each client's program has one step per step the
// moves give it, and at least the steps of a run with no fault. probe adds
// ProbeClient at the end, as in a deadlock-freedom break.
func StoryOf(l *Lock, clients int, moves []Move, probe bool) sim.Script {
	pr, err := compileRun(context.Background(), l)
	return storyOf(pr, err, l, clients, moves, probe)
}

// build is the Build of b's scene, b.Script each time with b's lock as
// compiled gives it: a scene is built many times (checked, fingerprinted,
// read back, played), and b's lock is compiled, and its reentrance found
// on a scratch server, once.
func (b *Break) build(compiled func() (*program, error)) func(scenes.Params) sim.Script {
	return func(scenes.Params) sim.Script {
		pr, err := compiled()
		return storyOf(pr, err, &b.Lock, b.Clients, b.Moves, b.Probe)
	}
}

// Build returns Script, and a prediction before the move that breaks b's
// property: which property it breaks (the content's predict section, with
// {move}; its choices, one line per property of Question's and then
// "none", in {choices}), answered from the ledger. It plays the story once
// on an embedded server to find that move and those choices (Question).
func (b *Break) Scene() *scenes.Scene {
	sc, _ := b.sceneOf(sync.OnceValues(func() (*program, error) { return compileRun(context.Background(), &b.Lock) }))
	return sc
}

// VetScene is Vet, and then b's Scene: built with b's lock as the vetting
// play compiled it, so the scene compiles it again on no server of its own.
func (b *Break) VetScene(ctx context.Context) (*scenes.Scene, error) {
	sc, _, err := b.VetStory(ctx)
	return sc, err
}

// VetStory is VetScene and the scene's story as the play that found its
// question ended (nil if it could not be played): a story code's
// fingerprint hashes it instead of playing the story again.
func (b *Break) VetStory(ctx context.Context) (*scenes.Scene, *scenes.Played, error) {
	pr, err := b.vet(ctx)
	if err != nil {
		return nil, nil, err
	}
	sc, played := b.sceneOf(func() (*program, error) { return pr, nil })
	return sc, played, nil
}

// sceneOf is Scene with b's lock as compiled gives it, and its story as
// the play that found its question ended.
func (b *Break) sceneOf(compiled func() (*program, error)) (*scenes.Scene, *scenes.Played) {
	build := b.build(compiled)
	q, played := b.question(context.Background(), build(nil))
	prop := b.Property
	sc := &scenes.Scene{
		ID:    SceneID,
		Kind:  scenes.Story,
		Wait:  b.Lock.Policy.TTL / 2,
		Build: build,
		Say: func(v scenes.Frame, s *scenes.Said) {
			if slices.Contains(BrokenWithin(v.L, b.Lock.Policy.TTL), prop) {
				s.Verdict = b.verdictAt(v.Snap.Pos >= len(v.Snap.Moves))
			}
		},
		Predict: &scenes.Prediction{
			Before: []string{q.Move},
			Answer: func(v scenes.Frame) int {
				return q.Answer(BrokenWithin(v.L, b.Lock.Policy.TTL))
			},
			Vars: func(t content.Text, _ scenes.Params) map[string]string {
				var lines []string
				for _, p := range q.Choices {
					lines = append(lines, t.Get("choice-"+string(p)))
				}
				lines = append(lines, t.Get("choice-none"))
				return map[string]string{"move": q.Move, "choices": strings.Join(lines, "\n")}
			},
		},
	}
	if len(q.Choices) == 0 {
		sc.Predict = nil // the replies cannot answer it (Question)
	}
	return sc, played
}
