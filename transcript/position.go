package transcript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
)

// PositionOptions shape the transcript of a position (PlainPositionWith).
type PositionOptions struct {
	// Role is who reads it (play.Transcript for -story CODE -plain,
	// play.Code for a code's text served over SSH or the web): the
	// disclosure rule (play.Disclose) decides, for that role, whether the
	// position's question is still open.
	Role play.Role
	// Answer is the reader's answer to the open question, a choice's
	// number from 1 (-answer N, ?answer=N); 0 for none.
	Answer int
	// GoOn is how this reader answers and plays on, as the stop's last
	// line names it ("-answer N, as in locksim -story CODE -plain -answer
	// 1").
	GoOn string
}

// PlainPosition writes to w the transcript of the one story a learner's
// position stands in (play.Position), played on b from its start to its
// end: its settings and seed, the learner's own moves in the schedule where
// they went in, with their replies, and the prediction given at the
// question; a lab story or a trial of the race plays as the screen plays
// it. It is PlainPositionWith for a plain transcript's reader.
func PlainPosition(ctx context.Context, w io.Writer, b *sim.Backend, pos play.Position) error {
	return PlainPositionWith(ctx, w, b, pos, PositionOptions{Role: play.Transcript})
}

// PlainPositionWith is PlainPosition for o's reader. A position at or
// before its story's question, which the disclosure rule holds open for
// that reader (a code's author's prediction answers nothing for its
// reader), plays to the question and stops there: the question, its
// choices, and one line, o.GoOn, naming how to answer it and play on.
// With o.Answer, the reader's answer is given at the question and the
// story plays to its end. Quiz positions and positions that Check refuses
// are errors, and so is an answer AnswerRefusal refuses.
func PlainPositionWith(ctx context.Context, w io.Writer, b *sim.Backend, pos play.Position, o PositionOptions) error {
	if err := pos.Check(); err != nil {
		return err
	}
	if r := AnswerRefusal(pos, o.Role, o.Answer); r != "" {
		return errors.New(r)
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
	if o.GoOn == "" {
		o.GoOn = "give -answer N, N your choice's number"
	}
	t := &transcript{b: b, seed: pos.Seed}
	ask := !(b.Live() && sc.NeedsEmbedded(p))
	guess := pos.Prediction
	stop := false
	if d := play.Disclose(pos, o.Role); d.Open && ask {
		// the question is the reader's: the author's prediction is not
		// theirs, and without an answer of their own the story stops at it
		guess, stop = nil, o.Answer == 0
		if o.Answer > 0 {
			guess = &play.Prediction{Chosen: o.Answer - 1}
		}
	}
	pv := plainVariant{t: t, sc: sc, text: text, p: p, own: pos.Own, lab: pos.Lab, trial: pos.Trial, guess: guess, w: &out, key: &out,
		ask: ask, stop: stop, goOn: o.GoOn}
	err = pv.play(ctx)
	if _, werr := io.WriteString(w, wrapColumns(out.String(), plainColumns)); werr != nil {
		return werr
	}
	return err
}

// AnswerRefusal is the one line that turns down answer (a choice's number
// from 1; 0 is none) for the position's reader in role: "" when it may be
// given, that is when it is 0, or when the position's question is open
// for that reader and answer numbers one of its choices.
func AnswerRefusal(pos play.Position, role play.Role, answer int) string {
	if answer == 0 {
		return ""
	}
	if pos.Quiz != nil {
		return "the code is a place in a quiz, which has no story to answer in"
	}
	d := play.Disclose(pos, role)
	if !d.Open {
		if d.At < 0 {
			return "the code's story asks no question to answer"
		}
		return fmt.Sprintf("the code stands at step %d, past its story's question (at step %d), which it has answered: give a code at or before the question", pos.Step, d.At)
	}
	sc, err := scenes.Find(pos.Scene), error(nil)
	if pos.Lab != nil {
		sc, err = pos.Lab.Scene()
	}
	if err != nil || sc == nil {
		return "the code's scene is not one of this locksim's"
	}
	text, err := content.LoadHandout(pos.Scene)
	if err != nil {
		return err.Error()
	}
	n := len(strings.Split(sc.Question(text, scenes.Params(maps.Clone(pos.Settings)), "choices"), "\n"))
	if answer < 1 || answer > n {
		return fmt.Sprintf("the answer is the number of a choice, from 1 to %d, got %d", n, answer)
	}
	return ""
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
	if o.At == 1 {
		return what + " after 1 move"
	}
	return fmt.Sprintf("%s after %d moves", what, o.At)
}
