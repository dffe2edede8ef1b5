package scenes

import (
	"strings"
	"testing"

	"locksim/sim"
	"locksim/sim/ledger"
)

// Three hung nodes: c1's SETs there time out and count as failures, c1 is
// told "not acquired" and its releases there never arrive; when the nodes
// wake its SETs land, so three nodes of five hold the token of a client
// that does not hold the lock, the ledger reads each as a late lease, and
// c2 finds those nodes taken. On live nodes too, where the hang is
// locksim's and says so.
func TestRedlockHungNodesLandLate(t *testing.T) {
	onFiveNodes(t, func(t *testing.T, b *sim.Backend) {
		p := playStory(t, b, "redlock", story("3 hang"), 1)
		e, _ := count(t, p, "c1")
		if e.Op.Votes != 2 || e.Op.Held {
			t.Fatalf("c1 should count C, D, E failed: %d votes, held %v", e.Op.Votes, e.Op.Held)
		}
		late := map[string]bool{}
		for i, e := range p.snap.Events {
			switch {
			case e.Kind != sim.Command || e.Actor != "c1" || e.Op == nil:
			case e.Op.Kind == sim.OpRelease && strings.Contains("CDE", e.Node):
				if !e.Unknown() || !strings.Contains(e.Reply, "never arrives") {
					t.Errorf("c1's release on hung %s should never arrive, got %s", e.Node, e.Reply)
				}
			case e.Op.Late:
				if !e.IsOK() || p.led.Reads[i].What != ledger.NodeLate {
					t.Errorf("the late SET on %s: %s, read %q", e.Node, e.Reply, p.led.Reads[i].What)
				}
				late[e.Node] = true
			}
		}
		if len(late) != 3 || !late["C"] || !late["D"] || !late["E"] {
			t.Fatalf("the late SETs landed on %v, want C, D, E", late)
		}
		if len(p.led.Holds) != 0 {
			t.Errorf("nobody should act as holder: %+v", p.led.Holds)
		}
		for _, k := range p.snap.Keys {
			holds := k.Exists() && k.Value == e.Op.Token
			if holds != strings.Contains("CDE", k.Node) {
				t.Errorf("node %s: key %q, c1's token %q", k.Node, k.Value, e.Op.Token)
			}
		}
		c2, _ := count(t, p, "c2")
		if c2.Op.Votes != 2 || c2.Op.Held {
			t.Errorf("c2 should find C, D, E taken: %d votes, held %v", c2.Op.Votes, c2.Op.Held)
		}
		// the note reads the same on both; how a live node's hang was
		// played is said apart (sim.Event.Simulated)
		if e0 := p.snap.Events[0]; b.Live() == (e0.Simulated == "") || e0.Note != "node C hangs: it reads nothing, and what is sent to it waits" {
			t.Errorf("a node's hang: note %q, simulated %q (live %v)", e0.Note, e0.Simulated, b.Live())
		}
	})
}
