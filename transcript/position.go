package transcript

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"strings"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
)

// PlainPosition writes to w the transcript of the one story a learner's
// position stands in (play.Position), played on b from its start to its
// end: its settings and seed, the learner's own moves in the schedule where
// they went in, with their replies, and the prediction given at the
// question; a lab story or a trial of the race plays as the screen plays
// it. Quiz positions and positions that Check refuses are errors.
func PlainPosition(ctx context.Context, w io.Writer, b *sim.Backend, pos play.Position) error {
	if err := pos.Check(); err != nil {
		return err
	}
	sc, textID := scenes.Find(pos.Scene), pos.Scene
	switch {
	case pos.Lab != nil:
		var err error
		if sc, err = pos.Lab.Scene(); err != nil {
			return err
		}
	case pos.Trial != nil:
		textID = "trial"
	}
	if !sc.Sends() {
		return fmt.Errorf("position: scene %s is a quiz, not a story", sc.ID)
	}
	text, err := content.LoadHandout(textID)
	if err != nil {
		return err
	}
	p := scenes.Params(maps.Clone(pos.Settings))
	if p == nil {
		p = scenes.Params{}
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "locksim · %s · %s · %s\n", sc.ID, text.Get("dive"), text.Get("title"))
	plainServer(&out, sc.Script(p), b, pos.Seed)
	if len(pos.Own) > 0 {
		var own []string
		for _, o := range pos.Own {
			own = append(own, ownLabel(o))
		}
		fmt.Fprintf(&out, "your own moves, in the order made: %s\n", strings.Join(own, " · "))
	}
	t := &transcript{b: b, seed: pos.Seed}
	pv := plainVariant{t: t, sc: sc, text: text, p: p, own: pos.Own, lab: pos.Lab, trial: pos.Trial, guess: pos.Prediction, w: &out, key: &out,
		ask: !(b.Live() && sc.NeedsEmbedded(p))}
	err = pv.play(ctx)
	if _, werr := io.WriteString(w, wrapColumns(out.String(), plainColumns)); werr != nil {
		return werr
	}
	return err
}

// ownLabel is an own move as the transcript names it: "crash B after 2
// moves", "wait 10 s after 3 moves".
func ownLabel(o play.Own) string {
	what := o.Kind
	for _, on := range []string{o.Actor, o.Node} {
		if on != "" {
			what += " " + on
		}
	}
	if o.MS > 0 {
		what += " " + storyDur(o.D())
	}
	return fmt.Sprintf("%s after %d moves", what, o.At)
}
