package transcript

import (
	"fmt"
	"io"
	"locksim/play"
	"locksim/scenes"
	"locksim/storycode"
	"strings"
)

// storyCode is the code of the story s has played to its end (see
// storycode): locksim -story CODE opens it there. guess is the prediction
// a position gave, if any; without one, a story with a question has it
// put to the reader (passed), who has read the question and the replies
// that answer it, so the code opens at the end rather than at the question.
func storyCode(s *play.Session, guess *play.Prediction, asks bool) (string, error) {
	pos := s.Position()
	pos.Selected, pos.Node = "", ""
	pos.Prediction = guess
	if guess == nil && asks {
		pos.Prediction = &play.Prediction{Chosen: -1, Passed: true}
	}
	return storycode.Encode(pos)
}

// step runs the story's next move in the session: a story's step, as the
// learner takes it; the race's one move, which no learner steps, by seeking
// to it.
func step(d play.Driver) error {
	s := d.S
	from := s.Snap.Pos
	if s.Stepped() {
		if err := d.Do(play.Do(play.Step)); err != nil {
			return err
		}
	} else {
		d.Run(s.SeekTo(s.Snap.Pos + 1))
	}
	if err := runErr(s); err != nil {
		return err
	}
	if s.Snap.Pos == from {
		// a step cut short (a cancelled context) leaves the story where it
		// was: stop rather than ask again for ever
		return fmt.Errorf("the story did not move on from step %d", from)
	}
	return nil
}

// question prints the scene's question and its choices, numbered among
// the transcript's questions.
func (v plainVariant) question(w io.Writer) {
	v.t.n++
	q := handoutLine(strings.ReplaceAll(v.sc.Question(v.text, v.p, "predict"), "\n", " "))
	if v.t.o.Questions {
		fmt.Fprintf(w, "\nquestion %d: %s\n", v.t.n, q)
		for i, c := range strings.Split(v.sc.Question(v.text, v.p, "choices"), "\n") {
			fmt.Fprintf(w, "  %d) %s\n", i+1, c)
		}
		fmt.Fprintln(w, "  your answer:")
		return
	}
	fmt.Fprintf(w, "[predict: %s]\n", q)
	choices := strings.Split(v.sc.Question(v.text, v.p, "choices"), "\n")
	for i, c := range choices {
		fmt.Fprintf(w, "[  %d) %s]\n", i+1, c)
	}
	switch g := v.guess; {
	case g == nil:
	case g.Passed:
		fmt.Fprintln(w, "[the question was put to the class]")
	case g.Chosen >= 0 && g.Chosen < len(choices):
		fmt.Fprintf(w, "[your prediction: %d) %s]\n", g.Chosen+1, choices[g.Chosen])
	}
}

// answer is the choice the replies on the session's snapshot answer, as
// "2) the text".
func (v plainVariant) answer(s *play.Session) string {
	n := v.sc.Predict.Answer(scenes.Frame{Snap: s.Snap, L: s.Ledger, P: v.p, Sel: -1, Text: v.text})
	if choices := strings.Split(v.sc.Question(v.text, v.p, "choices"), "\n"); n >= 0 && n < len(choices) {
		return fmt.Sprintf("%d) %s", n+1, choices[n])
	}
	return "none of them"
}
