package ledger

import (
	"time"

	"locksim/sim"
)

// The readings of a client's decision to stop trying, one per reason. A
// give-up is not a reply: the client logs it (sim.OpGiveUp), and its Form
// says why.
const (
	GaveUpFast     What = "gave-up-fast"     // refused once; its policy allows no retry
	GaveUpRetries  What = "gave-up-retries"  // its last allowed retry was refused
	GaveUpDeadline What = "gave-up-deadline" // its deadline passed before a grant
)

func (l *Ledger) gaveUp(e sim.Event) Read {
	cur := l.byKey[slot(e.Node, e.Op.Key)]
	r := Read{What: GaveUpFast, Lease: cur, Other: actorOf(cur)}
	switch e.Op.Form {
	case sim.GiveUpRetries:
		r.What = GaveUpRetries
	case sim.GiveUpDeadline:
		r.What = GaveUpDeadline
	}
	return r
}

// Outcome is where a client's attempts to acquire stand.
type Outcome int

const (
	NotTried       Outcome = iota // it has sent no acquire
	Trying                        // refused so far, and it has not given up
	Acquired                      // its latest attempt was granted
	FailedFast                    // refused once, and it did not retry
	RetriesUsedUp                 // its last allowed retry was refused
	DeadlinePassed                // its deadline passed before a grant
)

func (o Outcome) String() string {
	return [...]string{"not tried", "trying", "acquired", "failed fast", "retries used up", "deadline passed"}[o]
}

// GaveUp reports an outcome the client decided itself: it stopped trying.
func (o Outcome) GaveUp() bool { return o >= FailedFast }

// Tally is one client's acquisition, counted from its replies and its own
// decision to give up.
type Tally struct {
	Actor    string
	Attempts int // the acquires it sent
	Refused  int // how many of them the server refused
	Outcome  Outcome
	First    time.Duration // when its first attempt was sent
	// Success is the attempt the server granted (1 for the first), 0 if
	// none; Lease is the lease it got, counted from that attempt.
	Success int
	Lease   *Lease
	At      time.Duration // when the outcome was reached: the grant or the give-up
}

// Tally counts the actor's attempts to acquire and where they stand.
func (l *Ledger) Tally(actor string) Tally {
	t := Tally{Actor: actor}
	for i, e := range l.events {
		if e.Actor != actor || e.Op == nil {
			continue
		}
		rd := l.Reads[i]
		switch {
		case e.Kind == sim.Command && e.Op.Kind == sim.OpAcquire:
			t.Attempts++
			if t.Attempts == 1 {
				t.First = e.At
			}
			switch rd.What {
			case Granted:
				t.Outcome, t.Success, t.Lease, t.At = Acquired, t.Attempts, rd.Lease, e.At
			case Refused:
				t.Refused++
				t.Outcome, t.Success, t.Lease = Trying, 0, nil
			default:
				if t.Outcome == NotTried {
					t.Outcome = Trying // no answer to go by
				}
			}
		case e.Op.Kind == sim.OpGiveUp:
			t.At = e.At
			switch rd.What {
			case GaveUpFast:
				t.Outcome = FailedFast
			case GaveUpRetries:
				t.Outcome = RetriesUsedUp
			case GaveUpDeadline:
				t.Outcome = DeadlinePassed
			}
		}
	}
	return t
}

// Waited is how long a client still trying has waited by now, since its
// first attempt; 0 once it got the lock or gave up.
func (t Tally) Waited(now time.Duration) time.Duration {
	if t.Outcome != Trying {
		return 0
	}
	return now - t.First
}

// Collisions counts the retries (acquires a timer sent) that were due at
// the same story millisecond as another retry, whatever order the server
// ran them in: clients retrying in lockstep. retries is how many retries
// there were in all, at how many distinct milliseconds they collided.
func (l *Ledger) Collisions() (colliding, retries, at int) {
	due := map[time.Duration]int{}
	for _, e := range l.events {
		if e.Kind == sim.Command && e.Timed && e.Op != nil && e.Op.Kind == sim.OpAcquire {
			due[e.Due.Truncate(time.Millisecond)]++
			retries++
		}
	}
	for _, n := range due {
		if n > 1 {
			colliding += n
			at++
		}
	}
	return colliding, retries, at
}
