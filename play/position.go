package play

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"locksim/lab"
	"locksim/scenes"
	"locksim/scenes/progress"
	"locksim/sim"
)

// PositionVersion is the format of a Position as JSON; Open refuses a later
// one rather than guess what its fields mean.
const PositionVersion = 1

// Position is one learner's place in a scene, everything needed to show it
// again: the scene, its settings (knob name → index of its value), the seed
// the tokens are drawn from, the learner's own moves in the order made, the
// step (moves of the schedule applied), and the prediction. On the embedded
// server, replaying it lands on exactly the same replies.
type Position struct {
	Version  int            `json:"version"`
	Scene    string         `json:"scene"`
	Settings map[string]int `json:"settings,omitempty"`
	Seed     uint64         `json:"seed,omitempty"`
	Own      []Own          `json:"own,omitempty"`
	Step     int            `json:"step"`
	// Prediction is the answer given at the decisive point, or that the
	// question was passed to the class; nil before either.
	Prediction *Prediction `json:"prediction,omitempty"`
	// Quiz is where a quiz scene stands: nil for a story.
	Quiz *QuizPlace `json:"quiz,omitempty"`
	// Selected is the actor whose card and readout are picked, and Node
	// the node picked in a distributed story; "" for none. They change
	// what the readout explains, so a follower sees what the leader sees.
	Selected string `json:"selected,omitempty"`
	Node     string `json:"node,omitempty"`
	// Race is the race scene's outcome once its SETs have run: opening the
	// position replays it (the same replies again) rather than racing anew.
	Race *RaceRecord `json:"race,omitempty"`
	// Trial is a trial of the race's trials the race scene steps through
	// as a story (its anomaly shown); nil for none.
	Trial *TrialRecord `json:"trial,omitempty"`
	// Lab is a lab story's lock and schedule: its scene (lab.SceneID) is
	// built from them, not found in the registry. Nil for the course's
	// scenes.
	Lab *LabPlace `json:"lab,omitempty"`
}

// RaceRecord is a race as the server answered it: one shot per worker.
type RaceRecord struct {
	Shots []RaceShot `json:"shots"`
}

// RaceShot is one worker's SET in a race: Order is its place in the
// server's order as the replies tell it (1 for the SET the server ran
// first, the OK; the refused ones after it, by worker, as the replies say
// nothing of their order), and Reply the reply as redis-cli prints it.
type RaceShot struct {
	Worker string `json:"worker"`
	Order  int    `json:"order"`
	Reply  string `json:"reply"`
}

// Order is the workers by their shots' Order.
func (r *RaceRecord) Order() []string {
	shots := slices.Clone(r.Shots)
	// sort.SliceStable, not slices.SortStableFunc: shared code, not a
	// copy compiled for RaceShot (docs/benchmarks.md: the binary's size)
	sort.SliceStable(shots, func(i, j int) bool { return shots[i].Order < shots[j].Order })
	out := make([]string, len(shots))
	for i, s := range shots {
		out[i] = s.Worker
	}
	return out
}

// clone is a copy of r that shares nothing with it; nil for nil.
func (r *RaceRecord) clone() *RaceRecord {
	if r == nil {
		return nil
	}
	return &RaceRecord{Shots: slices.Clone(r.Shots)}
}

// QuizPlace is a learner's place in a quiz: the situation on screen (its
// count for the score page), the Class chosen for each situation (-1 for
// none) and the situations whose key was shown to a class unanswered.
type QuizPlace struct {
	At      int    `json:"at"`
	Answers []int  `json:"answers"`
	Shown   []bool `json:"shown,omitempty"`
}

// Prediction is what happened to a scene's question.
type Prediction struct {
	Chosen int  `json:"chosen"`           // 0-based choice; -1 when passed
	Passed bool `json:"passed,omitempty"` // put to the class with no answer typed
}

// Own is one move the learner put into the schedule: where (At, the moves
// applied when it went in), what (Kind), on which actor and node, and for a
// wait or a clock jump how long (story time, JSON in milliseconds).
type Own struct {
	At    int    `json:"at"`
	Kind  string `json:"kind"` // step, crash, pause, resume, wait, stop, restart, cut, heal, slow, prompt, hang, wake, jump
	Actor string `json:"actor,omitempty"`
	Node  string `json:"node,omitempty"`
	MS    int64  `json:"ms,omitempty"`
}

// D is the own move's duration.
func (o Own) D() time.Duration { return time.Duration(o.MS) * time.Millisecond }

