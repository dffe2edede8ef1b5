package tui

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2/server"
	"github.com/charmbracelet/lipgloss"

	checker "locksim/check"
	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/sim/simtest"
	"locksim/views"
)

// The extend scene's first story, as written: A acquires and starts its
// watchdog (move 0), 45 s pass (1), B acquires (2), A freezes (3), ...
const (
	moveAdvance  = 1
	moveBAcquire = 2
	movePause    = 3
)

// caused is one story with something it did not script, and every view
// of it: the ledger, the readouts of A and of B, the scene's tally and ⚠
// line, the history page and the checker's verdicts.
type caused struct {
	snap    sim.Snapshot
	led     *ledger.Ledger
	a, b    scenes.Explanation // with A, with B selected
	tally   string
	history views.History
	page    string // the history page's tracks and legend, drawn at 120 columns
	report  checker.Report
}

// playCaused plays the extend scene's first story on b up to move at, runs
// helper there (when not nil: what the story did not script), and plays on
// until move to of the story as written has run.
func playCaused(t *testing.T, b *sim.Backend, at int, helper *sim.Move, to int) caused {
	t.Helper()
	ctx := context.Background()
	sc := scenes.Find("extend")
	text, err := content.Load("extend")
	if err != nil {
		t.Fatal(err)
	}
	p := scenes.Params{"story": 0}
	run := sim.NewRun(b, sc.Script(p), 1)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, at); err != nil {
		t.Fatal(err)
	}
	end := to + 1
	if helper != nil {
		if err := run.Insert(ctx, *helper); err != nil {
			t.Fatal(err)
		}
		end++
	}
	if err := run.Seek(ctx, end); err != nil {
		t.Fatal(err)
	}
	c := caused{snap: run.Snapshot(ctx)}
	c.led = scenes.Fold(c.snap)
	c.a = scenes.Explain(sc, scenes.Frame{Snap: c.snap, L: c.led, P: p, Sel: 0, Text: text})
	c.b = scenes.Explain(sc, scenes.Frame{Snap: c.snap, L: c.led, P: p, Sel: 1, Text: text})
	c.tally = c.a.Verdict
	c.history = historyOf(c.snap, c.led, "")
	st := views.NewStyles(lipgloss.NewRenderer(io.Discard), false)
	rows := append(views.Tracks(st, c.history, 120, 0).Rows, legend(st, c.history, 120)...)
	c.page = views.Strip(strings.Join(rows, "\n"))
	c.report = checker.Check(checker.FromSnapshot(c.snap), checker.DefaultTimeout)
	return c
}

// leaseMarks are the glyphs on a track's points.
func (c caused) marks(label string) []string {
	var out []string
	for _, tr := range c.history.Tracks {
		if tr.Label == label {
			for _, p := range tr.Points {
				out = append(out, p.Glyph)
			}
		}
	}
	return out
}

// endMark is the mark at lease ls's end on its holder's lease track, and
// when it stands.
func (c caused) endMark(ls *ledger.Lease) (string, time.Duration) {
	for _, tr := range c.history.Tracks {
		if tr.Label != ls.Actor+" lease" {
			continue
		}
		for _, p := range tr.Points {
			if p.Glyph == gEnded || p.Glyph == gLapsed {
				return p.Glyph, p.At.At
			}
		}
	}
	return "", 0
}

// bAcquire is B's grant, the move that tells whether the key was free.
func (c caused) bAcquire(t *testing.T) sim.Event {
	t.Helper()
	for _, e := range c.snap.Events {
		if e.Actor == "B" && e.Op != nil && e.Op.Kind == sim.OpAcquire {
			return e
		}
	}
	t.Fatalf("B never sent its acquire")
	return sim.Event{}
}

func causeHas(t *testing.T, what, got string, want ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(got), " ")
	for _, w := range want {
		if !strings.Contains(flat, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, flat)
		}
	}
}

func causeLacks(t *testing.T, what, got string, not ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(got), " ")
	for _, n := range not {
		if strings.Contains(flat, n) {
			t.Errorf("%s says %q, which the replies do not show:\n%s", what, n, flat)
		}
	}
}

// finding is one model's finding: its result and the op it could not place.
func (c caused) finding(m checker.Model) (checker.Result, string, string) {
	v := c.report.Of(m)
	if v.Result == checker.NotLinearizable {
		return v.Result, v.Op.Who(), v.Sentence
	}
	return v.Result, "", v.Sentence
}

