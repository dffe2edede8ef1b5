package play

import (
	"maps"
	"slices"
	"strings"

	"locksim/scenes"
	"locksim/sim"
)

// Role is who reads a place: what may be shown depends on it only for the
// answer key (see Disclosure.Key).
type Role int

const (
	// Learner is one learner at their own screen (alone, or a student of
	// a class who is not following).
	Learner Role = iota
	// Projector is the class's screen: -present's one terminal, or a
	// class's projector session.
	Projector
	// Follower is a student following the instructor.
	Follower
	// Instructor is the instructor's own class session, whose projector
	// is another session: it may read the answer key.
	Instructor
	// NotesFile is the -notes file, the presenter's second screen: it may
	// read the answer key.
	NotesFile
	// Transcript is a plain transcript, read in order.
	Transcript
	// Handout is a plain transcript with -questions: the answers go to the
	// key at its end.
	Handout
	// Cast is an asciicast of the screen.
	Cast
	// Code is a story code and what opens from it.
	Code
	// History is the history page and the -history HTML page.
	History
)

// answerKey reports a role that may read the answer to an open question,
// under a heading that says it is not for the projector.
func (r Role) answerKey() bool { return r == Instructor || r == NotesFile }

// Disclosure is what a role may be shown of a story at one position: the
// one rule every page, role and output asks (Disclose, Session.Disclose).
//
// A story's question is open when the position is at or before it with no
// answer for this story (a question put to a class without an answer is
// not one); while it is open nothing that answers it is shown: from its
// moment (scenes.Scene.MomentAt) the state as read (keys, nodes, the
// cards' reading of them, the verdict, the alarm, the properties), and at
// every step the checker's verdicts and the answer's text (the second part
// of the notes and of the story page).
type Disclosure struct {
	// At is the step the question stands before, -1 when the story asks
	// none here; Moment is the first step whose state answers it.
	At, Moment int
	// Open: the question is at or ahead of the position, unanswered.
	Open bool
	// Waiting: a follower has answered and waits at the question for the
	// instructor to run the move; what answers it stays hidden.
	Waiting bool
	// State: the keys as read, the nodes, the cards' reading of them, the
	// verdict, the alarm and the properties may be shown.
	State bool
	// Checked: the checker's verdicts and the history's lease marks may be
	// shown.
	Checked bool
	// Answer: the answer's text (notes-answer, intro-answer) may be shown.
	Answer bool
	// Key: the answer is shown as an answer key, to a role that may read
	// it while the question is open (the instructor, the notes file).
	Key bool
	// Ahead is how many of the schedule's moves the timeline may draw
	// (their marks, their kinds, their count), -1 for all. While the
	// question is open it draws none past the question's move (Drawn):
	// the moves still to come, their number (the bar's marks, "8/12"),
	// their kinds (a crash, a wait) and so the story's length differ
	// between the stories of one question whose answers differ (in
	// crash-gap only the story where s2 got the lock once had a move
	// more), so the future tells the answer before it is given. So for
	// every role: the instructor's screen is the projector's.
	Ahead int
}

// Drawn is how many of a schedule's n moves the timeline may draw under
// d, and whether the rest is withheld (the timeline draws "⋯" and "8/?"
// rather than their marks and number). While the question is open it is
// withheld whatever the story's length: a story whose question stands
// before its last move would otherwise draw its whole bar and "7/7", so
// tell that nothing follows (timeout's "6/7" did, where every other
// scene said "N/?").
func (d Disclosure) Drawn(n int) (int, bool) {
	if d.Ahead < 0 {
		return n, false
	}
	return min(d.Ahead, n), true
}

// standing is where a story stands with respect to its question.
type standing struct {
	at, moment, step int
	answered         bool // a prediction was made for this story
	waiting          bool
	// elsewhere: this story asks nothing, but another story of its scene
	// does, and the scene's answer text answers that one
	elsewhere bool
}

