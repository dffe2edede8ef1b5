package race

import (
	"context"
	"fmt"

	"locksim/sim"
)

// Lanes is how many trials run side by side on a backend: Workers
// connections each.
const Lanes = 8

// OnBackend opens trials of cfg for b: on a live server, b itself, each
// lane's lock under its run prefix (trials:<lane>:resource:lock); on the
// embedded server, an embedded server of their own whose keys expire on
// the real clock (the course's embedded server only moves its clock when
// a story says so). tb is the backend the trials run on; done closes the
// trials' connections and what was opened for them.
func OnBackend(b *sim.Backend, cfg Config) (tr *Trials, tb *sim.Backend, done func(), err error) {
	tb, closeTB := b, func() {}
	if !b.Live() {
		if tb, err = sim.OpenEmbeddedRealClock(); err != nil {
			return nil, nil, nil, err
		}
		closeTB = func() { _ = tb.Close(context.Background()) }
	}
	tr, err = New(Pool{Lanes: Lanes, Conn: tb.NewConn, Admin: tb.Admin(),
		Key: func(i int) string { return tb.Key(fmt.Sprintf("trials:%d:resource:lock", i)) }}, cfg)
	if err != nil {
		closeTB()
		return nil, nil, nil, err
	}
	return tr, tb, func() { tr.Close(); closeTB() }, nil
}