// outsideMove is a move of the test's, not the story's: something another
// client (or the server) does to the lock's key between two steps.
func outsideMove(label string, do func(ctx context.Context, r *sim.Run)) *sim.Move {
	return &sim.Move{Kind: sim.MoveDo, Label: label, Do: do}
}

// deletedWith25sLeft: A's key deleted after 45 s, when its watchdog's
// renewal at 40 s had given it until 70 s; B then gets the lock. Every
// view says the key vanished, none that A froze or that its TTL ran out.
func deletedWith25sLeft(t *testing.T, b *sim.Backend, del func(ctx context.Context, r *sim.Run)) {
	c := playCaused(t, b, moveBAcquire, outsideMove("DEL from outside", del), moveBAcquire)
	if e := c.bAcquire(t); e.Reply != "OK" {
		t.Fatalf("B's acquire after the key was deleted: %s", e.Reply)
	}
	a := c.led.Latest("A")
	// renewed at 40 s, the lease ran to 70 s: 25 s left at B's grant (a
	// live server's steps land a few story ms late)
	if left := a.Ends() - c.bAcquire(t).At; a.End != ledger.Vanished || a.Renewed != 4 || left < 20*time.Second {
		t.Fatalf("A's lease: %v, renewed %d, %v left at B's grant; want vanished with about 25 s left, renewed 4 times", a.End, a.Renewed, left)
	}
	o := c.led.FirstOverlap()
	if o == nil || o.Cause != ledger.Vanished || o.First.Actor != "A" || o.Second.Actor != "B" {
		t.Fatalf("the overlap: %+v", o)
	}
	at := scenes.Stamp(a.EndAt)
	causeHas(t, "B's readout", c.b.Readout, "got OK at "+scenes.Stamp(c.bAcquire(t).At)+" while A still acted as holder: A's key had vanished before its lease's end")
	causeHas(t, "A's readout", c.a.Readout, "its key was gone by "+at+", before its lease's end ("+scenes.Stamp(a.Ends())+")")
	causeHas(t, "the ⚠ line", c.a.Alarm, "A and B both acted as holder from "+at+": A's key had vanished before its lease's end")
	for what, s := range map[string]string{"A's readout": c.a.Readout, "B's readout": c.b.Readout, "the ⚠ line": c.a.Alarm} {
		causeLacks(t, what, s, "froze", "ran out", "lapsed")
	}
	causeHas(t, "the tally", c.tally, "extend 1 ×4 · 0 ×0 · -1 ×0 · watchdog running")
	if mark, when := c.endMark(a); mark != gEnded || when != a.EndAt {
		t.Errorf("the history page ends A's lease with %q at %v, want %q (taken away) at %v", mark, when, gEnded, a.EndAt)
	}
	causeHas(t, "the history page", c.page, "╳ lease taken away")
	causeLacks(t, "the history page", c.page, "TTL ran out")
	if res, op, say := c.finding(checker.Server()); res != checker.NotLinearizable || op != "B's acquire" ||
		!strings.Contains(say, "holds this story's commands only") {
		t.Errorf("the server's lease: %v at %q: %s", res, op, say)
	}
	if res, op, _ := c.finding(checker.Mutex()); res != checker.NotLinearizable || op != "B's acquire" {
		t.Errorf("the client's mutex: %v at %q", res, op)
	}
}

