package lab

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"locksim/sim"
)

// Move is one move of a schedule: a client's step (Fault empty, or
// LostReply for a step whose reply was lost), or a fault.
type Move struct {
	Client string // "A", "B", "C"; "" for a fault of the server (ClockJump, Restart)
	Fault  Fault
	// Label says what the move did, as the story names it: "acquire",
	// "release: DEL", "write", "pause past the TTL".
	Label string
	// Reply is what the server answered a step, as redis-cli prints it
	// (for a lost reply, what the server sent and the client never
	// heard); a Lua error is an error reply. Tokens are the search's own:
	// "token-A", "token-B", "token-C".
	Reply string
}

// IsStep reports a client's step (its reply lost or not).
func (m Move) IsStep() bool { return m.Fault == "" || m.Fault == LostReply }

// String is the move for a line of text: "A acquire", "B release: DEL
// (reply lost)", "A pauses past the TTL", "the server's clock jumps".
func (m Move) String() string {
	switch m.Fault {
	case "":
		return m.Client + " " + m.Label
	case LostReply:
		return m.Client + " " + m.Label + " (reply lost)"
	case PauseHalf:
		return m.Client + " pauses for half the TTL"
	case PausePast:
		return m.Client + " pauses until just past the TTL"
	case Crash:
		return m.Client + " crashes"
	case ClockJump:
		return "the server's clock jumps past the TTL"
	case Restart:
		return "the server restarts without persistence"
	}
	return string(m.Fault)
}

// Break is a schedule that breaks a property, shrunk to the fewest faults
// and then the fewest moves within the bound, ending with the move that
// broke it.
type Break struct {
	Property Property
	Lock     Lock // the lock it breaks (a copy)
	Clients  int
	Moves    []Move
	Faults   int // how many of Moves are faults
	// Probe is set for a deadlock-freedom break: after the last move, a
	// new client's acquire, twice the TTL later, was refused.
	Probe bool
	// Why is one sentence on what the last move did to the property.
	Why string
}

// Steps is how many of the break's moves are steps.
func (b *Break) Steps() int { return len(b.Moves) - b.Faults }

// String is the break as one line: "A acquire, A pauses until just past
// the TTL, B acquire".
func (b *Break) String() string {
	s := make([]string, len(b.Moves))
	for i, m := range b.Moves {
		s[i] = m.String()
	}
	out := strings.Join(s, ", ")
	if b.Probe {
		out += ", then a new client, twice the TTL later, is refused"
	}
	return out
}

// FaultMoves are the break's moves that are faults, a lost reply
// included (a step whose reply the client never heard).
func (b *Break) FaultMoves() []Move {
	var out []Move
	for _, m := range b.Moves {
		if m.Fault != "" {
			out = append(out, m)
		}
	}
	return out
}

// Sentence is the break summed up in one sentence, for the top of a
// failing test's message: its length, the faults it needed, and what its
// last move did: "Shortest break (6 moves, 1 fault: A pauses until just
// past the TTL): A's release: DEL deleted B's lock."
func (b *Break) Sentence() string {
	var faults []string
	for _, m := range b.FaultMoves() {
		faults = append(faults, m.String())
	}
	n := fmt.Sprintf("%d %s", len(b.Moves), plural(len(b.Moves), "move", "moves"))
	cause := "no fault"
	if len(faults) > 0 {
		cause = fmt.Sprintf("%d %s: %s", len(faults), plural(len(faults), "fault", "faults"), strings.Join(faults, ", "))
	}
	why := b.Why
	if why == "" {
		why = string(b.Property) + " broke"
	}
	why = strings.ToUpper(why[:1]) + why[1:]
	return "Shortest break (" + n + ", " + cause + "): " + strings.TrimSuffix(why, ".") + "."
}

// Status is a judgement's outcome, as Exercism's test runners name them.
type Status string

const (
	Pass  Status = "pass"
	Fail  Status = "fail"
	Error Status = "error"
)

