package check

import (
	"locksim/sim"
	"locksim/sim/ledger"
)

// Anomaly is a kind of failure the trials count, one trial at a time.
type Anomaly int

const (
	// TwoHolders: a second client was granted the lock while the first
	// still acted as holder and its lease had not run out (two keys for
	// one lock, a SET without NX that overwrote it, two Redlock majorities).
	TwoHolders Anomaly = iota
	// LeaseRanOut: a holder's lease ran out while it worked, and another
	// client was granted the lock before it let go.
	LeaseRanOut
	// NoTTL: a crash left the key with no TTL: nothing but a DEL frees it.
	NoTTL
	// ForeignRelease: a release deleted another client's lock.
	ForeignRelease
	// NumAnomalies is how many kinds there are.
	NumAnomalies
)

// Anomalies lists every kind in the order a table shows them.
func Anomalies() []Anomaly { return []Anomaly{TwoHolders, LeaseRanOut, NoTTL, ForeignRelease} }

// String is the kind as the trials table names it.
func (a Anomaly) String() string {
	return [...]string{"two holders at once", "lease ran out while it worked", "key with no TTL left by a crash",
		"release deleted another's lock"}[a]
}

// Label is the kind as a table's column names it, in 15 columns at most.
func (a Anomaly) Label() string {
	return [...]string{"two holders", "lease ran out", "no TTL (crash)", "deleted other"}[a]
}

// Found is the kinds one history shows, indexed by Anomaly.
type Found [NumAnomalies]bool

// Any reports whether any kind was found.
func (f Found) Any() bool {
	for _, b := range f {
		if b {
			return true
		}
	}
	return false
}

// Classify says which kinds of anomaly a history shows. The two kinds of
// mutual exclusion broken (TwoHolders, LeaseRanOut) come from the mutex
// model's finding, told apart by what had happened to the first holder's
// lease when the op it could not place was granted; NoTTL from a key read
// back with no TTL whose holder crashed, or a contender that key blocked
// (pass the key states to ledger.Fold); ForeignRelease from the ledger's
// reading of the releases. mutex must be the Mutex finding (CheckModel or
// Quick) on the history folded as led.
func Classify(led *ledger.Ledger, mutex Finding) Found {
	return classify(led, mutex)
}

func classify(led *ledger.Ledger, mutex Finding) Found {
	var f Found
	if mutex.Result == NotLinearizable {
		if ov := led.FirstOverlap(); ov != nil && ov.Cause == ledger.Lapsed {
			f[LeaseRanOut] = true
		} else {
			f[TwoHolders] = true
		}
	}
	if len(led.Stuck()) > 0 {
		f[NoTTL] = true
	}
	for _, k := range led.Keys {
		if k.Status() == ledger.KeyNoTTL && k.Lease != nil && led.Belief(k.Lease.Actor).Status == sim.Crashed {
			f[NoTTL] = true
		}
	}
	f[ForeignRelease] = led.ForeignDeletes() > 0
	return f
}