// overwrittenAfterTheGrant: right after A's grant another client writes
// the key with a 20 s TTL. The watchdog's first renewal gets 0 at 10 s and
// stops; the readout says a command outside the story replaced the value,
// the tally counts one 0, the history page ends A's lease there, and the
// server's lease model cannot place that 0 from the story's commands. At
// 45 s that value is gone and B gets the lock while A, its work going on,
// still acts as holder: the readout and the ⚠ line blame the replaced
// value, not a SET of the story's.
func overwrittenAfterTheGrant(t *testing.T, b *sim.Backend, set func(ctx context.Context, r *sim.Run)) {
	c := playCaused(t, b, moveAdvance, outsideMove("SET from outside", set), moveBAcquire)
	var renewals []sim.Event
	for _, e := range c.snap.Events {
		if e.Op != nil && e.Op.Kind == sim.OpExtend {
			renewals = append(renewals, e)
		}
	}
	if len(renewals) != 1 || renewals[0].Reply != "(integer) 0" {
		t.Fatalf("the watchdog's renewals: %+v; want one, answered 0, and no more", renewals)
	}
	first := renewals[0]
	a := c.led.Latest("A")
	if a.End != ledger.Overwritten || a.By != "" || a.EndAt != first.At {
		t.Fatalf("A's lease: %v by %q at %v; want replaced from outside by the renewal at %v", a.End, a.By, a.EndAt, first.At)
	}
	at := scenes.Stamp(first.At)
	causeHas(t, "A's readout", c.a.Readout, "A's extension answered (integer) 0 at "+at+": a command from outside this story replaced its value by "+at)
	causeLacks(t, "A's readout", c.a.Readout, "froze", "ran out", "renewed late", "earlier acquisition")
	if e := c.bAcquire(t); e.Reply != "OK" {
		t.Fatalf("B's acquire once the outside value expired: %s", e.Reply)
	}
	if o := c.led.FirstOverlap(); o == nil || o.Cause != ledger.Overwritten || o.By != "" {
		t.Fatalf("the overlap: %+v", o)
	}
	causeHas(t, "B's readout", c.b.Readout, "while A still acted as holder: a command from outside this story had replaced A's value before")
	causeHas(t, "the ⚠ line", c.a.Alarm, "A and B both acted as holder from "+scenes.Stamp(c.bAcquire(t).At)+": A's value had been replaced from outside the story")
	causeLacks(t, "B's readout", c.b.Readout, "without NX")
	causeHas(t, "the tally", c.tally, "extend 1 ×0 · 0 ×1 · -1 ×0 · watchdog stopped · key B's")
	if mark, when := c.endMark(a); mark != gEnded || when != first.At {
		t.Errorf("the history page ends A's lease with %q at %v, want %q at %v", mark, when, gEnded, first.At)
	}
	if res, op, say := c.finding(checker.Server()); res != checker.NotLinearizable || op != "A's extend" ||
		!strings.Contains(say, "holds this story's commands only") {
		t.Errorf("the server's lease: %v at %q: %s", res, op, say)
	}
}

func TestCauseDeletedEmbedded(t *testing.T) {
	simtest.QuickOnly(t)
	deletedWith25sLeft(t, embedded(t), func(_ context.Context, r *sim.Run) {
		r.Backend().Embedded().Del(r.Backend().Key(sim.CourseKey))
	})
}

func TestCauseOverwrittenEmbedded(t *testing.T) {
	simtest.QuickOnly(t)
	overwrittenAfterTheGrant(t, embedded(t), func(_ context.Context, r *sim.Run) {
		mr, key := r.Backend().Embedded(), r.Backend().Key(sim.CourseKey)
		if err := mr.Set(key, "intruder"); err != nil {
			t.Error(err)
		}
		mr.SetTTL(key, r.Scaled(20*time.Second))
	})
}

// liveWithOther opens a live server of the test's own, with a command timeout a
// loaded machine does not reach, and a client beside locksim's.
func liveWithOther(t *testing.T) (*sim.Backend, func(ctx context.Context, args ...any)) {
	url := simtest.StartRedis(t)
	b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(sim.DefaultLiveScale))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	other := simtest.Client(t, url)
	return b, func(ctx context.Context, args ...any) {
		if err := other.Do(ctx, args...).Err(); err != nil {
			t.Error(err)
		}
	}
}

func TestCauseDeletedLive(t *testing.T) {
	b, other := liveWithOther(t)
	deletedWith25sLeft(t, b, func(ctx context.Context, r *sim.Run) { other(ctx, "DEL", r.Backend().Key(sim.CourseKey)) })
}

func TestCauseOverwrittenLive(t *testing.T) {
	b, other := liveWithOther(t)
	overwrittenAfterTheGrant(t, b, func(ctx context.Context, r *sim.Run) {
		other(ctx, "SET", r.Backend().Key(sim.CourseKey), "intruder", "PX", r.Scaled(20*time.Second).Milliseconds())
	})
}

// interceptExtend makes the embedded server answer every extension
// script with answer instead of running it.
func interceptExtend(b *sim.Backend, answer func(c *server.Peer)) {
	b.Embedded().Server().SetPreHook(func(c *server.Peer, cmd string, args ...string) bool {
		if cmd != "EVAL" || len(args) == 0 || args[0] != sim.ExtendLua.Src {
			return false
		}
		answer(c)
		return true
	})
}