// Judgement is the search's reading of one property over every schedule
// within the bound: pass, fail with the shrunk break, or error. It is a
// grade, not a reading of one run (that is the ledger's Verdict) nor of one
// history (check.Finding).
type Judgement struct {
	Property Property
	Status   Status
	// Message is one line: the bound searched for a pass; the break for a
	// failure; the reason for an error.
	Message string
	Break   *Break // the shrunk break of a failure, nil otherwise
	Broke   int    // schedules that broke it
	// Ledger is set for a failure when the ledger, reading the break
	// played as a story (Break.Script on an embedded server of its own,
	// through the engine every scene uses), shows the same property
	// broken: the story the learner opens shows what the search found.
	Ledger bool
	// Asks is set for a failure whose story asks its question (Question):
	// the replies answer it with the break's property. A story that asks
	// nothing keeps nothing from its learner.
	Asks bool
	// Lesson is set for a failure that only the property's lesson faults
	// make (LessonFaults): no schedule without one of them broke it
	// within the bound. The default grade reports such a break as a
	// lesson that passes; a pinned policy, or a level, fails it.
	Lesson bool
}

// Report is a search's outcome.
type Report struct {
	Bound    Bound
	Faults   []Fault // the threat model searched
	Explored int     // complete schedules explored (or cut at the depth)
	Broke    int     // schedules that broke at least one judged property
	// Refused is set when the bound allows more than Bound.MaxSchedules
	// schedules: the search stopped there and judged nothing.
	Refused bool
	// Grants is false when a client on an empty server is refused, or
	// refused again after a release: the lock never lets anyone in.
	Grants bool
	// NoGrant says, when Grants is false, the schedule that shows it and
	// what it shows ("A acquire, A release, B acquire: ... the release
	// does not free the lock"); "" when the lock grants.
	NoGrant    string
	Judgements []Judgement // one per judged property, in AllProperties order
	// Lesson is the course's point when the threat model alone breaks
	// mutual exclusion for any lease; "" otherwise.
	Lesson string
	// Errors are the first few distinct runtime errors the lock's scripts
	// raised in some schedule (each became an error reply to EVAL there,
	// as Redis sends it); nil when none did.
	Errors []*ScriptError
	// Moves are the kinds of move the depth counts beyond steps and
	// faults, for the bound's sentence: "stretches of work", "watchdog
	// renewals", "nested acquires and releases"; nil for none.
	Moves   []string
	Elapsed time.Duration // wall time; for benchmarks, never for a judgement
}

// Judgement returns the judgement on p, and false when p was not judged.
func (r *Report) Judgement(p Property) (Judgement, bool) {
	for _, v := range r.Judgements {
		if v.Property == p {
			return v, true
		}
	}
	return Judgement{}, false
}

// First is the first failed judgement's break, in AllProperties order; nil
// when nothing broke.
func (r *Report) First() *Break {
	for _, v := range r.Judgements {
		if v.Break != nil {
			return v.Break
		}
	}
	return nil
}

// Summary is the search in one line: "all schedules of 3 clients with up
// to 2 faults, depth 14: 4 812 explored, 0 broke".
func (r *Report) Summary() string {
	if r.Refused {
		return fmt.Sprintf("bound refused: %d clients with up to %d %s, depth %d, allow more than %s schedules",
			r.Bound.Clients, r.Bound.Faults, plural(r.Bound.Faults, "fault", "faults"), r.Bound.Depth, Thousands(r.Bound.MaxSchedules))
	}
	return fmt.Sprintf("all schedules of %d clients with up to %d %s, depth %d%s: %s explored, %s broke",
		r.Bound.Clients, r.Bound.Faults, plural(r.Bound.Faults, "fault", "faults"), r.Bound.Depth, r.depthNote(), Thousands(r.Explored), Thousands(r.Broke))
}

// depthNote says what the depth counts when it counts more than steps
// and faults: " (moves counted: steps, faults, stretches of work,
// watchdog renewals)"; "" otherwise.
func (r *Report) depthNote() string {
	if len(r.Moves) == 0 {
		return ""
	}
	return " (moves counted: steps, faults, " + strings.Join(r.Moves, ", ") + ")"
}

func replyText(r reply) string {
	var se *ScriptError
	if errors.As(r.err, &se) {
		return "(error) " + se.Reply("")
	}
	return sim.FormatReply(r.val, r.err)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Thousands writes n with a space between groups of three digits: 4 812.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
