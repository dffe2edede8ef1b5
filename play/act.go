package play

import (
	"context"
	"locksim/content"
	"slices"
	"time"

	"locksim/scenes"
	"locksim/sim"
)

// pick is yes when on is set, else no: a fault's toggle.
func pick(on bool, yes, no string) string {
	if on {
		return yes
	}
	return no
}

// next runs the keys pressed while the last move ran. A run of steps and
// steps back becomes one seek, so a burst of → on a live server replays
// once, to where the learner wanted to be.
func (p *Session) next() Cmd {
	delta := 0
	for len(p.pending) > 0 && (p.pending[0].Verb == Step || p.pending[0].Verb == Back) {
		if p.pending[0].Verb == Step {
			delta++
		} else {
			delta--
		}
		p.pending = p.pending[1:]
	}
	if delta != 0 {
		if cmd := p.SeekTo(p.Snap.Pos + delta); cmd != nil {
			return cmd
		}
	}
	if len(p.pending) > 0 && p.pending[0].Verb == Seek {
		// opening at a step: -step N, or where the learner left the scene
		k := p.pending[0]
		p.pending = p.pending[1:]
		if cmd := p.SeekTo(k.N); cmd != nil {
			return cmd
		}
	}
	for len(p.pending) > 0 {
		k := p.pending[0]
		p.pending = p.pending[1:]
		if cmd, _ := p.Act(k); cmd != nil {
			return cmd
		}
	}
	return p.refreshLater()
}

// Act applies one of the scene's controls (see Verb); it returns false if the
// action means nothing here.
func (p *Session) Act(act Action) (Cmd, bool) {
	action, arg := act.Verb, act.N
	p.Wants = WantNothing // until this action is refused for want of a pick
	if !p.Accepts(action) {
		return nil, false
	}
	if !p.Sends() {
		return p.quizKey(act) // no run to wait for: a quiz sends nothing
	}
	n := len(p.Snap.Actors)
	switch action {
	case Select, Next, Prev:
		if p.Busy && len(p.pending) > 0 {
			// keys run in the order typed: after the moves already waiting
			p.pending = append(p.pending, act)
			return nil, true
		}
	}
	switch action {
	case Select:
		if p.Asking {
			if p.Busy {
				return nil, true // the question waits for the running move
			}
			return p.answer(arg), true
		}
		if arg >= 0 && arg < n {
			p.Sel = arg
		}
		return nil, true
	case Next:
		if n > 0 {
			p.Sel = (p.Sel + 1 + n) % n
		}
		return nil, true
	case Prev:
		if n > 0 {
			p.Sel = (max(p.Sel, 0) - 1 + n) % n
		}
		return nil, true
	case Hint:
		hints := 0
		for p.Text.Has("hint-" + itoa(int64(hints+1))) {
			hints++
		}
		if hints == 0 {
			return nil, false
		}
		if p.Hints >= hints {
			// each hint is shown once: say so rather than show the last again
			p.Flash = p.Text.Get("hints-none")
			return nil, true
		}
		p.Hints++
		p.Hinting = true
		return nil, true
	case Faster:
		p.Speed = min(p.Speed+1, len(Speeds())-1)
		return nil, true
	case Slower:
		p.Speed = max(p.Speed-1, 0)
		return nil, true
	case Step, Back:
		if p.Asking && p.Present && action == Step && !p.Busy {
			// the clicker: the class has seen the question; run the move
			p.Asking, p.Passed = false, true
			return p.SeekTo(p.QuestionAt() + 1), true
		}
		// the readout follows the story again; select an actor to ask about it
		p.Playing, p.Sel = false, -1
		if p.Busy {
			p.pending = append(p.pending, act)
			return nil, true // run in turn when the running move is done
		}
		delta := 1
		if action == Back {
			delta = -1
		}
		return p.SeekTo(p.Snap.Pos + delta), true
	case Play:
		p.Playing, p.Sel = !p.Playing, -1
		if p.Playing && !p.Busy {
			if p.Snap.Pos >= len(p.Snap.Moves) {
				return p.begin(nil), true // from the top
			}
			// a live story's clock was held where it stopped: go on from there
			return p.SeekTo(p.Snap.Pos + 1), true
		}
		return nil, true
	}
	if action == Node {
		if arg < 0 || arg >= len(p.Snap.Nodes) {
			return nil, false
		}
		p.Node = arg
		return nil, true
	}
	if action == Knob && (arg < 0 || arg >= len(p.Scene.Knobs)) {
		return nil, false // no such setting: an action from outside may say anything
	}
	switch action {
	case Home, Replay, Knob, Defaults:
	case Crash, Pause, Wait, Move, Stop, Cut, Slow, Jump, Hang:
	default:
		return nil, false
	}
	if p.Busy {
		p.pending = append(p.pending, act)
		return nil, true
	}
	p.Note, p.Err = "", ""
	switch action {
	case Home:
		p.Playing, p.Sel = false, -1
		return p.Restart(), true // the story as written, without the learner's moves
	case Replay:
		p.Playing = false
		if k, ok := p.kind.(*storyKind); ok && k.trial != nil {
			// from a trial stepped through as a story, back to the race itself
			p.Scene, p.Sel = scenes.Find(p.Scene.ID), -1
			if text, err := content.Load(p.Scene.ID); err == nil {
				p.Text = text
			}
		}
		p.kind = &raceKind{} // a race again is a new race, fired for real
		p.Seed++
		return p.Restart(), true
	case Knob:
		k := p.Scene.Knobs[arg]
		if v, ok := p.Scene.FixedBy(p.Params, k.Name); ok {
			// the story sends its own: no other value would change it
			p.Flash = "this story's " + k.Name + " is its own, " + v + ": " + k.Key + " changes nothing here"
			return nil, true
		}
		asked := p.QuestionAt() // the question's step in the story on screen
		p.Params[k.Name] = (p.Params[k.Name] + 1) % len(k.Values)
		// a value whose story this server cannot play is passed over, and
		// the line says why
		for range k.Values {
			r := FormsRefusal(p.Scene, p.Params, p.Backend)
			if r == "" {
				break
			}
			p.Flash = r + ": that setting is skipped here"
			p.Params[k.Name] = (p.Params[k.Name] + 1) % len(k.Values)
		}
		// the new story replays to the moment the learner was at, so the
		// setting's effect shows at once
		return p.resettle(asked), true
	case Defaults:
		if scenes.FormatSettings(p.Scene, p.Params) == "" {
			p.Flash = "the settings are at their defaults already"
			return nil, true
		}
		asked := p.QuestionAt()
		p.Params = scenes.Params{}
		p.Flash = "the settings are back to their defaults"
		return p.resettle(asked), true
	case Crash, Pause, Wait, Move, Stop, Cut, Slow, Jump, Hang:
		if p.Asking {
			// a move of one's own here would play the decisive moment
			// (timeout's 0.65 s pass in a wait) before the prediction
			p.Err = "answer the question first (h for a hint)"
			return nil, true
		}
		own, msg := p.learnerMove(action)
		if msg != "" {
			p.Err = msg
			return nil, true
		}
		m, err := own.Move()
		if err != nil {
			p.Err = err.Error()
			return nil, true
		}
		own.At = p.Snap.Pos
		k := p.kind.(*storyKind) // only a story accepts a move of one's own
		k.own = append(k.own, own)
		p.Playing = false
		return p.do(func(ctx context.Context, r *sim.Run) error { return r.Insert(ctx, m) }), true
	}
	return nil, false
}