// TestCauseRenewalsRefusedBusy: the server answers every renewal BUSY, as
// Redis does while another client's script runs past its time limit. A's
// lease runs out at 30 s unrenewed though A never paused; B gets the lock
// at 45 s. The readouts and the ⚠ line name the refusals, not a frozen
// watchdog; the tally counts BUSY beside 1, 0 and -1; the history page
// marks each error reply and the lease's end as its TTL running out; the
// server's lease model finds the story's replies consistent.
func TestCauseRenewalsRefusedBusy(t *testing.T) {
	simtest.QuickOnly(t)
	b := embedded(t)
	const busy = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."
	interceptExtend(b, func(c *server.Peer) { c.WriteError(busy) })
	c := playCaused(t, b, 0, nil, moveBAcquire)
	var replies []string
	for _, e := range c.snap.Events {
		if e.Op != nil && e.Op.Kind == sim.OpExtend {
			replies = append(replies, e.Reply)
		}
	}
	if len(replies) != 4 || replies[0] != "(error) "+busy {
		t.Fatalf("the watchdog's renewals at 10, 20, 30 and 40 s: %q", replies)
	}
	a := c.led.Latest("A")
	if why, first := c.led.WhyUnrenewed(a); a.End != ledger.Lapsed || a.Ends() != 30*time.Second || why != ledger.RenewalsRefused || ledger.ErrorCode(first) != "BUSY" {
		t.Fatalf("A's lease: %v at %v, unrenewed because %v", a.End, a.Ends(), why)
	}
	if e := c.bAcquire(t); e.Reply != "OK" {
		t.Fatalf("B's acquire at 45 s: %s", e.Reply)
	}
	causeHas(t, "B's readout", c.b.Readout, "the server had refused A's renewals with BUSY, so A's lease ran out at +30.000s")
	causeHas(t, "A's readout", c.a.Readout, "the server refused its renewals with BUSY, so its 30000 ms lease ran out at +30.000s")
	causeHas(t, "the ⚠ line", c.a.Alarm, "the server refused A's renewals (BUSY), and its lease lapsed")
	for what, s := range map[string]string{"A's readout": c.a.Readout, "B's readout": c.b.Readout, "the ⚠ line": c.a.Alarm} {
		causeLacks(t, what, s, "froze", "frozen", "vanished")
	}
	causeHas(t, "the tally", c.tally, "extend 1 ×0 · 0 ×0 · -1 ×0 · BUSY ×4 · watchdog running")
	if got := strings.Count(strings.Join(c.marks("A"), ""), gError); got != 4 {
		t.Errorf("the history page marks %d error replies on A's row, want 4: %q", got, c.marks("A"))
	}
	if mark, when := c.endMark(a); mark != gLapsed || when != 30*time.Second {
		t.Errorf("the history page ends A's lease with %q at %v, want %q (TTL ran out) at 30 s", mark, when, gLapsed)
	}
	causeHas(t, "the history page", c.page, "e error reply", "┤ TTL ran out")
	if res, _, say := c.finding(checker.Server()); res != checker.Linearizable {
		t.Errorf("an error reply changes nothing on the server, yet: %v %s", res, say)
	}
	if res, op, _ := c.finding(checker.Mutex()); res != checker.NotLinearizable || op != "B's acquire" {
		t.Errorf("the client's mutex: %v at %q", res, op)
	}
}

