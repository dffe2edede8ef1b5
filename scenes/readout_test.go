package scenes

import (
	"context"
	"strings"
	"testing"
	"time"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/ledger"

	"github.com/charmbracelet/lipgloss"
)

// readoutAfter plays scene id under p on the embedded server through the
// move labelled label, and returns the readout with nobody selected (the
// actor of that move explained) and the ledger's fold at that point.
func readoutAfter(t *testing.T, id string, p Params, label string) (string, Frame) {
	t.Helper()
	ctx := context.Background()
	sc := Find(id)
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	run := sim.NewRun(embedded(t), sc.Script(p), 1)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, m := range run.Moves() {
		if m.Label == label {
			at = i + 1
			break
		}
	}
	if at < 0 {
		t.Fatalf("%s has no move %q", id, label)
	}
	if err := run.Seek(ctx, at); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	v := Frame{Snap: snap, L: Fold(snap), P: p, Sel: -1, Text: text}
	return Explain(sc, v).Readout, v
}

// At the count, the readout gives the count's rule, not the release on
// the last node that the failed count sends in the same step.
func TestRedlockReadoutAtTheCount(t *testing.T) {
	cases := []struct{ story, want string }{
		{"3 down", "c1 counted 2 of 5 OK, and 3 were needed: no majority"},
		{"slow node", "c1 counted 2 of 5 OK, and 3 were needed: no majority"},
		{"slow acquire", "a majority, but acquiring took so long"},
	}
	for _, c := range cases {
		got, _ := readoutAfter(t, "redlock", story(c.story), "c1 counts")
		if !strings.Contains(flat(got), c.want) {
			t.Errorf("%s: readout at the count:\n%s\nwant %q", c.story, got, c.want)
		}
	}
}

// After a release round, the readout sums up every node's reply.
func TestRedlockReadoutSumsUpTheReleaseRound(t *testing.T) {
	got, _ := readoutAfter(t, "redlock", story("clock jump"), "c1 releases")
	want := "c1 tried its release on all 5 nodes: A 1 (its token, deleted); B 1 (its token, deleted); " +
		"C 0 (another token, kept); D no reply; E no reply." // cut off: sent, and timed out
	if !strings.Contains(flat(got), want) {
		t.Errorf("readout after c1's release:\n%s\nwant %q", got, want)
	}
}

// flat joins a wrapped sentence into one line.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// The key deleted from outside the story (as redis-cli del would) while
// the watchdog runs: its next renewal answers -1 before the lease's end,
// and the readout says the key vanished, not that the lease ran out.
func TestExtendKeyDeletedDuringTheWatchdog(t *testing.T) {
	ctx := context.Background()
	sc := Find("extend")
	text, err := content.Load("extend")
	if err != nil {
		t.Fatal(err)
	}
	p := Params{"story": 1}
	run := sim.NewRun(embedded(t), sc.Script(p), 1)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, 1); err != nil { // A acquires, its watchdog starts
		t.Fatal(err)
	}
	del := sim.Move{Kind: sim.MoveDo, Label: "redis-cli del", Do: func(ctx context.Context, r *sim.Run) {
		r.Backend().Admin().Del(ctx, r.Backend().Key(sim.CourseKey))
	}}
	if err := run.Insert(ctx, del); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, 3); err != nil { // 45 s pass: the watchdog renews at 10 s
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	led := Fold(snap)
	_, es := extensions(snap.Events)
	if len(es) == 0 || es[0].Reply != "(integer) -1" || es[0].At != 10*time.Second {
		t.Fatalf("the first renewal, at 10 s, should find no key: %+v", es)
	}
	if ls := led.Latest("A"); ls.End != ledger.Vanished || ls.EndAt != 10*time.Second {
		t.Fatalf("A's lease: %v at %v, want vanished at 10 s", ls.End, ls.EndAt)
	}
	readout := Explain(sc, Frame{Snap: snap, L: led, P: p, Sel: 0, Text: text}).Readout
	if rows := strings.Count(lipgloss.NewStyle().Width(80).Render(readout), "\n") + 1; rows > 3 {
		t.Errorf("the readout takes %d rows at 80 columns: %s", rows, readout)
	}
	out := flat(readout)
	want := "A's watchdog renewed at +10.000s: (integer) -1, its key was gone by +10.000s, before its lease's end (+30.000s)"
	if !strings.Contains(out, want) || strings.Contains(out, "ran out") {
		t.Errorf("A's readout:\n%s\nwant %q", out, want)
	}
}

