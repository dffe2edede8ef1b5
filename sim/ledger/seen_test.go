package ledger

import (
	"testing"
	"time"

	"locksim/sim"
)

// script appends a lab script's release or extend (kind) that answered n
// and did ch to the key, as a lab story logs it (sim.Op.Seen).
func (s *story) script(at float64, actor, tok string, kind sim.OpKind, n int64, ch sim.KeyChange) *story {
	return s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Val: n,
		Op: &sim.Op{Kind: kind, Form: sim.FormScript, Lock: key, Key: key, Token: tok, Seen: &ch}})
}

// kept is a key that held value with ttl left before and after; moved the
// same key given another TTL; swapped another value; removed the key gone.
func kept(v string, ttl time.Duration) sim.KeyChange {
	return sim.KeyChange{Had: true, Has: true, Before: v, After: v, TTLBefore: ttl, TTLAfter: ttl}
}

func moved(v string, from, to time.Duration) sim.KeyChange {
	return sim.KeyChange{Had: true, Has: true, Before: v, After: v, TTLBefore: from, TTLAfter: to}
}

func swapped(from, to string, ttl time.Duration) sim.KeyChange {
	return sim.KeyChange{Had: true, Has: true, Before: from, After: to, TTLBefore: ttl, TTLAfter: ttl}
}

func removed(v string, ttl time.Duration) sim.KeyChange {
	return sim.KeyChange{Had: true, Before: v, TTLBefore: ttl, TTLAfter: -1}
}

// TestSeenScripts: a lab script's release or extend is read by what it did
// to its key, whatever it answered: a re-time of its own lease (PEXPIRE
// key 1) ends the lease when the new TTL runs out; a re-time or an
// overwrite of another's lease, or a delete, is a foreign release; a
// release that changed nothing, and an extend its holder gave up on,
// leave the key, and a contender refused by it is refused by a lock its
// release did not free (Unfreed); a key that had no holder for long is
// Orphaned that long.
func TestSeenScripts(t *testing.T) {
	const s30, ms1 = 30 * time.Second, time.Millisecond
	for _, c := range []struct {
		name     string
		story    *story
		at       float64 // now
		whats    []What  // the reads of A's script and the events after it, in order, from event 1
		foreign  int
		endA     End // how A's first lease ended
		holders  int
		unfreed  bool // the last refusal is Unfreed
		orphaned time.Duration
		orphanOK bool
	}{
		{name: "a release that re-times its own lease: it lapses 1 ms later",
			story: new(story).set(0, "A", "tA", s30, true, true).
				script(1, "A", "tA", sim.OpRelease, 1, moved("tA", 29*time.Second, ms1)).
				set(1.002, "B", "tB", s30, true, true),
			at: 2, whats: []What{RetimedOwn, Granted}, endA: Lapsed, holders: 1},
		{name: "a release that re-times its own lease, refused before it lapses",
			story: new(story).set(0, "A", "tA", s30, true, true).
				script(1, "A", "tA", sim.OpRelease, 1, moved("tA", 29*time.Second, ms1)).
				set(1, "B", "tB", s30, true, false),
			at: 1, whats: []What{RetimedOwn, Refused}, endA: Open, orphanOK: true},
		{name: "an extend that re-times another's lease",
			story: new(story).set(0, "A", "tA", s30, true, true).
				set(31, "B", "tB", s30, true, true).
				script(32, "A", "tB", sim.OpExtend, 1, moved("tB", 29*time.Second, s30)),
			at: 32, whats: []What{Granted, RetimedOther}, foreign: 1, endA: Lapsed, holders: 2},
		{name: "an extend that writes its token over another's lease",
			story: new(story).set(0, "A", "tA", s30, true, true).
				set(31, "B", "tB", s30, true, true).
				script(32, "A", "tB", sim.OpExtend, 1, swapped("tB", "tA", s30)),
			at: 32, whats: []What{Granted, OverwroteOther}, foreign: 1, endA: Lapsed, holders: 2},
		{name: "a release that answered 0 but deleted another's lease",
			story: new(story).set(0, "A", "tA", s30, true, true).
				set(31, "B", "tB", s30, true, true).
				script(32, "A", "tB", sim.OpRelease, 0, removed("tB", 29*time.Second)),
			at: 32, whats: []What{Granted, DeletedOther}, foreign: 1, endA: Lapsed, holders: 1},
		{name: "a release that removed nothing: the key is not freed",
			story: new(story).set(0, "A", "tA", s30, true, true).
				script(1, "A", "tA", sim.OpRelease, 0, kept("tA", 29*time.Second)).
				set(1, "B", "tB", s30, true, false),
			at: 1, whats: []What{RelLeft, Refused}, endA: Open, unfreed: true, orphanOK: true},
		{name: "an extend answered 0 on its own key: its holder gives the lock up",
			story: new(story).set(0, "A", "tA", 0, true, true).
				script(1, "A", "tA", sim.OpExtend, 0, kept("tA", -1)).
				set(61, "D", "tD", s30, true, false),
			at: 61, whats: []What{ExtGaveUp, Refused}, endA: Open, unfreed: true, orphaned: 60 * time.Second, orphanOK: true},
		{name: "a holder crashed under a key with a long TTL",
			story: new(story).set(0, "A", "tA", 1000*time.Second, true, true).
				fault(0, "A", sim.FaultCrash).
				set(60, "D", "tD", s30, true, false),
			at: 60, whats: []What{CrashedNow, Refused}, endA: Open, orphaned: 60 * time.Second, orphanOK: true},
		{name: "a refusal while the holder still holds",
			story: new(story).set(0, "A", "tA", s30, true, true).
				set(1, "B", "tB", s30, true, false),
			at: 1, whats: []What{Refused}, endA: Open, holders: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := Fold(*c.story, sec(c.at), nil)
			var whats []What
			for _, r := range l.Reads[1:] {
				whats = append(whats, r.What)
			}
			if len(whats) != len(c.whats) {
				t.Fatalf("reads %q, want %q", whats, c.whats)
			}
			for i := range whats {
				if whats[i] != c.whats[i] {
					t.Errorf("read %d: %q, want %q", i+1, whats[i], c.whats[i])
				}
			}
			if got := l.ForeignReleases(); got != c.foreign {
				t.Errorf("foreign releases %d, want %d", got, c.foreign)
			}
			if got := l.Leases[0].End; got != c.endA {
				t.Errorf("A's lease ended %s, want %s", got, c.endA)
			}
			if got := len(l.Holders()); got != c.holders {
				t.Errorf("holders %v, want %d", l.Holders(), c.holders)
			}
			if len(l.Refusals) == 0 {
				return
			}
			rf := l.Refusals[len(l.Refusals)-1]
			if got := l.Unfreed(rf); got != c.unfreed {
				t.Errorf("unfreed %v, want %v", got, c.unfreed)
			}
			if d, ok := l.Orphaned(rf); ok != c.orphanOK || d != c.orphaned {
				t.Errorf("orphaned %v %v, want %v %v", d, ok, c.orphaned, c.orphanOK)
			}
		})
	}
}