// TestCauseRenewalsUnanswered: every renewal gets no reply within the
// command timeout. The log says so in the client's words, never as an
// "(error)" reply; the readouts name the missing replies; the tally counts
// them; the history page marks each; the server's lease model may place
// the renewals as not run, and finds the history consistent.
func TestCauseRenewalsUnanswered(t *testing.T) {
	simtest.QuickOnly(t)
	// four command timeouts of a second on the real clock: waited
	// beside the package's other tests, which own their servers too
	t.Parallel()
	b := embedded(t)
	// every connection waits this long, B's and the reads among them: a
	// second no loaded machine takes to answer in process, while each
	// renewal is held till the end
	const timeout = time.Second
	b.SetCommandTimeout(timeout)
	// no renewal is answered until the test is over, when A's client has
	// long given up on each (an event, not a time; released before the
	// server closes)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	interceptExtend(b, func(*server.Peer) { <-release })
	c := playCaused(t, b, 0, nil, moveBAcquire)
	n := 0
	for _, e := range c.snap.Events {
		if e.Op == nil || e.Op.Kind != sim.OpExtend {
			continue
		}
		n++
		if e.Reply != "no reply within "+sim.FormatSpan(timeout)+": outcome unknown" || !e.TimedOut() {
			t.Errorf("a renewal with no reply is logged as %q", e.Reply)
		}
	}
	if n != 4 {
		t.Fatalf("%d renewals, want 4 (at 10, 20, 30, 40 s)", n)
	}
	a := c.led.Latest("A")
	if why, _ := c.led.WhyUnrenewed(a); a.End != ledger.Lapsed || why != ledger.RenewalsUnanswered {
		t.Fatalf("A's lease: %v, unrenewed because %v", a.End, why)
	}
	causeHas(t, "B's readout", c.b.Readout, "A's renewals got no reply within the command timeout, and its lease ran out at +30.000s")
	causeHas(t, "the ⚠ line", c.a.Alarm, "A's renewals got no reply, and its lease lapsed")
	causeHas(t, "the tally", c.tally, "extend 1 ×0 · 0 ×0 · -1 ×0 · no reply ×4 · watchdog running")
	for what, s := range map[string]string{"A's readout": c.a.Readout, "B's readout": c.b.Readout, "the tally": c.tally} {
		causeLacks(t, what, s, "(error)", "i/o timeout", "froze")
	}
	if got := strings.Count(strings.Join(c.marks("A"), ""), gUnknown); got != 4 {
		t.Errorf("the history page marks %d missing replies on A's row, want 4: %q", got, c.marks("A"))
	}
	if res, _, say := c.finding(checker.Server()); res != checker.Linearizable {
		t.Errorf("renewals that may not have run fit the server's lease, yet: %v %s", res, say)
	}
	if res, op, _ := c.finding(checker.Mutex()); res != checker.NotLinearizable || op != "B's acquire" {
		t.Errorf("the client's mutex: %v at %q", res, op)
	}
	for i, e := range c.snap.Events {
		if e.Op != nil && e.Op.Kind == sim.OpExtend && c.led.Reads[i].What != ledger.ExtNoReply {
			t.Errorf("the renewal at %v read as %q", e.At, c.led.Reads[i].What)
		}
	}
}

// playRedlock plays a Redlock story up to and including the move labelled
// upTo ("" for the whole story), and every view of it with c2 selected.
func playRedlock(t *testing.T, story, upTo string) caused {
	t.Helper()
	ctx := context.Background()
	sc := scenes.Find("redlock")
	text, err := content.Load("redlock")
	if err != nil {
		t.Fatal(err)
	}
	var p scenes.Params
	for i, v := range sc.Knobs[0].Values {
		if v == story {
			p = scenes.Params{"story": i}
		}
	}
	if p == nil {
		t.Fatalf("no story %q", story)
	}
	script := sc.Script(p)
	end := len(script.Moves)
	for i, m := range script.Moves {
		if upTo != "" && m.Label == upTo {
			end = i + 1
		}
	}
	run := sim.NewRun(embedded(t), script, 1)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, end); err != nil {
		t.Fatal(err)
	}
	c := caused{snap: run.Snapshot(ctx)}
	c.led = scenes.Fold(c.snap)
	c.a = scenes.Explain(sc, scenes.Frame{Snap: c.snap, L: c.led, P: p, Sel: 0, Text: text})
	c.b = scenes.Explain(sc, scenes.Frame{Snap: c.snap, L: c.led, P: p, Sel: 1, Text: text})
	c.history = historyOf(c.snap, c.led, "")
	st := views.NewStyles(lipgloss.NewRenderer(io.Discard), false)
	rows := append(views.Tracks(st, c.history, 120, 0).Rows, legend(st, c.history, 120)...)
	c.page = views.Strip(strings.Join(rows, "\n"))
	c.report = checker.Check(checker.FromSnapshot(c.snap), checker.DefaultTimeout)
	return c
}

// nodeLease is the lease actor was granted on node.
func (c caused) nodeLease(t *testing.T, actor, node string) *ledger.Lease {
	t.Helper()
	for _, ls := range c.led.Leases {
		if ls.Actor == actor && ls.Node == node {
			return ls
		}
	}
	t.Fatalf("%s has no lease on node %s", actor, node)
	return nil
}

// nodeRow is node's row on the history page.
func (c caused) nodeRow(t *testing.T, node string) string {
	t.Helper()
	for _, l := range strings.Split(c.page, "\n") {
		if strings.HasPrefix(l, "node "+node+" ") {
			return l
		}
	}
	t.Fatalf("no row for node %s:\n%s", node, c.page)
	return ""
}