// disclose is the rule: see Disclosure.
func disclose(s standing, role Role) Disclosure {
	d := Disclosure{At: s.at, Moment: s.moment, Ahead: -1}
	if s.at < 0 {
		d.At, d.Moment = -1, -1
		d.State, d.Checked = true, true
		d.Answer = !s.elsewhere || role.answerKey()
		d.Key = s.elsewhere && role.answerKey()
		return d
	}
	d.Open = !s.answered && s.step <= s.at
	d.Waiting = s.waiting && s.step <= s.at
	hiding := d.Open || d.Waiting
	d.State = !(hiding && s.step >= s.moment)
	d.Checked = !hiding
	d.Answer = !hiding || role.answerKey()
	d.Key = hiding && role.answerKey()
	if hiding {
		// up to the question's move: its label is the timeline's "next".
		// For every role: the instructor's own screen is the projector's
		// (the answer key has its own place, under its heading)
		d.Ahead = s.at + 1
	}
	return d
}

// Disclose is what role may be shown at pos: the rule for an output made
// headless from a position (a transcript, a cast, a code, the -history
// page), where the question is asked and its reader has not answered it. An unknown scene discloses nothing
// of a question it cannot find.
func Disclose(pos Position, role Role) Disclosure {
	sc, err := pos.scene()
	if err != nil || pos.Trial != nil {
		// a recorded trial is a story that asks nothing (trialScene)
		return disclose(standing{at: -1}, role)
	}
	params := scenes.Params(maps.Clone(pos.Settings))
	moves := sc.Script(params).Moves
	var labels []string
	for _, m := range moves {
		labels = append(labels, sim.MoveLabel(m))
	}
	at := questionAt(sc, labels, pos.Own) // one schedule built, not two
	moment := sc.MomentAt(moves, sc.PredictAt(labels))
	if moment >= 0 {
		moment += at - sc.PredictAt(labels) // own moves put in before it
	}
	// a place handed over (a code, a -story) is read by someone who has
	// not answered: its author's prediction answers nothing for them, so
	// at or before the question it is open (as Course.Visit opens a code)
	return disclose(standing{at: at, moment: moment, step: pos.Step, elsewhere: at < 0 && sc.Predict != nil}, role)
}

// Disclose is what role may be shown of the session's place now (see
// Disclosure). A story that asks nothing here (predictions off, or a
// story only embedded nodes can play, on a live server) hides nothing.
func (p *Session) Disclose(role Role) Disclosure {
	if p.Scene.Predict == nil || !p.asksHere() {
		// with predictions on, a story a live server cannot play asks
		// nothing there, but the scene's answer text answers it
		return disclose(standing{at: -1, elsewhere: p.Predict && p.Scene.Predict != nil}, role)
	}
	at := p.QuestionAt()
	return disclose(standing{at: at, moment: p.Scene.MomentAt(p.Run.Moves(), at), step: p.Snap.Pos,
		answered: p.Guess >= 0, waiting: p.Waiting(), elsewhere: at < 0}, role)
}

// Notes are the speaker notes role may read at the session's place: the
// part before the question, then, once it is answered, the rest; while it
// is open a line says the rest waits for the answer, or (for a role that
// may read the answer key) the rest under that heading.
func (p *Session) Notes(role Role) string {
	return p.parts("notes", "notes-answer", role)
}

// Page is the story page's text role may read: the scene's introduction,
// split at its question like Notes.
func (p *Session) Page(role Role) string {
	return p.parts("intro", "intro-answer", role)
}

// AnswerKeyHeading heads the answer to an open question where a role may
// read it (Disclosure.Key).
const AnswerKeyHeading = "answer key: not for the projector"

// WaitsForAnswer stands where the answer's text is held back; in a story
// that asks nothing, WaitsForOtherStory says whose question it answers.
const (
	WaitsForAnswer     = "(the rest waits for the answer to the question)"
	WaitsForOtherStory = "(the rest answers the question another story of this scene asks: it shows there, once answered)"
)

// parts is section first, then section rest as the disclosure allows.
func (p *Session) parts(first, rest string, role Role) string {
	text := p.Text.Get(first)
	if !p.Text.Has(rest) {
		return text
	}
	d := p.Disclose(role)
	switch {
	case d.Key:
		return text + "\n\n" + AnswerKeyHeading + "\n" + p.Text.Get(rest)
	case d.Answer:
		return text + "\n\n" + p.Text.Get(rest)
	case d.At < 0:
		return text + "\n\n" + WaitsForOtherStory
	}
	return text + "\n\n" + WaitsForAnswer
}