// Move is the schedule move o stands for; an unknown kind is an error.
func (o Own) Move() (sim.Move, error) {
	switch o.Kind {
	case "step":
		return sim.StepOf(o.Actor), nil
	case "crash":
		return sim.Crash(o.Actor), nil
	case "pause":
		return sim.Pause(o.Actor), nil
	case "resume":
		return sim.Resume(o.Actor), nil
	case "wait":
		return sim.Advance(o.D()), nil
	case "stop":
		return sim.NodeStop(o.Node), nil
	case "restart":
		return sim.NodeRestart(o.Node, true), nil
	case "cut", "heal":
		return sim.NodeCut(o.Actor, o.Node, o.Kind == "cut"), nil
	case "slow", "prompt":
		return sim.NodeSlow(o.Node, o.Kind == "slow"), nil
	case "hang", "wake":
		return sim.NodeHang(o.Node, o.Kind == "hang"), nil
	case "jump":
		return sim.NodeJump(o.Node, o.D()), nil
	}
	return sim.Move{}, fmt.Errorf("unknown move %q", o.Kind)
}

// FromMoment is the position an older progress file's moment names: no own
// moves, no prediction.
func FromMoment(m progress.Moment) Position {
	return Position{Version: PositionVersion, Scene: m.Scene, Settings: maps.Clone(m.Settings), Seed: m.Seed, Step: m.Step}
}

// Moment is p as a progress file's moment (its own moves and prediction
// are not kept there).
func (p Position) Moment() progress.Moment {
	return progress.Moment{Scene: p.Scene, Settings: maps.Clone(p.Settings), Seed: p.Seed, Step: p.Step}
}

// ParsePosition reads a Position from JSON and checks it against the
// scene it names (see Check): a position comes from outside (a file, a
// story code, another session), so nothing in it is trusted.
func ParsePosition(data []byte) (Position, error) {
	var p Position
	if err := json.Unmarshal(data, &p); err != nil {
		return Position{}, fmt.Errorf("position: %w", err)
	}
	if err := p.Check(); err != nil {
		return Position{}, err
	}
	if p.Race != nil {
		for _, s := range p.Race.Shots {
			if s.Worker == "" || s.Order < 1 {
				return Position{}, fmt.Errorf("position: race shot %+v names no worker or place", s)
			}
		}
	}
	return p, nil
}

// Check reports the first thing in p that this locksim cannot open: a
// format other than 1 to PositionVersion, an unknown scene, a setting the
// scene does not have or a value out of its range, a negative step or one
// past the schedule, an own move of an unknown kind, out of place, or on an
// actor or node the scene does not have.
func (p Position) Check() error {
	_, err := p.CheckedScene()
	return err
}

// CheckedScene is Check that also returns the scene p stands in, for a
// caller that needs it next: a lab story's scene is built by searching
// its break, which is worth doing once.
func (p Position) CheckedScene() (*scenes.Scene, error) {
	if err := p.checkVersion(); err != nil {
		return nil, err
	}
	sc, err := p.scene()
	if err != nil {
		return nil, err
	}
	if err := p.checkIn(sc); err != nil {
		return nil, err
	}
	return sc, nil
}

// CheckIn is Check with sc, the scene p stands in, already built (by
// CheckedScene, or from the same registry or lab place): a lab story's
// scene is not built again.
func (p Position) CheckIn(sc *scenes.Scene) error {
	if err := p.checkVersion(); err != nil {
		return err
	}
	if p.Lab != nil && p.Scene != lab.SceneID {
		return fmt.Errorf("position: a lab story's scene is %s, not %q", lab.SceneID, p.Scene)
	}
	if sc == nil || sc.ID != p.Scene {
		return p.Check()
	}
	return p.checkIn(sc)
}

// checkVersion refuses a format this locksim cannot read.
func (p Position) checkVersion() error {
	if p.Version < 1 || p.Version > PositionVersion {
		return fmt.Errorf("position: format %d, this locksim reads 1 to %d", p.Version, PositionVersion)
	}
	return nil
}

