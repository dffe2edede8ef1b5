package check

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// Mutex is the client's mutex: per declared lock, an acquire that returned
// OK holds until its own release, its crash, or a reply that tells the
// client its lease is gone; a reentrant acquire nests. It is the lock the
// client code assumes, so its break is the one the history page flags.
func Mutex() Model {
	return Model{Name: "client's mutex", Title: "the client's mutex", Flags: true, text: "mutex", spec: History.mutexSpec}
}

type mutexState struct {
	holder string
	count  int
}

func (h History) mutexSpec() spec {
	return spec{
		include: func(op Op) bool {
			switch {
			case op.Kind == Acquire && !op.Part && op.Kind != Replicate, op.Claims:
				return true
			case op.Ends, op.Kind == Crash, op.Kind == LetGo, op.Kind == Release && op.Nested:
				return true
			}
			return false
		},
		partition: func(op Op) []string {
			if op.Kind == Crash {
				return nil // it ends the actor's hold of every lock
			}
			return []string{op.Lock}
		},
		// a grant: a history where nobody was granted the lock has no
		// mutex to judge
		judges: func(op Op) bool { return op.Kind == Acquire && op.Outcome == Granted || op.Claims },
		model: porcupine.Model{
			Init: func() any { return mutexState{} },
			Step: func(state, input, _ any) (bool, any) {
				return mutexStep(state.(mutexState), h.Ops[input.(int)])
			},
			DescribeOperation: func(input, _ any) string { return h.describe(input.(int)) },
			DescribeState:     func(state any) string { return describeMutex(state.(mutexState)) },
		},
	}
}

func describeMutex(s mutexState) string {
	switch {
	case s.holder == "":
		return "free"
	case s.count > 1:
		return fmt.Sprintf("held by %s (%d deep)", s.holder, s.count)
	}
	return "held by " + s.holder
}

// mutexStep is the client's mutex after op, and whether op could happen.
// An acquire with no reply changes nothing: the client was not told it
// holds the lock, so it does not act as holder (the server's model is the
// one that asks whether it ran).
func mutexStep(s mutexState, op Op) (bool, any) {
	switch {
	case op.Claims && s.holder == "":
		return true, mutexState{holder: op.Actor, count: 1}
	case op.Claims:
		return s.holder == op.Actor, s
	case op.Kind == Acquire && op.Outcome == Granted:
		switch {
		case s.holder == "":
			return true, mutexState{holder: op.Actor, count: 1}
		case s.holder == op.Actor && op.Nested:
			return true, mutexState{holder: op.Actor, count: s.count + 1}
		case s.holder == op.Actor:
			return true, mutexState{holder: op.Actor, count: 1}
		}
		return false, s // another client holds it: a mutex would not grant it
	case op.Kind == Release && op.Nested && !op.Ends:
		if s.holder == op.Actor && s.count > 1 {
			s.count--
		}
		return true, s
	case op.Ends && s.holder == op.Actor:
		return true, mutexState{}
	}
	return true, s
}
