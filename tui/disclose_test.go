package tui

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/class"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/storycode"
	"locksim/views"
)

// TestNothingAnswersAnOpenQuestion is the walk that proves the disclosure
// rule (play.Disclosure). For every question of every story, at 80x24 and
// 120x40 (the quick tier: each scene's first story that asks, at 80x24,
// its other forms than the learner's on the first story scene that asks; the slow
// tier: the other forms of the rest, that story at 120x40, every other
// at both), the
// evidence is derived from the run itself: the rows of the learner's
// screen at the first step after the reveal that are not on the
// learner's screen at the question reached forward (log lines, readout
// sentences, key and node rows, cards, the verdict and the properties). It must not be empty. Then no output at the question point
// may show any of it: the learner's screen reached by seek, by a story
// code and after a settings change and back; the projector's, reached by
// the clicker and by stepping back after the reveal (once, and twice then
// forward); a follower's, unanswered and answered, and after the
// instructor stepped back; the instructor's class view; the screens of
// every step from the question's moment on, reached forward; a cast's
// frames from the moment up to the question's marker; and a plain
// transcript before the question's line. Before the moment, no readout
// may state a consequence the questions ask about (answeringPhrases), and
// at no step before the answer may a readout state the right choice's
// claim (checkClaims): the key's row may be hidden while a sentence says
// what it holds.
//
// A row of the state as read (a key, a node, a card) is evidence only from
// the question's moment: at an earlier step the same row is the story's
// premise, true at an earlier time.
func TestNothingAnswersAnOpenQuestion(t *testing.T) {
	for _, sc := range scenes.All() {
		if sc.Predict == nil {
			continue
		}
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			asked := 0
			for _, p := range sc.Stories() {
				labels := labelsOf(sc.Build(p).Moves)
				at := sc.PredictAt(labels)
				if at < 0 {
					continue
				}
				asked++
				for _, size := range [][2]int{{80, 24}, {120, 40}} {
					// the quick tier walks each scene's first story that
					// asks at 80x24, the layout every screen must fit: the
					// learner's screens and pages by every way there, and
					// the other forms (projector, class, cast, text) on
					// the first story scene that asks; the slow tier those other forms
					// on the rest, the same story at 120x40 and every
					// other story at both
					first := asked <= 1 && size[0] == 80
					w := &walk{t: t, b: embedded(t), sc: sc, p: p, at: at, moment: sc.MomentAt(sc.Build(p).Moves, at), w: size[0], h: size[1]}
					if first {
						w.noCore = simtest.Slow
						w.noForms = !simtest.InTier(formsSample[sc.ID])
					} else if !simtest.Slow {
						continue
					}
					if w.noCore && w.noForms {
						continue
					}
					w.where = fmt.Sprintf("%s (%s) at %dx%d", sc.ID, sc.Describe(p), size[0], size[1])
					w.run()
				}
			}
		})
	}
}

// formsSample are the scenes whose first story that asks the quick tier
// walks in every form, not only the learner's: the first story scene that
// asks, in course order (the slow tier walks the rest's; each form's
// checks are the same code on every scene).
var formsSample = func() map[string]bool {
	out := map[string]bool{}
	picked := false
	for _, sc := range scenes.All() {
		if sc.Predict == nil {
			continue
		}
		// a story, not the race: the projector is stepped back only there
		out[sc.ID] = !picked && sc.Kind == scenes.Story
		picked = picked || out[sc.ID]
	}
	return out
}()

// checkClaims: no readout of the screens forward, each a step before the
// question, states a claim of the right choice (choiceClaims) of a, the
// question answered: a readout that says the fact answers as the choice
// does, whatever the keys hide.
func (w *walk) checkClaims(a *App, forward []string) {
	choices := a.pl.Choices()
	if a.pl.Actual < 0 || a.pl.Actual >= len(choices) {
		return
	}
	claims := choiceClaims(choices[a.pl.Actual])
	for step, v := range forward {
		said := strings.ToLower(flatten(strings.Join(readoutRows(v), " ")))
		for _, c := range claims {
			if strings.Contains(said, c) {
				w.t.Errorf("%s: the readout at step %d, before the question is answered, states the right choice's claim %q:\n%s", w.where, step, c, v)
			}
		}
	}
}