// TestCauseRedlockRestart: "C restarts". Node C restarts empty 100 ms in,
// with 9.9 s left on c1's key there; c2 then gets OK from C. The ledger
// ends c1's lease on C as lost in the restart (not its TTL running out),
// c2's readout of that OK says so, the history page marks it on C's row
// with the restart's own mark and no "TTL ran out", and the checker finds
// the replies fit a server that restarted empty while its mutex breaks.
func TestCauseRedlockRestart(t *testing.T) {
	simtest.QuickOnly(t)
	c := playRedlock(t, "C restarts", "c2 SET C")
	ls := c.nodeLease(t, "c1", "C")
	var restart sim.Event
	for _, e := range c.snap.Events {
		if e.RestartedEmpty() {
			restart = e
		}
	}
	if ls.End != ledger.Restarted || ls.EndAt != restart.At || ls.Ends()-ls.EndAt < 9*time.Second {
		t.Fatalf("c1's lease on C: %v at %v (ends %v); want lost in the restart at %v", ls.End, ls.EndAt, ls.Ends(), restart.At)
	}
	causeHas(t, "c2's readout", c.b.Readout, "c2's SET on node C answered OK at", "c1's key there was lost at "+scenes.Stamp(restart.At)+
		", when the node restarted empty, "+sim.FormatSpan(ls.Ends()-ls.EndAt)+" before its TTL's end")
	causeLacks(t, "c2's readout", c.b.Readout, "ran out", "vanished", "lapsed")

	c = playRedlock(t, "C restarts", "")
	row := c.nodeRow(t, "C")
	if !strings.Contains(row, gLost) || strings.Contains(row, gLapsed) {
		t.Errorf("node C's row: %q; want the restart's %q and no %q", row, gLost, gLapsed)
	}
	causeHas(t, "the history page", c.page, gLost+" restarted empty: leases lost")
	causeLacks(t, "the history page", c.page, "TTL ran out", "taken away")
	if res, _, say := c.finding(checker.Server()); res != checker.Linearizable {
		t.Errorf("a restart without persistence is in the server's model, yet: %v %s", res, say)
	}
	if res, op, _ := c.finding(checker.Mutex()); res != checker.NotLinearizable || op != "c2's acquire" {
		t.Errorf("the client's mutex: %v at %q", res, op)
	}
}

// TestCauseRedlockClockJump: "clock jump". C's clock jumps 10 s forward,
// past the end of c1's key there: it ran out on C's own clock, at the
// jump. The ledger calls it lapsed then, c2's readout of its OK from C
// names the jump, the history page draws the TTL running out beside the
// jump's mark, and the verdicts agree.
func TestCauseRedlockClockJump(t *testing.T) {
	simtest.QuickOnly(t)
	c := playRedlock(t, "clock jump", "c2 SET C")
	ls := c.nodeLease(t, "c1", "C")
	var jump sim.Event
	for _, e := range c.snap.Events {
		if e.Kind == sim.Fault && e.Fault == sim.FaultClockJump {
			jump = e
		}
	}
	if ls.End != ledger.Lapsed || ls.EndAt != jump.At || c.led.JumpedBy(ls) != jump.Jump {
		t.Fatalf("c1's lease on C: %v at %v, jumped by %v; want lapsed at the jump, %v", ls.End, ls.EndAt, c.led.JumpedBy(ls), jump.At)
	}
	causeHas(t, "c2's readout", c.b.Readout, "c1's key there ran out at "+scenes.Stamp(jump.At)+", when C's clock jumped "+sim.FormatSpan(jump.Jump)+" (its lease was to end at")
	causeLacks(t, "c2's readout", c.b.Readout, "vanished", "restart")

	c = playRedlock(t, "clock jump", "")
	if row := c.nodeRow(t, "C"); !strings.Contains(row, gJump+gLapsed) {
		t.Errorf("node C's row: %q; want the TTL running out (%q) right after the jump (%q)", row, gLapsed, gJump)
	}
	causeLacks(t, "the history page", c.page, "taken away", "restarted empty")
	if res, _, say := c.finding(checker.Server()); res != checker.Linearizable {
		t.Errorf("a jump of a node's clock is in the server's model, yet: %v %s", res, say)
	}
	if res, op, _ := c.finding(checker.Mutex()); res != checker.NotLinearizable || op != "c2's acquire" {
		t.Errorf("the client's mutex: %v at %q", res, op)
	}
}
