package ledger

import (
	"errors"
	"testing"
	"time"

	"locksim/sim"
)

// lost appends a command of kind that ran on the server and whose reply
// locksim dropped (sim.ErrReplyLost), with the key as read before and
// after it (ch); assumed is a client that takes it for done.
func (s *story) lost(at float64, actor, tok string, kind sim.OpKind, ch sim.KeyChange, assumed bool) *story {
	form := sim.FormScript
	if kind == sim.OpAcquire {
		form = sim.FormSET
	}
	return s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Err: sim.ErrReplyLost, Lost: true,
		Op: &sim.Op{Kind: kind, Form: form, Lock: key, Key: key, Token: tok, TTL: 30 * time.Second, NX: kind == sim.OpAcquire,
			Seen: &ch, Assumed: assumed}})
}

// TestLostReplies: a command that ran and whose reply was lost is read by
// what it did to its key, as its own cause (Read.Lost): a lost SET that
// set the key makes a lease no one holds, which refuses its own sender's
// plain retry and which SET … NX … GET hands to it (found-own) with the
// lease still counted from the first send; a lost renewal that ran moves
// the lease's end, and its client, reading the silence as a refusal, stops
// acting as holder; one sent after the lease ended renews nothing, and a
// client that takes it for done acts on as holder, so the next grant
// overlaps. A lost reply of another kind (the lab's own error) keeps the
// lab's reading.
func TestLostReplies(t *testing.T) {
	const s30 = 30 * time.Second
	set := sim.KeyChange{TTLBefore: -1, Has: true, After: "tA", TTLAfter: s30}
	getOwn := func(s *story, at float64) *story {
		return s.op(at, "A", sim.Op{Kind: sim.OpAcquire, Form: sim.FormSetNXGet, Token: "tA", TTL: s30, NX: true}, "tA")
	}
	for _, c := range []struct {
		name     string
		story    *story
		whats    []What        // every event's reading, in order
		holds    bool          // A acts as holder at the end
		ends     time.Duration // when A's lease ends; 0 for none
		overlaps int
	}{
		{name: "a lost SET, then the plain retry its own key refuses",
			story: new(story).lost(0, "A", "tA", sim.OpAcquire, set, false).set(1, "A", "tA", s30, true, false),
			whats: []What{LostGranted, Refused}, ends: s30},
		{name: "a lost SET, then SET … NX … GET: A's own token, the lease from the first send",
			story: getOwn(new(story).lost(0, "A", "tA", sim.OpAcquire, set, false), 1),
			whats: []What{LostGranted, FoundOwn}, holds: true, ends: s30},
		{name: "a lost SET that set nothing: the key was B's",
			story: new(story).set(0, "B", "tB", s30, true, true).
				lost(1, "A", "tA", sim.OpAcquire, kept("tB", 29*time.Second), false),
			whats: []What{Granted, LostNotSet}},
		{name: "a lost renewal that ran; A reads no renewal and stops",
			story: new(story).set(0, "A", "tA", s30, true, true).
				lost(20, "A", "tA", sim.OpExtend, moved("tA", 10*time.Second, s30), false),
			whats: []What{Granted, LostExtended}, ends: 50 * time.Second},
		{name: "a late renewal, lost, taken for done: B's grant overlaps",
			story: new(story).set(0, "A", "tA", s30, true, true).
				lost(31, "A", "tA", sim.OpExtend, sim.KeyChange{TTLBefore: -1, TTLAfter: -1}, true).
				set(32, "B", "tB", s30, true, true),
			whats: []What{Granted, LostNotExtended, Granted}, holds: true, ends: s30, overlaps: 1},
		{name: "the same, read as no renewal: A stops, B's grant overlaps nothing",
			story: new(story).set(0, "A", "tA", s30, true, true).
				lost(31, "A", "tA", sim.OpExtend, sim.KeyChange{TTLBefore: -1, TTLAfter: -1}, false).
				set(32, "B", "tB", s30, true, true),
			whats: []What{Granted, LostNotExtended, Granted}, ends: s30},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := Fold(*c.story, sec(40), nil)
			for i, w := range c.whats {
				if l.Reads[i].What != w {
					t.Errorf("event %d reads as %q, want %q", i, l.Reads[i].What, w)
				}
				if got := l.Reads[i].Lost; got != (*c.story)[i].Lost {
					t.Errorf("event %d: Read.Lost %v, the event's %v", i, got, (*c.story)[i].Lost)
				}
			}
			if n := len(l.LostReplies()); n != 1 {
				t.Errorf("%d lost replies, want 1", n)
			}
			b := l.Belief("A")
			if b.Holds != c.holds {
				t.Errorf("A acts as holder: %v, want %v", b.Holds, c.holds)
			}
			// ends 0: A has no lease at all
			if ls := l.leaseOf("tA"); (ls == nil) != (c.ends == 0) || ls != nil && ls.Ends() != c.ends {
				t.Errorf("A's lease %+v, want it to end at %s", ls, c.ends)
			}
			if len(l.Overlaps) != c.overlaps {
				t.Errorf("%d overlaps, want %d", len(l.Overlaps), c.overlaps)
			}
		})
	}
	// the lab's own lost reply (not sim.ErrReplyLost) of a renewal that
	// renewed nothing keeps its reading: an unknown outcome, A giving up
	s := new(story).set(0, "A", "tA", s30, true, true).
		lost(31, "A", "tA", sim.OpExtend, sim.KeyChange{TTLBefore: -1, TTLAfter: -1}, false)
	(*s)[1].Err = errors.New("i/o timeout: the reply was lost")
	l := Fold(*s, sec(40), nil)
	if l.Reads[1].What == LostNotExtended || l.Belief("A").Holds {
		t.Errorf("the lab's lost renewal reads as %q, A holds %v", l.Reads[1].What, l.Belief("A").Holds)
	}
}