// The failover: the readout at c2's grant says that c1's key had not
// reached the replica.
func TestFailoverReadoutSaysTheKeyHadNotArrived(t *testing.T) {
	got, v := readoutAfter(t, "redlock", story("failover"), "c2 acquires")
	want := "c2 got the lock from replica at +0.000s: c1's key, written on primary, had not reached replica"
	if !strings.Contains(flat(got), want) {
		t.Errorf("readout at c2's grant:\n%s\nwant %q", got, want)
	}
	if o := v.L.LatestOverlap(); o == nil || !o.Uncopied {
		t.Errorf("the overlap: %+v", o)
	}
	got, _ = readoutAfter(t, "redlock", story("replicated"), "c2 acquires")
	if strings.Contains(got, "had not reached") {
		t.Errorf("replicated, the key had reached the replica:\n%s", got)
	}
}

// Options with NX off: w2 only tries, so it stops acting as holder when its
// lease ends; w3's grant at 40 s overlaps nobody, and at the end the ⚠
// line names the first overlap, when mutual exclusion broke, and how many
// followed.
func TestOptionsTryingContender(t *testing.T) {
	nxOff := Params{"NX": 1}
	got, v := readoutAfter(t, "options", nxOff, "w3 SET")
	if v.L.Belief("w2").Holds || len(v.L.Overlaps) != 1 || strings.Contains(got, "Two clients") {
		t.Fatalf("w2's lease ended at 30 s: holds %v, %d overlaps, readout at w3's SET:\n%s",
			v.L.Belief("w2").Holds, len(v.L.Overlaps), got)
	}
	_, v = readoutAfter(t, "options", nxOff, "w2 SET again")
	alarm := Explain(Find("options"), v).Alarm
	want := "w1 and w2 both acted as holder from +0.000s: a SET without NX (2 more since)"
	if alarm != want || strings.Contains(alarm, "#") {
		t.Errorf("the ⚠ line: %q, want %q", alarm, want)
	}
}

// Crash-gap's healthy lane: a2 gets the lock and releases it in time, so
// the lane ends free, not with an overrun.
func TestCrashGapHealthyLaneReleases(t *testing.T) {
	got, v := readoutAfter(t, "crash-gap", Params{}, "a2 releases")
	if !strings.Contains(flat(got), "a2's release answered (integer) 1: the key still held its own token") {
		t.Errorf("readout at a2's release:\n%s", got)
	}
	if b := v.L.Belief("a2"); b.Holds || b.Lease.End != ledger.Released {
		t.Errorf("a2 holds %v, its lease %v", b.Holds, b.Lease.End)
	}
}

// Celery's bug in the release scene: A is refused, its finally runs a
// blind DEL that deletes B's lock, and C gets the lock while B holds it.
func TestReleaseRefusedFinally(t *testing.T) {
	p := Params{"release": 3}
	got, v := readoutAfter(t, "release", p, "A's finally: DEL")
	want := "A was refused the lock at +0.000s, yet its release ran anyway (as one in a finally block does): its DEL answered (integer) 1 and deleted B's lock"
	if !strings.Contains(flat(got), want) {
		t.Errorf("readout at A's DEL:\n%s\nwant %q", got, want)
	}
	if v.L.ForeignDeletes() != 1 {
		t.Errorf("foreign deletes: %d", v.L.ForeignDeletes())
	}
	_, v = readoutAfter(t, "release", p, "C acquires")
	if h := v.L.Holders(); len(h) != 2 || h[0] != "B" || h[1] != "C" || len(v.L.Overlaps) != 1 {
		t.Errorf("B and C should both act as holder: %v, %d overlaps", h, len(v.L.Overlaps))
	}
}