// checkIn is Check against sc, the scene p names (p.scene): a lab story's
// scene is built by vetting its break, once.
func (p Position) checkIn(sc *scenes.Scene) error {
	params := scenes.Params{}
	for name, v := range p.Settings {
		i := slices.IndexFunc(sc.Knobs, func(k scenes.Knob) bool { return k.Name == name })
		if i < 0 {
			return fmt.Errorf("position: scene %s has no setting %q", p.Scene, name)
		}
		if v < 0 || v >= len(sc.Knobs[i].Values) {
			return fmt.Errorf("position: setting %s of scene %s has no value %d", name, p.Scene, v)
		}
		params[name] = v
	}
	script := sc.Script(params)
	if p.Trial != nil {
		if sc.Kind != scenes.Race {
			return fmt.Errorf("position: a trial in scene %s, which runs none", p.Scene)
		}
		if err := p.Trial.check(); err != nil {
			return err
		}
		script = trialScript(p.Trial)
	}
	actors := map[string]bool{}
	for _, a := range script.Actors {
		actors[a.Name] = true
	}
	if p.Selected != "" && !actors[p.Selected] {
		return fmt.Errorf("position: actor %q is not one of scene %s", p.Selected, p.Scene)
	}
	if p.Node != "" && !slices.Contains(script.Nodes, p.Node) {
		return fmt.Errorf("position: node %q is not one of scene %s", p.Node, p.Scene)
	}
	moves := len(script.Moves)
	for i, o := range p.Own {
		if _, err := o.Move(); err != nil {
			return fmt.Errorf("position: %w", err)
		}
		if o.At < 0 || o.At > moves {
			return fmt.Errorf("position: own move %d goes in at %d, outside the schedule's 0 to %d", i+1, o.At, moves)
		}
		if o.Actor != "" && !actors[o.Actor] {
			return fmt.Errorf("position: own move %d names actor %q, not one of scene %s", i+1, o.Actor, p.Scene)
		}
		if o.Node != "" && !slices.Contains(script.Nodes, o.Node) {
			return fmt.Errorf("position: own move %d names node %q, not one of scene %s", i+1, o.Node, p.Scene)
		}
		if o.MS < 0 {
			return fmt.Errorf("position: own move %d lasts %d ms", i+1, o.MS)
		}
		moves++ // the schedule grows by each own move
	}
	if p.Step < 0 || p.Step > moves {
		return fmt.Errorf("position: step %d, outside the schedule's 0 to %d", p.Step, moves)
	}
	return nil
}

// scene is the scene p names: one of the registry, or a lab story built
// from p.Lab.
func (p Position) scene() (*scenes.Scene, error) { return p.sceneIn(nil) }

// sceneIn is the scene p names among list (nil: the registry's), or a lab
// story built from p.Lab.
func (p Position) sceneIn(list []*scenes.Scene) (*scenes.Scene, error) {
	switch {
	case p.Lab != nil && p.Scene != lab.SceneID:
		return nil, fmt.Errorf("position: a lab story's scene is %s, not %q", lab.SceneID, p.Scene)
	case p.Lab != nil:
		return p.Lab.Scene()
	}
	if list == nil {
		// the registry's: build the one scene named, not every scene
		if sc := scenes.Find(p.Scene); sc != nil {
			return sc, nil
		}
	} else if i := slices.IndexFunc(list, func(sc *scenes.Scene) bool { return sc.ID == p.Scene }); i >= 0 {
		return list[i], nil
	}
	if p.Scene == lab.SceneID {
		return nil, fmt.Errorf("position: a lab story carries its lock (lab), and this one has none")
	}
	return nil, fmt.Errorf("position: unknown scene %q", p.Scene)
}

// Redo brings run r, just Reset, to the learner's own moves: each goes in
// where it went in before (sim.Run.Insert at At), in the order made, so the
// schedule is the learner's again. The caller then seeks to the step.
func Redo(ctx context.Context, r *sim.Run, own []Own) error {
	for _, o := range own {
		m, err := o.Move()
		if err != nil {
			return err
		}
		if err := r.Seek(ctx, o.At); err != nil {
			return err
		}
		if err := r.Insert(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// QuestionAt is the step sc's question comes before in its story under
// params with the learner's own moves put in: the move the question asks
// about, found in the schedule as written (Scene.PredictAt) and followed
// through each insertion, since an own move put in at or before it moves
// it one later; -1 when the story has no question.
func QuestionAt(sc *scenes.Scene, params scenes.Params, own []Own) int {
	var labels []string
	for _, m := range sc.Script(params).Moves {
		labels = append(labels, sim.MoveLabel(m))
	}
	return questionAt(sc, labels, own)
}

// questionAt is QuestionAt given the labels of the schedule as written.
func questionAt(sc *scenes.Scene, labels []string, own []Own) int {
	at := sc.PredictAt(labels)
	if at < 0 {
		return -1
	}
	for _, o := range own {
		if o.At <= at {
			at++
		}
	}
	return at
}