// DiscloseLabReport is what the lab's page may show role of a search's
// report. Each break the search found opens as a story that asks, before
// the move that breaks the break's property, which property that move
// breaks (lab.Break.Scene); the report answers it (which property broke,
// in how many moves, and how), and the page stands before every such
// story. So while open of its breaks' questions are unanswered, and
// predictions are asked (predict; off with -no-quiz), the report's state
// (its verdict, each property's line, the picked break's sentence, the
// lesson) is hidden, as a story hides its verdict and properties
// (Disclosure.State).
func DiscloseLabReport(open int, predict bool, role Role) Disclosure {
	if !predict || open == 0 {
		return disclose(standing{at: -1}, role)
	}
	// the page is at step 0 of each story, before its question and its
	// moment
	return disclose(standing{}, role)
}

// LabPropertiesNamed reports whether the lab's page may name to role the
// properties a lock is judged for (its goal's "properties:" line, on the
// lock's page and under the list of levels). A level to fix judges the
// property its breaks' questions ask about (a level judges one): naming
// it answers them, so with predictions asked (predict) it is not named
// before its adversary has run (ran: a run may open a question), nor
// while open of its report's questions are unanswered; once they are,
// or when the run found no break, the report names them anyway. A lock
// whose breaks ask nothing (a level to break, played by hand) or the
// learner's own (its lab.json, which the learner wrote, names them) is
// named but while a question of its report is open. asks is set for a
// level to fix.
func LabPropertiesNamed(asks, ran bool, open int, predict bool, role Role) bool {
	if !DiscloseLabReport(open, predict, role).State {
		return false
	}
	return !asks || ran || !predict || role.answerKey()
}

// LabQuestionOpen reports whether the lab story s plays a break the
// adversary found whose question is still open to its learner: not asked
// (predictions off, a lock played by hand) or answered, it is not.
func LabQuestionOpen(s *Session) bool {
	lp := s.LabPlace()
	return lp != nil && len(lp.Moves) > 0 && s.Disclose(Learner).Open
}

// Scripts are the sources role may read at the session's place of the
// scripts the story has sent (the ones its log names by <name>), by the
// rule that holds the answer's text (Disclosure.Answer): a script's
// source says what its run replies, so while the question is open every
// source waits for the answer, as the handout keeps them for its answer
// key. A role that may read the key reads them under its heading
// (Disclosure.Key). A story that asks nothing here shows them all: its
// replies are on screen.
type Scripts struct {
	// Shown are the sources role may read, by name.
	Shown map[string]sim.Lua
	// Held are the names of the scripts sent whose source waits for the
	// answer, sorted.
	Held []string
	// Key: Shown are under the answer key's heading.
	Key bool
}

// ScriptsWait is the line that stands for the held scripts' sources.
func ScriptsWait(held []string) string {
	return "(the source of <" + strings.Join(held, ">, <") + "> waits for the answer to the question: it says what the run replies)"
}

// Scripts is what role may read of the story's scripts now (see Scripts).
func (p *Session) Scripts(role Role) Scripts {
	return scriptsBy(p.Disclose(role), p.Snap.Scripts)
}

// ScriptsAt is what role may read of sent, the scripts a story played
// headless to pos has sent, by the rule of an output made from a position
// (Disclose): a story code's redis-cli export, which prints every
// script's source in its EVAL, holds them while the code's question is
// open to its reader, as the story page does.
func ScriptsAt(pos Position, role Role, sent map[string]sim.Lua) Scripts {
	return scriptsBy(Disclose(pos, role), sent)
}

// scriptsBy is Scripts under disclosure d.
func scriptsBy(d Disclosure, sent map[string]sim.Lua) Scripts {
	if d.At < 0 || d.Answer {
		return Scripts{Shown: sent, Key: d.Key}
	}
	return Scripts{Held: slices.Sorted(maps.Keys(sent))}
}

// ExportWaits is what an export says instead of writing a redis-cli
// script whose commands would print held's sources (Scripts.Held).
func ExportWaits(held []string) string {
	what, says := "the source of <", ">, which says"
	if len(held) > 1 {
		what, says = "the sources of <", ">, which say"
	}
	return "no redis-cli script here: it would print " + what + strings.Join(held, ">, <") + says + " what the run replies; export from past the question"
}