// The scoreboard's one rule on redlock's stories: exclusion broken from the
// clock jump's second majority to the end; fault tolerance untested until a
// client that lost nodes has released, then held; broken when a slow node
// keeps a client from a majority while three nodes are up.
func TestRedlockScoreboard(t *testing.T) {
	cases := []struct {
		story, label string
		want         [3]ledger.Verdict
	}{
		{"clock jump", "c2 counts", [3]ledger.Verdict{ledger.Broken, ledger.Untested, ledger.Untested}},
		{"clock jump", "c1 releases", [3]ledger.Verdict{ledger.Broken, ledger.Untested, ledger.Held}},
		{"clock jump", "c2 releases", [3]ledger.Verdict{ledger.Broken, ledger.Untested, ledger.Held}},
		{"2 down", "c1 counts", [3]ledger.Verdict{ledger.Untested, ledger.Untested, ledger.Untested}},
		{"2 down", "c1 releases", [3]ledger.Verdict{ledger.Untested, ledger.Untested, ledger.Held}},
		{"slow node", "c1 counts", [3]ledger.Verdict{ledger.Untested, ledger.Untested, ledger.Broken}},
		{"3 down", "c1 counts", [3]ledger.Verdict{ledger.Untested, ledger.Untested, ledger.Untested}},
	}
	for _, c := range cases {
		_, v := readoutAfter(t, "redlock", story(c.story), c.label)
		if got := v.L.Properties(false); got != c.want {
			t.Errorf("%s, after %s: %v, want %v", c.story, c.label, got, c.want)
		}
	}
}

// At the count of "3 down", the readout says what the release round's
// replies were: A and B deleted c1's token, C, D and E refused the
// connection (not sent, as the log says); it never says c1 released on
// every node.
func TestRedlockCountReadoutSaysTheReleaseReplies(t *testing.T) {
	got, _ := readoutAfter(t, "redlock", story("3 down"), "c1 counts")
	want := "c1 counted 2 of 5 OK, and 3 were needed: no majority, so it does not hold the lock. " +
		"It tried its release on all 5 nodes: A and B deleted its token; to C, D and E it was not sent."
	if !strings.Contains(flat(got), want) {
		t.Errorf("readout at c1's count:\n%s\nwant %q", got, want)
	}
	if strings.Contains(flat(got), "released on every node") {
		t.Errorf("three nodes refused the connection, yet the readout says c1 released on every node:\n%s", got)
	}
}

// When the last hung node wakes in "3 hang", c1's readout names every
// node where the ledger read its late SET, not only the last one.
func TestRedlockLateReadoutNamesEveryNode(t *testing.T) {
	got, _ := readoutAfter(t, "redlock", story("3 hang"), "E wakes")
	want := "Nodes C, D and E hung before c1's SETs reached them"
	if !strings.Contains(flat(got), want) {
		t.Errorf("readout after E wakes:\n%s\nwant %q", got, want)
	}
	got, _ = readoutAfter(t, "redlock", story("3 hang"), "C wakes")
	if want := "Node C hung before c1's SET reached it"; !strings.Contains(flat(got), want) {
		t.Errorf("readout after C wakes, the only late SET so far:\n%s\nwant %q", got, want)
	}
	if andList([]string{"C"}) != "C" || andList([]string{"C", "D"}) != "C and D" {
		t.Errorf("andList: %q, %q", andList([]string{"C"}), andList([]string{"C", "D"}))
	}
}

// TestHiddenCardsSayNothingOfTheKeys: at crash-gap's question (does s2's
// SETNX get the lock 40 s after s1 crashed in the gap?) s1's card may say
// it crashed, but not that its key has no TTL; once the question is
// answered the card says so again.
func TestHiddenCardsSayNothingOfTheKeys(t *testing.T) {
	ctx := context.Background()
	sc := Find("crash-gap")
	text, err := content.Load(sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	p := Params{}
	run := sim.NewRun(embedded(t), sc.Script(p), 1)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, m := range run.Moves() {
		labels = append(labels, sim.MoveLabel(m))
	}
	at := sc.PredictAt(labels)
	if at < 0 {
		t.Fatal("crash-gap asks no question")
	}
	if err := run.Seek(ctx, at); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	f := Frame{Snap: snap, L: Fold(snap), P: p, Sel: -1, Text: text}
	s1 := func(hide bool) string {
		f.Hide = hide
		for _, c := range Explain(sc, f).Cards {
			if c.Name == "s1" {
				return c.Lines[1]
			}
		}
		t.Fatal("no card for s1")
		return ""
	}
	if open, shown := s1(true), s1(false); open != "crashed" || shown != "crashed · no TTL" {
		t.Errorf("s1's card: %q while the question is open, %q after; want %q and %q", open, shown, "crashed", "crashed · no TTL")
	}
}
