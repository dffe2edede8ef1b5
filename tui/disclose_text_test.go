package tui

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/transcript"
)

// goOn stands for the line a text form's reader is given to answer and
// play on (the command line's -answer N, ssh's, the web's ?answer=N).
const goOn = "GO-ON-BY-ANSWERING"

// textForms is the walk's part for the outputs that are text, each asking
// the disclosure rule with its role (play.Disclose): the plain transcript
// of the story to its end, before its question's line (-plain, role
// Transcript); the handout before its answer key (-plain -questions,
// /plain/SCENE and /plain/ask/SCENE, role Handout); and, given the code
// of the question's place made before and after answering, the code's
// text as -story CODE -plain (Transcript), ssh HOST story CODE and
// /plain/s/CODE (Code) print it, its cast and its redis-cli export.
//
// Besides the screen's evidence, the text has its own, derived the same
// way: the transcript's lines after the question and its choices that are
// not before them (what the reveal adds to the text). A code's text stops
// at its question with the line that says how to go on, and none of it;
// given an answer, it plays on and has it all.
func (w *walk) textForms() {
	t := w.t
	ctx := context.Background()
	moves := w.sc.Build(w.p).Moves
	end := play.Position{Version: play.PositionVersion, Scene: w.sc.ID, Settings: map[string]int(w.p), Seed: 1, Step: len(moves)}
	full := w.plainAt(end, transcript.PositionOptions{Role: play.Transcript})
	before, after := splitAtQuestion(full)
	if after == "" {
		t.Fatalf("%s: the transcript asks no question:\n%s", w.where, full)
	}
	w.checkText("the transcript before the question's line", before, nil)
	textEvidence := map[string]bool{}
	told := map[string]bool{}
	for _, l := range strings.Split(before, "\n") {
		told[strings.TrimSpace(l)] = true
	}
	for _, l := range strings.Split(after, "\n") {
		if l = strings.TrimSpace(l); l != "" && !told[l] {
			textEvidence[l] = true
		}
	}
	if len(textEvidence) == 0 {
		t.Fatalf("%s: the transcript's reveal adds nothing:\n%s", w.where, full)
	}
	if w.w != 80 {
		return // the text is the same at every size: the first size reads it
	}

	// the handout, before its answer key
	var handout bytes.Buffer
	if err := transcript.PlainWith(ctx, &handout, w.b, w.sc.ID, 1, transcript.PlainOptions{Questions: true, Settings: w.p}); err != nil {
		t.Fatalf("%s: handout: %v", w.where, err)
	}
	body, _, _ := strings.Cut(handout.String(), "\nanswer key\n")
	if !strings.Contains(body, "question 1:") {
		t.Errorf("%s: the handout asks no question:\n%s", w.where, body)
	}
	w.checkText("the handout before its answer key", body, textEvidence)

	// the code of the question's place, before and after its author answered
	at := end
	at.Step = w.at
	for _, pred := range []*play.Prediction{nil, {Chosen: 0}} {
		at.Prediction = pred
		for _, role := range []play.Role{play.Transcript, play.Code} {
			what := fmt.Sprintf("a code of the question's place (role %d, author's prediction %v)", role, pred != nil)
			text := w.plainAt(at, transcript.PositionOptions{Role: role, GoOn: goOn})
			asked, rest := splitAtQuestion(text)
			if rest == "" || !strings.Contains(rest, goOn) {
				t.Errorf("%s: %s does not stop at the question with the way on:\n%s", w.where, what, text)
			}
			w.checkText(what, asked+rest, textEvidence)
		}
	}
	// the way on: an answer plays the story on, as the screen would
	at.Prediction = nil
	answered := w.plainAt(at, transcript.PositionOptions{Role: play.Code, Answer: 1, GoOn: goOn})
	if _, rest := splitAtQuestion(answered); w.sc.Kind != scenes.Story {
		// a race without its record is a real race each time: its lines
		// differ, not their number
		if got, want := strings.Count(rest, "\n"), strings.Count(after, "\n"); got < want {
			t.Errorf("%s: answered, the code's text goes on for %d lines past its question, the story's for %d:\n%s", w.where, got, want, answered)
		}
	} else {
		for l := range textEvidence {
			if !strings.HasPrefix(l, "story code:") && !strings.Contains(rest, l) {
				t.Errorf("%s: answered, the code's text lacks %q:\n%s", w.where, l, answered)
			}
		}
	}

	// a cast of the code: its frames, to the question's marker, and no further
	var cast bytes.Buffer
	if err := Cast(ctx, &cast, w.b, at, CastOptions{Width: w.w, Height: w.h}); err != nil {
		t.Fatalf("%s: cast of the code: %v", w.where, err)
	}
	frames := castFramesBeforeMarker(t, cast.Bytes())
	for i, f := range frames {
		if i >= w.moment {
			w.check(fmt.Sprintf("the code's cast, frame %d", i), f)
		}
	}
	// after the question's marker (or, asked at the story's start, its
	// first frame) only the end that gives the terminal back
	_, tail, ok := strings.Cut(cast.String(), `"m", "predict:`)
	if !ok && w.at == 0 {
		_, tail, ok = strings.Cut(cast.String(), `"o"`)
	}
	if !ok || strings.Count(tail, `"o"`) > 1 {
		t.Errorf("%s: the code's cast does not end at its question:\n%s", w.where, cast.String())
	}

	// the code's redis-cli export (ssh HOST cli CODE)
	s, err := play.Open(ctx, at, play.Env{Backend: w.b, ID: 1, Options: play.Options{Predict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.WithoutCancel(ctx))
	if err := (play.Driver{S: s}).Start(); err != nil {
		t.Fatal(err)
	}
	_, script := transcript.Export(scenes.Export{}, false, w.sc.ID, 1, s.Snap)
	w.checkText("the code's redis-cli export", string(script), textEvidence)

	// the code's -history page as transcript.History writes it (-history
	// -story CODE)
	var page bytes.Buffer
	if _, err := transcript.History(ctx, &page, w.b, at, false, time.Second); err != nil {
		t.Fatalf("%s: the code's history page: %v", w.where, err)
	}
	w.checkText("the code's history page", page.String(), textEvidence)
}

// plainAt is the text of pos as transcript.PlainPositionWith writes it.
func (w *walk) plainAt(pos play.Position, o transcript.PositionOptions) string {
	w.t.Helper()
	var out bytes.Buffer
	if err := transcript.PlainPositionWith(context.Background(), &out, w.b, pos, o); err != nil {
		w.t.Fatalf("%s: the text of %+v: %v\n%s", w.where, pos, err, out.String())
	}
	return out.String()
}

// splitAtQuestion parts a transcript at its question: the text before the
// question's line, and from the line after its choices on ("" when it
// asks none).
func splitAtQuestion(text string) (before, after string) {
	before, rest, ok := strings.Cut(text, "[predict:")
	if !ok {
		return text, ""
	}
	lines := strings.Split(rest, "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "[  ") {
		i++ // the question's own lines, wrapped
	}
	for i < len(lines) && strings.HasPrefix(lines[i], "[  ") {
		i++ // its choices
	}
	return before, "\n" + strings.Join(lines[i:], "\n")
}

// checkText fails for the walk's evidence in text: a screen row of at
// least 20 characters, a line of the text's own evidence, or what only a
// live run adds (w.live).
func (w *walk) checkText(what, text string, lines map[string]bool) {
	w.t.Helper()
	w.checkLength(what, text)
	flat := flatten(text)
	for r := range w.evidence {
		if len(r) >= 20 && strings.Contains(flat, flatten(r)) {
			w.t.Errorf("%s: %s says %q, which answers the question", w.where, what, r)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); lines[l] {
			w.t.Errorf("%s: %s has the line %q, which the reveal adds", w.where, what, l)
		}
	}
	for _, p := range w.live {
		if strings.Contains(flat, flatten(p)) {
			w.t.Errorf("%s: %s says %q, how the live server played a fault, which answers the question", w.where, what, p)
		}
	}
}

// liveWalk is the walk of one story that asks, played live on url: the
// learner's screen to the question and past it gives the evidence, as
// embedded; what only a live run adds (sim.Event.Simulated, how locksim
// played a fault there) is evidence too, and must come after the reveal.
// Before the question the live run says what the embedded one says: every
// fault note and every refusal line (a reply that never came) the same;
// a run the machine stalled past half the story's margin (its commands
// that late of story time, or a round trip the log noted that long) is
// played again, up to three times, then skipped (untilJudged).
// Then the question screen, the transcript before its question's line and
// the code of the question's place, as text, say none of it.
// own are the learner's own moves, if any.
func liveWalk(t *testing.T, url string, sc *scenes.Scene, p scenes.Params, own []play.Own) {
	b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(liveWalkScale))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	if r := play.FormsRefusal(sc, p, b); r != "" {
		t.Skipf("%s (%s) is not played on this server: %s", sc.ID, sc.Describe(p), r)
	}
	at := play.QuestionAt(sc, p, own)
	// the taller screen: its log has room for the faults' lines
	w := &walk{t: t, b: b, sc: sc, p: p, at: at, own: len(own), w: 120, h: 40}
	w.where = fmt.Sprintf("%s (%s, own moves %v), live", sc.ID, sc.Describe(p), own)
	start := play.Position{Version: play.PositionVersion, Scene: sc.ID, Settings: map[string]int(p), Seed: 1, Own: own}
	// the same story embedded, to its question: the live run must say the
	// same notes and refusals before it
	e := embedded(t)
	there := start
	there.Step = at
	s, err := play.Open(context.Background(), there, play.Env{Backend: e, ID: 1, Options: play.Options{Predict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if err := (play.Driver{S: s}).Start(); err != nil {
		t.Fatal(err)
	}
	var a *App
	var forward []string // every step's screen up to the question
	// a machine that stalls the live run past half the story's margin
	// carries a command across a deadline the story keeps clear of: such
	// a run proves nothing either way, and the story is played again, up
	// to three times, then skipped (untilJudged); a difference with less
	// lateness fails
	untilJudged(t, sc.Shortest, func() (string, time.Duration) {
		a, forward = w.toQuestion(start, at)
		live, emb := saidBefore(a.pl.Snap.Events, at), saidBefore(s.Snap.Events, at)
		if slices.Equal(live, emb) {
			return "", 0
		}
		return fmt.Sprintf("%s: before the question the live run says\n  %s\nwhere the embedded one says\n  %s", w.where, strings.Join(live, "\n  "), strings.Join(emb, "\n  ")),
			stepLateness(a.pl.Snap, s.Snap)
	})
	question := a.View()
	drive(t, a, keys("1")...)
	if !a.pl.Revealed {
		t.Fatalf("%s: answering did not reveal:\n%s", w.where, a.View())
	}
	w.checkClaims(a, forward)
	shown := map[string]bool{}
	for _, r := range screenRows(question) {
		shown[r] = true
	}
	w.evidence = map[string]bool{}
	for _, r := range screenRows(a.View()) {
		if !shown[r] && !logRow.MatchString(r) {
			w.evidence[r] = true
		}
	}
	for _, e := range a.pl.Snap.Events {
		if e.Simulated != "" && !slices.Contains(w.live, e.Simulated) {
			w.live = append(w.live, e.Simulated)
		}
	}
	w.check("the live learner at the question", question)
	w.checkText("the live learner at the question", question, nil)
	// a key row at an earlier step is the story's premise (see walk); how
	// locksim played a fault is not, at any step before the question
	premise := w.evidence
	w.evidence = nil
	for i, v := range forward {
		w.checkText(fmt.Sprintf("the live learner at step %d, before the question", i), v, nil)
	}
	w.evidence = premise

	// the text: to the end, and the code of the question's place
	end := start
	end.Step = len(sc.Build(p).Moves) + len(own)
	end.Prediction = &play.Prediction{Chosen: 0}
	full := w.plainAt(end, transcript.PositionOptions{Role: play.Transcript})
	before, after := splitAtQuestion(full)
	if after == "" {
		t.Fatalf("%s: the live transcript asks no question:\n%s", w.where, full)
	}
	w.checkText("the live transcript before the question's line", before, nil)
	for _, l := range w.live {
		if !strings.Contains(flatten(after), flatten(l)) {
			t.Errorf("%s: the live transcript never says how locksim played a fault (%q), even after the reveal", w.where, l)
		}
	}
	end.Step = at
	code := w.plainAt(end, transcript.PositionOptions{Role: play.Code, GoOn: goOn})
	if _, rest := splitAtQuestion(code); !strings.Contains(rest, goOn) {
		t.Errorf("%s: the live code's text does not stop at the question:\n%s", w.where, code)
	}
	w.checkText("the live code's text at its question", code, nil)
}

// toQuestion opens start on the walk's backend and steps it to its
// question at step at: the app there, and every step's screen before it.
func (w *walk) toQuestion(start play.Position, at int) (*App, []string) {
	w.t.Helper()
	a := w.open(Options{Position: &start})
	var forward []string
	for i := 0; i <= at && !a.pl.Asking; i++ {
		forward = append(forward, a.View())
		drive(w.t, a, keys("n")...)
	}
	if !a.pl.Asking || a.pl.Snap.Pos != at {
		w.t.Fatalf("%s: the story did not ask at step %d (step %d):\n%s", w.where, at, a.pl.Snap.Pos, a.View())
	}
	return a, forward
}

// liveWalkScale divides story time in the live walk: the stories that
// ask, played to their end a few times each, stay within the budget
// docs/testing.md states.
const liveWalkScale = 20

// saidBefore is what a run's events before move at say that is not a
// command's own: each fault's note, and each reply that never came. A
// move a live run played again (a replay on a loaded machine) counts
// once, as last played.
func saidBefore(events []sim.Event, at int) []string {
	byMove := map[int][]string{}
	played := -1
	for _, e := range events {
		if e.Move < 0 || e.Move >= at {
			continue
		}
		if e.Move < played {
			for m := e.Move; m < at; m++ {
				delete(byMove, m)
			}
		}
		played = e.Move
		switch {
		case e.Kind == sim.Fault:
			byMove[e.Move] = append(byMove[e.Move], e.Note)
		case e.Kind == sim.Command && e.Unknown():
			byMove[e.Move] = append(byMove[e.Move], e.Actor+"→"+e.Node+": "+e.Reply)
		}
	}
	var out []string
	for m := range at {
		out = append(out, byMove[m]...)
	}
	return out
}

// TestNothingAnswersAnOpenQuestionLive is the walk's live part: every
// story that asks, played on the slow tier's redis-server (liveWalk); a
// story only embedded nodes can play is skipped, by name.
func TestNothingAnswersAnOpenQuestionLive(t *testing.T) {
	url := simtest.StartRedis(t)
	for _, sc := range scenes.All() {
		if sc.Predict == nil || !sc.Sends() {
			continue
		}
		for _, p := range sc.Stories() {
			at := sc.PredictAt(labelsOf(sc.Build(p).Moves))
			if at < 0 {
				continue
			}
			t.Run(sc.ID+"/"+sc.Describe(p), func(t *testing.T) {
				if sc.NeedsEmbedded(p) {
					t.Skipf("%s (%s) needs the embedded server: on a live one it asks nothing", sc.ID, sc.Describe(p))
				}
				t.Parallel()
				liveWalk(t, url, sc, p, nil)
			})
		}
	}
	// a learner's faults before the question: the stop's refusals and the
	// hang's timeouts come before it too, as they read embedded
	t.Run("redlock/C restarts, A stopped and B hung by the learner", func(t *testing.T) {
		t.Parallel()
		sc := scenes.Find("redlock")
		p := scenes.Params{"story": slices.Index(sc.Knobs[0].Values, "C restarts")}
		liveWalk(t, url, sc, p, []play.Own{{At: 0, Kind: "stop", Node: "A"}, {At: 0, Kind: "hang", Node: "B"}})
	})
}
