package play

import (
	"locksim/content"
	"maps"
	"slices"

	"locksim/scenes"
	"locksim/sim"
)

// applyPosition sets a session that has not started yet to pos (checked)
// and builds its run: its settings and seed (when pos has them), its
// prediction and, for a story, the learner's own moves and the step,
// which it goes to once started. The door (Open) alone calls it.
func (p *Session) applyPosition(pos Position) {
	if pos.Settings != nil {
		p.Params = scenes.Params(maps.Clone(pos.Settings))
	}
	if pos.Seed != 0 {
		p.Seed = pos.Seed
	}
	if pos.Prediction != nil {
		p.Guess, p.Passed = pos.Prediction.Chosen, pos.Prediction.Passed
		// the answer was reported when it was given: reopening it is not a
		// second answer (a class poll would count it twice)
		p.Revealed = true
	}
	if _, ok := p.kind.(*raceKind); ok && pos.Trial != nil {
		// a trial of the race, stepped through as a story, in its own words
		p.kind = &storyKind{trial: pos.Trial.clone()}
		p.Scene = trialScene(p.Scene, pos.Trial)
		if text, err := content.Load("trial"); err == nil {
			p.Text = text
		}
	}
	if k, ok := p.kind.(*storyKind); ok {
		k.lab = pos.Lab.clone()
	}
	p.kind.apply(p, pos)
	p.Run = sim.NewRun(p.Backend, p.script(), p.Seed)
	script := p.Scene.Script(p.Params)
	p.Sel = slices.IndexFunc(script.Actors, func(a sim.ActorSpec) bool { return a.Name == pos.Selected })
	p.Node = slices.Index(script.Nodes, pos.Node)
	if pos.Selected == "" {
		p.Sel = -1
	}
	if pos.Node == "" {
		p.Node = -1
	}
	if p.Stepped() && pos.Step > 0 {
		p.openAt(pos.Step)
	}
}

// momentOf is where position pos stands in a schedule: how many waits run
// before it, and how many moves since the last of them.
func momentOf(moves []sim.Move, pos int) (waits, after int) {
	for _, m := range moves[:min(pos, len(moves))] {
		after++
		if m.Kind == sim.MoveAdvance {
			waits, after = waits+1, 0
		}
	}
	return waits, after
}

// posAt is the same moment in a changed schedule: its end when end is set;
// else past the same number of waits and then after more moves, never past
// the next wait. A setting can change how long a wait is (gc-pause's pause),
// so the moment is kept by the story's waits, not by the clock: a story time
// that falls inside a longer wait would put the learner back before it. A
// schedule with fewer waits is shown to its end.
func posAt(moves []sim.Move, waits, after int, end bool) int {
	if end {
		return len(moves)
	}
	start := 0
	for i, m := range moves {
		if waits == 0 {
			break
		}
		if m.Kind == sim.MoveAdvance {
			waits--
			start = i + 1
		}
	}
	if waits > 0 {
		return len(moves)
	}
	pos := start
	for pos < len(moves) && pos-start < after && moves[pos].Kind != sim.MoveAdvance {
		pos++
	}
	return pos
}

// Position is where the learner stands in this scene (see Position).
func (p *Session) Position() Position {
	pos := Position{Version: PositionVersion, Scene: p.Scene.ID, Settings: maps.Clone(p.Params), Seed: p.Seed,
		Step: p.Snap.Pos}
	p.kind.place(p, &pos)
	if p.Guess >= 0 || p.Passed {
		pos.Prediction = &Prediction{Chosen: p.Guess, Passed: p.Passed}
	}
	if p.Sel >= 0 && p.Sel < len(p.Snap.Actors) {
		pos.Selected = p.Snap.Actors[p.Sel].Name
	}
	if p.Node >= 0 && p.Node < len(p.Snap.Nodes) {
		pos.Node = p.Snap.Nodes[p.Node].Name
	}
	return pos
}

// resettle replays the story under changed settings to the same moment:
// the end if the learner was at the end; the new story's question if they
// stood at the question and the new story asks one, wherever it stands in
// it; else past as many waits as before and as many steps since the last
// one (see posAt). The moment is the one the learner came to, not the one
// the last setting brought them to: cycling through a setting's values
// back to the first returns to the same step, where passing through a
// shorter story would have left them further back each time. Seeking there
// stops at a question not yet answered (SeekTo), so nothing is revealed.
//
// asked is the step of the question in the story on screen (before the
// change; -1 for none).
func (p *Session) resettle(asked int) Cmd {
	p.Playing = false
	from := p.settled
	if from == nil || from.scene != p.Scene || from.landed != p.Snap.Pos {
		// the learner moved the story since the last change: its moment now
		moves := p.Run.Moves()
		from = &settledAt{scene: p.Scene, end: p.Snap.Pos >= len(moves) && p.Snap.Pos > 0,
			question: asked >= 0 && p.Snap.Pos == asked}
		from.waits, from.after = momentOf(moves, p.Snap.Pos)
	}
	// a prediction belongs to the story it was made in: the new story asks
	// its question again, and a code made now carries no answer to it
	p.Guess, p.Passed, p.Revealed, p.Actual = -1, false, false, -1
	edited := p.Run.Edited()
	cmd := p.Restart()
	target := posAt(p.Run.Moves(), from.waits, from.after, from.end)
	at := p.QuestionAt()
	if from.question && at >= 0 {
		target = at
	}
	if target > 0 {
		p.pending = append([]Action{DoN(Seek, target)}, p.pending...)
	}
	// where the seek comes to rest: at a question before target, unanswered
	from.landed = target
	if p.asksHere() && !p.Follow && at >= 0 && at < target {
		from.landed = at
	}
	p.settled = from
	if edited {
		p.Flash = "the new setting replays the story as written: your inserted moves were dropped"
	}
	return cmd
}

// settledAt is the moment of a story a settings change keeps (resettle):
// in the scene the learner moved in, past waits waits and after steps since
// the last, or at its end, or at its question; landed is the step the last
// change brought the story to, so a learner still there has not moved.
type settledAt struct {
	scene        *scenes.Scene
	waits, after int
	end          bool
	question     bool
	landed       int
}
