package lab

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"locksim/sim/ledger"
)

// BrokenIn lists the properties a story's ledger shows broken, by the
// ledger's rules: mutual-exclusion an overlap of two holders;
// resource-safety a write the resource accepted after one from a later
// grant; no-foreign-release a release or an extend that deleted,
// overwrote or re-timed another client's lock; deadlock-freedom a
// contender refused by a key with no TTL whose holder crashed, or the
// lock key read back with no TTL while nobody acts as holder (nothing will
// ever free it), or a contender refused by a key its holder's release
// left as it was (ledger.Unfreed), or an acquire that did not let its
// client in while the key held nothing and nobody held the lock
// (ledger.Refusal.Free: the search's "the lock never lets a client in",
// grantsWhenFree); no-lease-wasted a client that gave up
// acquiring while the key held its own token (ledger.WastedLeases). It is
// how "break this lock" is won by hand.
func BrokenIn(l *ledger.Ledger) []Property { return BrokenWithin(l, 0) }

// BrokenWithin is BrokenIn for a lock whose TTL is ttl: deadlock-freedom
// is broken too by a contender refused by a key that has had no holder
// for twice the TTL or more (ledger.Orphaned), as the search's probe is:
// a key that lapses within 2×TTL of its release counts as freed; and, as
// BrokenIn, by one refused by a key its holder's release left as it was
// (ledger.Unfreed).
func BrokenWithin(l *ledger.Ledger, ttl time.Duration) []Property {
	var out []Property
	if l.FirstOverlap() != nil {
		out = append(out, MutualExclusion)
	}
	latest := -1 // the granting event of the latest grant whose write was accepted
	for _, w := range l.Writes {
		if !w.Accepted || w.Lease == nil {
			continue
		}
		if w.Lease.Seq < latest {
			out = append(out, ResourceSafety)
			break
		}
		latest = max(latest, w.Lease.Seq)
	}
	if l.ForeignReleases() > 0 {
		out = append(out, NoForeignRelease)
	}
	// a key with no TTL that no holder will release: nothing frees it
	stuck := len(l.Stuck()) > 0
	for _, rf := range l.Refusals {
		if d, ok := l.Orphaned(rf); ok && ttl > 0 && d >= 2*ttl || l.Unfreed(rf) || rf.Free {
			stuck = true
		}
	}
	for _, k := range l.Keys {
		if k.Name == LockKey || strings.HasSuffix(k.Name, ":"+LockKey) || strings.HasSuffix(k.Name, LockKey) {
			stuck = stuck || k.Status() == ledger.KeyNoTTL && len(l.Holders()) == 0
		}
	}
	if stuck {
		out = append(out, DeadlockFreedom)
	}
	if len(l.WastedLeases()) > 0 {
		out = append(out, NoLeaseWasted)
	}
	return out
}

// verdictAt is the verdict line of b's story once its ledger shows b's
// property broken: b.Why, which tells the whole story, only at its end;
// before, what is true then (a deadlock-freedom break's probe, a client
// besides the break's own, has not come yet).
func (b *Break) verdictAt(end bool) string {
	switch {
	case end:
		return string(b.Property) + " broken: " + b.Why
	case b.Probe:
		return fmt.Sprintf("%s broken: no client left will free the lock key; %s, a new client besides the %d the search ran, tries twice the TTL later",
			b.Property, ProbeClient(b.Clients), b.Clients)
	}
	return string(b.Property) + " broken"
}

// scoreboardOf is the player's properties line as the lab's judgement
// reads it (scenes.Said.Broken): mutual exclusion and deadlock freedom
// broken when broken names them, so the line and the verdict, read from
// the same BrokenWithin at the same position, never disagree (a no-TTL
// key left by a crashed holder broke deadlock-freedom in the verdict while
// the line still said it was not yet tested).
func scoreboardOf(broken []Property) [3]bool {
	return [3]bool{slices.Contains(broken, MutualExclusion), slices.Contains(broken, DeadlockFreedom), false}
}
