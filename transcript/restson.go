package transcript

import (
	"fmt"
	"io"

	"locksim/sim"
)

// pendingAnswer is a question's answer, known once its decisive move ran
// (the events from since on), and said once a reply shows it (restsOn).
type pendingAnswer struct {
	text  string
	since int
}

// say prints the answer's line to w, once events give it a reply to rest
// on or the story is over (end), and only once.
func (a *pendingAnswer) say(w io.Writer, events []sim.Event, end bool) {
	if a.text != "" && (end || restsOn(events[a.since:])) {
		fmt.Fprintf(w, "[the replies answer: %s]\n", a.text)
		a.text = ""
	}
}

// restsOn reports whether the events since a question's decisive move give
// its answer a reply to rest on. A reply lost there (sim.Event.Lost) shows
// nothing of what the server did: the answer waits for a later command's
// reply (B's SET, its PTTL), which reads the key the lost command left.
func restsOn(events []sim.Event) bool {
	lost := false
	for _, e := range events {
		switch {
		case e.Lost:
			lost = true
		case lost && e.Kind == sim.Command && !e.Unknown():
			return true
		}
	}
	return !lost
}
