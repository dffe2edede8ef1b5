package check

import (
	"io"
	"time"

	"locksim/sim"
	"locksim/sim/ledger"
)

func build(events []sim.Event, led *ledger.Ledger, o Options) History {
	return History{End: led.Now, Live: o.Live, Slack: o.Slack}
}

func checkModel(h History, m Model, timeout time.Duration) Verdict {
	return Verdict{Model: m, Result: Unknown, At: -1}
}

func classify(led *ledger.Ledger, mutex Verdict) Found { return Found{} }

func visualize(w io.Writer, h History, timeout time.Duration) error { return nil }