// choiceClaims are the claims of a question's choice, lower case: its
// clauses (after a leading "who:" and split at commas and "and") of four
// words or more, as a readout would state them as facts; a shorter clause
// ("it ran") is too common to be a claim.
func choiceClaims(choice string) []string {
	if _, rest, ok := strings.Cut(choice, ": "); ok {
		choice = rest
	}
	var out []string
	for _, part := range strings.Split(strings.ToLower(choice), ",") {
		for _, c := range strings.Split(part, " and ") {
			c = strings.TrimPrefix(strings.TrimSpace(c), "and ")
			if len(strings.Fields(c)) >= 4 {
				out = append(out, c)
			}
		}
	}
	return out
}

// walk is one question of one story at one size.
type walk struct {
	t          *testing.T
	b          *sim.Backend
	sc         *scenes.Scene
	p          scenes.Params
	at, moment int
	// own: how many of the story's moves are the learner's own
	own      int
	w, h     int
	where    string
	evidence map[string]bool
	// scripts are the scripts the story has sent by the step after the
	// reveal: their sources wait for the answer (checkScripts); sentAt
	// those sent by the question
	scripts, sentAt map[string]sim.Lua
	// live is what only a live run adds (sim.Event.Simulated): evidence
	// too, in any text (liveWalk)
	live []string
	// noCore leaves out the learner's screens and pages (every way to the
	// question), noForms the projector, the class, the cast and the text
	// forms: the two tiers split one walk between them (the evidence is
	// derived in both)
	noCore, noForms bool
	// glossary is the glossary as the walk's first app drew it at its
	// size: the course's terms, the same on every screen of every story,
	// given to each later app's memo (Common.glossary) instead of drawn
	// again (a third of a walk's own time); each app still opens it with ?
	// then g and shows it
	glossary string
}