// learnerMove is the move the learner asked for with the selected actor,
// as data, or a one-line reason it cannot be made.
func (p *Session) learnerMove(action Verb) (Own, string) {
	if action == Wait {
		return Own{Kind: "wait", MS: p.Scene.Wait.Milliseconds()}, ""
	}
	switch action {
	case Stop, Cut, Slow, Jump, Hang:
		return p.nodeMove(action)
	}
	if p.Sel < 0 || p.Sel >= len(p.Snap.Actors) {
		p.Wants = WantActor
		return Own{}, "select an actor first"
	}
	a := p.Snap.Actors[p.Sel]
	switch {
	case a.Status == sim.Crashed && action != Move:
		return Own{}, a.Name + " has crashed: nothing more can happen to it"
	case action == Crash:
		return Own{Kind: "crash", Actor: a.Name}, ""
	case action == Pause && a.Status == sim.Paused:
		return Own{Kind: "resume", Actor: a.Name}, ""
	case action == Pause:
		return Own{Kind: "pause", Actor: a.Name}, ""
	}
	return Own{Kind: "step", Actor: a.Name}, ""
}

// nodeMove is the fault the learner asked for on the picked node (and, to
// cut a link, the selected client), or a one-line reason it cannot be made.
func (p *Session) nodeMove(action Verb) (Own, string) {
	if p.Node < 0 || p.Node >= len(p.Snap.Nodes) {
		p.Wants = WantNode
		return Own{}, "pick a node first"
	}
	n := p.Snap.Nodes[p.Node]
	switch action {
	case Stop:
		if n.Down {
			return Own{Kind: "restart", Node: n.Name}, ""
		}
		return Own{Kind: "stop", Node: n.Name}, ""
	case Slow:
		return Own{Kind: pick(n.Slow, "prompt", "slow"), Node: n.Name}, ""
	case Hang:
		return Own{Kind: pick(n.Hung, "wake", "hang"), Node: n.Name}, ""
	case Jump:
		if n.Simulated {
			return Own{}, sim.ErrClockFixed.Error()
		}
		// a TTL and a second more: a key set within that second expires too
		return Own{Kind: "jump", Node: n.Name, MS: (p.Scene.Wait + time.Second).Milliseconds()}, ""
	}
	if p.Sel < 0 || p.Sel >= len(p.Snap.Actors) {
		p.Wants = WantActor
		return Own{}, "select a client first, to cut it off node " + n.Name
	}
	a := p.Snap.Actors[p.Sel].Name
	return Own{Kind: pick(slices.Contains(n.Cut, a), "heal", "cut"), Actor: a, Node: n.Name}, ""
}