func (w *walk) run() {
	t := w.t
	// the learner, forward: every step's screen up to the question
	a := w.open(Options{Seed: 1, Scene: w.sc.ID, Settings: w.p})
	var forward []string
	var now []time.Duration // each forward step's story time
	for range w.at + 1 {
		if a.pl.Asking {
			break
		}
		forward = append(forward, a.View())
		now = append(now, a.pl.Snap.Now)
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking || a.pl.Snap.Pos != w.at {
		t.Fatalf("%s: the story did not ask at step %d (step %d, asking %v)", w.where, w.at, a.pl.Snap.Pos, a.pl.Asking)
	}
	question, qNow := a.View(), a.pl.Snap.Now
	questionPages := w.pages(a)
	w.sentAt = a.pl.Snap.Scripts
	drive(t, a, keys("1")...)
	if a.pl.Snap.Pos != w.at+1 || !a.pl.Revealed {
		t.Fatalf("%s: answering did not run the decisive move (step %d, revealed %v)", w.where, a.pl.Snap.Pos, a.pl.Revealed)
	}
	after := a.View()
	afterPages := w.pages(a)
	w.scripts = a.pl.Snap.Scripts
	if !w.noCore {
		w.checkClaims(a, forward)
	}
	w.evidence = map[string]bool{}
	// the notes and the story page: what the answer adds to them
	for i := range afterPages {
		seen := map[string]bool{}
		for _, r := range screenRows(questionPages[i]) {
			seen[r] = true
		}
		for _, r := range screenRows(afterPages[i]) {
			if !seen[r] {
				w.evidence[r] = true
			}
		}
	}
	// a row of a script's source is the commands' as sent (the log's, an
	// export's), not the answer's: checkScripts holds the story page's
	for _, sc := range w.scripts {
		for _, l := range strings.Split(sc.Src, "\n") {
			delete(w.evidence, strings.TrimSpace(l))
		}
	}
	asked := map[string]bool{}
	for _, r := range screenRows(question) {
		asked[r] = true
	}
	// a log row of a move before the question is not an answer, though
	// the question's panel may leave it no room
	for _, v := range forward {
		for _, r := range logPaneRows(v) {
			asked[r] = true
		}
	}
	for _, r := range screenRows(after) {
		if !asked[r] {
			w.evidence[r] = true
		}
	}
	if len(w.evidence) == 0 {
		t.Errorf("%s: the step after the reveal shows nothing the question did not:\n%s", w.where, after)
		return
	}
	if !w.noCore {
		w.learner(a, forward, now, question, qNow, questionPages)
	}
	if !w.noForms {
		w.forms()
	}
}

// learner checks the learner's screens and pages: every step reached
// forward, at the question by seek, by a story code and after a settings
// change and back (a, answered).
func (w *walk) learner(a *App, forward []string, now []time.Duration, question string, qNow time.Duration, questionPages []string) {
	t := w.t

	// every step from the moment on, reached forward; the readout before it
	for step, v := range forward {
		w.checkPanel(fmt.Sprintf("the learner's screen at step %d, reached forward", step), v)
		if step >= w.moment {
			w.check(fmt.Sprintf("the learner's screen at step %d, reached forward", step), v)
			// from the moment the state as read answers the question (C's
			// key, gone after its clock jumped): it is hidden, not drawn
			if !strings.Contains(v, "(hidden until") {
				t.Errorf("%s: at step %d, from the question's moment (step %d), the state as read is not hidden:\n%s", w.where, step, w.moment, v)
			}
			continue
		}
		// before the moment the state is the story's premise; a readout's
		// sentence cannot be judged row by row (the answer may repeat an
		// earlier step's sentence), so the consequences no earlier step
		// may state are named
		for _, phrase := range answeringPhrases {
			if strings.Contains(flatten(strings.Join(readoutRows(v), " ")), phrase) {
				t.Errorf("%s: the readout at step %d, before the question, says %q:\n%s", w.where, step, phrase, v)
			}
		}
	}
	w.check("the learner at the question, reached forward", question)
	// the state the question hides (keys, nodes, cards), as drawn with
	// nothing hidden, must not be on screen at an earlier step of the same
	// story time: a node's clock jump or restart takes no story time
	bare := w.open(Options{Seed: 1, Scene: w.sc.ID, Settings: w.p, Step: w.at, NoQuiz: true})
	hidden := map[string]bool{}
	shown := map[string]bool{}
	for _, r := range topRows(question) {
		shown[r] = true
	}
	for _, r := range topRows(bare.View()) {
		if !shown[r] {
			hidden[r] = true
		}
	}
	for step, v := range forward {
		if now[step] != qNow {
			continue
		}
		for _, r := range topRows(v) {
			if hidden[r] {
				t.Errorf("%s: step %d, at the question's story time, shows the state the question hides: %q\n%s", w.where, step, r, v)
			}
		}
	}
	w.checkPages("the learner at the question", questionPages)
	if strings.Contains(questionPages[2], "linearizable") {
		t.Errorf("%s: at the question the history page gives the checker's verdicts:\n%s", w.where, questionPages[2])
	}
	for i, section := range []string{"notes-answer", "intro-answer"} {
		// the evidence comes from this very screen: it must hold the rest back
		if a.pl.Text.Has(section) && !strings.Contains(questionPages[3+i], play.WaitsForAnswer) {
			t.Errorf("%s: at the question the %s is not held back:\n%s", w.where, section, questionPages[3+i])
		}
	}
	if sent := w.sentAt; len(sent) > 0 && !strings.Contains(strings.Join(strings.Fields(questionPages[9]), " "), "waits for the answer") {
		t.Errorf("%s: at the question the story page does not say the sources of %v wait for the answer:\n%s", w.where, slices.Sorted(maps.Keys(sent)), questionPages[9])
	}

	// by seek (-scene X -step N, a saved place)
	// a move of one's own at the question (w lets time pass) is refused
	// until the learner answers: the question stays open
	if w.sc.Kind == scenes.Story {
		waited := w.open(Options{Seed: 1, Scene: w.sc.ID, Settings: w.p, Step: w.at})
		drive(t, waited, keys("w")...)
		if !waited.pl.Asking {
			t.Errorf("%s: after w at the question it is no longer asked (step %d):\n%s", w.where, waited.pl.Snap.Pos, waited.View())
		}
		w.check("the learner after w at the question", waited.View())
		w.checkPages("the learner after w at the question", w.pages(waited))
	}
	sought := w.open(Options{Seed: 1, Scene: w.sc.ID, Settings: w.p, Step: w.at})
	w.check("the learner at the question, opened at its step", sought.View())
	w.checkPages("the learner at the question, opened at its step", w.pages(sought))

	// by a story code of the question's place
	pos := play.Position{Version: play.PositionVersion, Scene: w.sc.ID, Settings: map[string]int(w.p), Seed: 1, Step: w.at}
	code, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	back, err := storycode.Decode(code)
	if err != nil {
		t.Fatal(err)
	}
	visit := w.open(Options{Position: &back, Visit: true})
	w.check("a story code of the question's place", visit.View())
	w.checkPages("a story code of the question's place", w.pages(visit))
	// a code made by someone who answered, then stepped back to the
	// question: the answer is theirs, the question the reader's
	pos.Prediction = &play.Prediction{Chosen: 0}
	answered, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	if back, err = storycode.Decode(answered); err != nil {
		t.Fatal(err)
	}
	visit = w.open(Options{Position: &back, Visit: true})
	w.check("a story code of the question's place, made after answering", visit.View())
	w.checkPages("a story code of the question's place, made after answering", w.pages(visit))

	// after a settings change and back, once answered
	if len(w.sc.Knobs) > 0 {
		k := w.sc.Knobs[0]
		drive(t, a, keys(strings.Repeat(k.Key, len(k.Values)))...)
		// the same story again, replayed to the moment the other stories'
		// waits mapped it to: never past its question, which is open again
		switch pos := a.pl.Snap.Pos; {
		case a.pl.Guess >= 0 || a.pl.Revealed || pos > w.at:
			t.Errorf("%s: after %s went round its values: step %d (question at %d), guess %d, revealed %v", w.where, k.Key, pos, w.at, a.pl.Guess, a.pl.Revealed)
		case pos >= w.moment:
			w.check(fmt.Sprintf("the learner at step %d after %s went round its values", pos, k.Key), a.View())
		}
	}

}

// forms checks the other forms of the question: the projector, a class,
// a cast and the text forms.
func (w *walk) forms() {
	t := w.t
	// the projector: the clicker, then back after the reveal
	pr := w.open(Options{Seed: 1, Scene: w.sc.ID, Settings: w.p, Present: true})
	for i := 0; i <= w.at && !pr.pl.Asking; i++ {
		drive(t, pr, keys(".")...)
	}
	w.check("the projector at the question", pr.View())
	w.checkPages("the projector at the question", w.pages(pr))
	// a race is not stepped back (r races again)
	if w.sc.Kind == scenes.Story {
		drive(t, pr, keys(".")...) // the class has seen it: the move runs
		drive(t, pr, keys("b")...)
		w.check("the projector stepped back to the question after the reveal", pr.View())
		if w.at > 0 {
			drive(t, pr, keys(".")...) // at the question again: runs the move
			drive(t, pr, keys("bb")...)
			drive(t, pr, keys(".")...)
			w.check("the projector two steps back after the reveal, then one forward", pr.View())
		}
	}

	// a class: the instructor leads, one student follows unanswered, one
	// answers; the instructor runs the move and steps back
	w.class()

	// a cast to the end: its frames from the moment to the question's marker
	var cast bytes.Buffer
	end := play.Position{Version: play.PositionVersion, Scene: w.sc.ID, Settings: map[string]int(w.p), Seed: 1, Step: len(w.sc.Build(w.p).Moves)}
	if err := Cast(context.Background(), &cast, w.b, end, CastOptions{Width: w.w, Height: w.h}); err != nil {
		t.Fatalf("%s: cast: %v", w.where, err)
	}
	frames := castFramesBeforeMarker(t, cast.Bytes())
	for i, f := range frames {
		if i >= w.moment {
			w.check(fmt.Sprintf("the cast's frame %d, before the question's marker", i), f)
		}
	}

	// the text forms: a transcript, a handout, a code's text, its cast
	// and its redis-cli export (disclose_text_test.go)
	w.textForms()
}

// class walks the question as a class would at the walk's size.
func (w *walk) class() {
	t := w.t
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: w.sc.ID, Settings: w.p}, w.w, w.h)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 1}, w.w, w.h)
	bob := joinAs(t, hub, info.Code, class.Student, "k-bob", "bob", Options{Seed: 7}, w.w, w.h)
	drive(t, teacher.a, keys("F")...)
	for _, s := range []member{ann, bob} {
		hear(t, s, "the instructor asking", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Follow })
		drive(t, s.a, keys("F")...)
	}
	for i := 0; i <= w.at && !teacher.a.pl.Asking; i++ {
		drive(t, teacher.a, keys("n")...)
	}
	for _, s := range []member{ann, bob} {
		if s.a.pl.Scene.ID != w.sc.ID || s.a.pl.Snap.Pos != w.at {
			hear(t, s, "the instructor at the question", leadAt(w.sc.ID, w.at))
		}
	}
	w.check("the instructor's screen at the question", teacher.a.View())
	drive(t, teacher.a, keys("l")...)
	// the class view with the students' rows at the question: their
	// places, steps and predictions
	there := map[string]bool{}
	hear(t, teacher, "the students at the question", func(e class.Event) bool {
		if e.Kind == class.KindMember && e.Member.Pos.Scene == w.sc.ID && e.Member.Pos.Step == w.at {
			there[e.Member.ID] = true
		}
		return there["k-ann"] && there["k-bob"]
	})
	if v := views.Strip(teacher.a.View()); !strings.Contains(v, "ann") || !strings.Contains(v, "bob") {
		t.Errorf("%s: the instructor's class view at the question has no row of its students:\n%s", w.where, v)
	}
	w.check("the instructor's class view at the question", teacher.a.View())
	drive(t, teacher.a, keys("l")...)
	w.check("a follower asked the question", ann.a.View())
	w.checkPages("a follower asked the question", w.pages(ann.a))
	drive(t, bob.a, keys("1")...)
	w.check("a follower who answered, waiting for the instructor", bob.a.View())

	if w.sc.Kind != scenes.Story {
		return // a race is not stepped back
	}
	// the move, for every follower: a first click with answers missing
	// says how many have answered, and the next runs it
	for range 2 {
		if teacher.a.pl.Snap.Pos <= w.at {
			drive(t, teacher.a, keys(".")...)
		}
	}
	for _, s := range []member{ann, bob} {
		hear(t, s, "the instructor past the question", leadAt(w.sc.ID, w.at+1))
	}
	drive(t, teacher.a, keys("b")...)
	for _, s := range []member{ann, bob} {
		hear(t, s, "the instructor back at the question", leadAt(w.sc.ID, w.at))
	}
	w.check("a follower who had not answered, after the instructor stepped back", ann.a.View())
	if !ann.a.pl.Asking {
		t.Errorf("%s: a follower who had not answered is not asked after the instructor stepped back:\n%s", w.where, ann.a.View())
	}
	w.check("the instructor stepped back to the question", teacher.a.View())

	// the instructor puts the answered, waiting student's run on screen:
	// the room's question is still open, on the instructor's screen and
	// on the projector
	projector := joinAs(t, hub, info.Code, class.Projector, "teacher", "teacher", Options{Seed: 9}, w.w, w.h)
	hear(t, teacher, "bob's answer", rowOf("k-bob", func(m class.Member) bool { return m.Pos.Prediction != nil && m.Pos.Step == w.at }))
	students := teacher.a.students()
	pick := slices.IndexFunc(students, func(m class.Member) bool { return m.ID == "k-bob" })
	drive(t, teacher.a, keys("l"+strings.Repeat("[down]", pick)+"[enter]")...)
	if p := teacher.a.pl.Position(); p.Seed != bob.a.pl.Seed || p.Step != w.at {
		t.Fatalf("%s: the instructor shows %+v, want bob's run at step %d", w.where, p, w.at)
	}
	w.check("the instructor showing an answered student's run at the question", teacher.a.View())
	hear(t, projector, "the shown run", func(e class.Event) bool {
		return e.Kind == class.KindLead && e.Lead.Pos.Seed == bob.a.pl.Seed
	})
	w.check("the projector showing an answered student's run at the question", projector.a.View())
}

// pages are the speaker notes (N), the story page (i) and the history
// page (v) as app a shows
// them now, each opened and closed again; each whole (see below); and
// the scene's ending (a), which opens only once the story is over and
// its question may be answered, and the whole of it.
func (w *walk) pages(a *App) []string {
	w.t.Helper()
	var out []string
	for _, k := range []string{"N", "i", "v"} {
		drive(w.t, a, keys(k)...)
		out = append(out, a.View())
		drive(w.t, a, keys(k)...)
	}
	// and each whole, as the core gives it to this screen: a long page
	// scrolls, and its end may be below the window (framed by a first and
	// a last row, which screenRows leaves out)
	out = append(out, "\n"+a.pl.Notes(a.pl.role)+"\n", "\n"+a.pl.Page(a.pl.role)+"\n")
	drive(w.t, a, keys("a")...)
	if _, ok := a.pages.top().(*endingPage); ok {
		out = append(out, a.View())
		drive(w.t, a, keys("a")...)
	} else {
		// the scene as it was, with a one-line note that the ending waits:
		// what it shows is the scene's, walked already
		out = append(out, "")
		a.pl.SetFlash("")
	}
	ending := ""
	if e, ok := a.course.SceneEnding(a.pl.Session, a.pl.role); ok {
		ending = "\n" + a.endingText(e, w.w) + "\n"
	}
	out = append(out, ending)
	// the glossary (? then g: g may be the scene's setting), and the whole
	// of it
	drive(w.t, a, keys("?g")...)
	g, ok := a.pages.top().(*glossaryPage)
	if !ok {
		w.t.Fatalf("%s: ? then g should open the glossary:\n%s", w.where, a.View())
	}
	if w.glossary == "" {
		w.glossary = g.text(w.w)
	}
	out = append(out, a.View(), "\n"+g.text(w.w)+"\n")
	drive(w.t, a, keys("g?")...)
	// the whole story page as the screen draws it (i): the core's text,
	// the settings and the scripts' sources it lets this role read; and
	// the -notes file as it would be written now (its answer key below
	// its heading)
	out = append(out, "\n"+a.pl.about(a.com.Styles, w.w)+"\n", "\n"+a.notesPage())
	return out
}

// checkPages checks the notes and the story page of one role.
func (w *walk) checkPages(what string, pages []string) {
	w.t.Helper()
	w.check(what+", the speaker notes", pages[0])
	w.check(what+", the story page", pages[1])
	w.check(what+", the history page", pages[2])
	w.check(what+", the whole speaker notes", pages[3])
	w.check(what+", the whole story page", pages[4])
	w.check(what+", the scene's ending", pages[5])
	w.check(what+", the whole ending", pages[6])
	w.check(what+", the glossary", pages[7])
	w.check(what+", the whole glossary", pages[8])
	w.check(what+", the whole story page as drawn", pages[9])
	w.checkScripts(what+", the whole story page as drawn", pages[9])
	w.check(what+", the -notes file", pages[10])
}
