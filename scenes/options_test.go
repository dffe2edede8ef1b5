package scenes

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/views"
)

// playStory runs scene id's whole schedule under p on b and returns the run
// (for its events), the snapshot read back and the scene's explanation of it.
func playStory(t *testing.T, b *sim.Backend, id string, p Params, seed uint64) (*sim.Run, sim.Snapshot, Explanation) {
	t.Helper()
	ctx := context.Background()
	sc := Find(id)
	if sc == nil {
		t.Fatalf("scene %q is not registered", id)
	}
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	run := sim.NewRun(b, sc.Build(p), seed)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, len(run.Moves())); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	if snap.Err != "" {
		t.Fatalf("reading keys back: %s", snap.Err)
	}
	return run, snap, sc.Explain(View{Snap: snap, P: p, Sel: -1, Text: text})
}

// sent returns the command events of actor whose command is cmd (SET, PTTL,
// EVAL, SETNX...), in order.
func sent(events []sim.Event, actor, cmd string) []sim.Event {
	var out []sim.Event
	for _, e := range events {
		if e.Kind == sim.Command && e.Actor == actor && len(e.Args) > 0 && e.Args[0] == cmd {
			out = append(out, e)
		}
	}
	return out
}

func replies(es []sim.Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Reply)
	}
	return out
}

var optVariants = []struct {
	name string
	p    Params
	// which hazard the replies must show
	double, stuck, foreign bool
}{
	{"all on", Params{}, false, false, false},
	{"NX off", Params{"NX": 1}, true, false, false},
	{"PX off", Params{"PX": 1}, false, true, false},
	{"token constant", Params{"token": 1}, false, false, true},
}

// checkOptions checks one variant of the options story from the replies the
// server sent and the key it left, and then the scene's own reading of them.
func checkOptions(t *testing.T, b *sim.Backend, p Params, double, stuck, foreign bool) {
	t.Helper()
	run, snap, ex := playStory(t, b, "options", p, 3)
	ev := run.Events
	tok := func(name string) string { return run.Actor(name).Token }

	// NX: w2's first SET, sent while w1 holds the lock
	w2 := replies(sent(ev, "w2", "SET"))
	if len(w2) != 2 {
		t.Fatalf("w2 should send two SETs, sent %v", w2)
	}
	if got := w2[0] == "OK"; got != double {
		t.Errorf("w2's SET while w1 held the lock replied %s; two OKs expected only with NX off", w2[0])
	}
	if r := replies(sent(ev, "w1", "SET")); len(r) != 1 || r[0] != "OK" {
		t.Errorf("w1's SET replied %v, want OK", r)
	}

	// PX: after w1 crashed and 40 s passed, does the lock still have no TTL?
	w3 := sent(ev, "w3", "SET")
	if len(w3) != 1 {
		t.Fatalf("w3 should send one SET, sent %d", len(w3))
	}
	stuckSeen := false
	for _, e := range sent(ev, "w3", "PTTL") {
		stuckSeen = stuckSeen || e.Reply == "(integer) -1"
	}
	if stuckSeen != stuck || (w3[0].Reply == "(nil)") != stuck {
		t.Errorf("40 s after w1 crashed, w3's SET got %s (PTTL -1 read: %v); a stuck lock expected only with PX off", w3[0].Reply, stuckSeen)
	}
	if k := snap.Keys[0]; stuck && (k.PTTL != -1 || k.Value != tok("w1")) {
		t.Errorf("with PX off the crashed w1's lock should remain with PTTL -1, read back %+v", k)
	} else if !stuck && k.PTTL == -1 {
		t.Errorf("with PX on no key may be left without a TTL, read back %+v", k)
	}

	// token: w3's late release, after its own lease ran out and w4 took the lock
	rel := sent(ev, "w3", "EVAL")
	switch {
	case stuck:
		if len(rel) != 0 {
			t.Errorf("w3 never held the lock and must not release, sent %v", replies(rel))
		}
	case len(rel) != 1:
		t.Fatalf("w3 should send one release, sent %d", len(rel))
	case foreign:
		if rel[0].Reply != "(integer) 1" {
			t.Errorf("with a constant value w3's late release should delete a lock, got %s", rel[0].Reply)
		}
		if w4 := replies(sent(ev, "w4", "SET")); len(w4) != 1 || w4[0] != "OK" {
			t.Errorf("w4 should have taken the lock before w3's release, got %v", w4)
		}
		if w2[1] != "OK" {
			t.Errorf("after the wrong delete w2 should get in while w4 still holds, got %s", w2[1])
		}
	default:
		if rel[0].Reply != "(integer) 0" {
			t.Errorf("w3's late release replied %s; only a constant value may delete another's lock", rel[0].Reply)
		}
		if !double && snap.Keys[0].Value != tok("w4") {
			t.Errorf("w4's lock should survive w3's release, key reads %+v", snap.Keys[0])
		}
	}

	// the scene's reading of the same replies
	f := foldOptions(ev)
	over := false
	for _, o := range f.out {
		over = over || o.kind == "over"
	}
	if over != double || (f.stuck != "") != stuck || (f.foreign != nil) != foreign {
		t.Errorf("scene saw overwrite %v, stuck %q, wrong delete %v; want %v %v %v", over, f.stuck, f.foreign, double, stuck, foreign)
	}
	wantME, wantDF := views.Held, views.Held
	if double || foreign {
		wantME = views.Broken
	}
	if stuck {
		wantDF = views.Broken
	}
	if double {
		wantDF = views.Untested // without NX a later OK proves nothing about expiry
	}
	if ex.Props[0] != wantME || ex.Props[1] != wantDF {
		t.Errorf("scoreboard %v, want mutual exclusion %v, deadlock freedom %v", ex.Props, wantME, wantDF)
	}
	if (ex.Alarm != "") != (double || stuck || foreign) {
		t.Errorf("alarm %q does not match the hazards seen", ex.Alarm)
	}
	if err := run.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestOptionsHazards(t *testing.T) {
	b := embedded(t)
	for _, v := range optVariants {
		t.Run(v.name, func(t *testing.T) { checkOptions(t, b, v.p, v.double, v.stuck, v.foreign) })
	}
}

// TestOptionsLive plays the same table on a real redis-server, with story
// time divided by 20, while the plain transcript of all four variants runs
// on a backend of its own beside it (both wait in real time).
func TestOptionsLive(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	ctx := context.Background()
	plain := livePlain(t, url, "options")
	b := openLive(t, url)
	for _, v := range optVariants {
		t.Run(v.name, func(t *testing.T) {
			checkOptions(t, b, v.p, v.double, v.stuck, v.foreign)
		})
	}
	// the PX-off story leaves its stuck lock behind until the run is reset
	run := sim.NewRun(b, Find("options").Build(Params{"PX": 1}), 1)
	defer run.Close()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, 3); err != nil { // w1 SET, w2 SET, w1 crashes
		t.Fatal(err)
	}
	if ttl, err := b.Admin().Do(ctx, "PTTL", b.Key(optKey)).Int64(); err != nil || ttl != -1 {
		t.Fatalf("without PX the crashed holder's lock should read PTTL -1, got %d (%v)", ttl, err)
	}
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}

	text, pb := plain()
	for _, want := range []string{
		"SET " + pb.Prefix + "resource:lock",
		" NX PX 1500 → OK", // PX scaled down and shown as sent
		"PTTL " + pb.Prefix + "resource:lock → (integer) -1",
		"EVAL <release> 1 " + pb.Prefix + "resource:lock locked → (integer) 1",
		"ALARM: deadlock: w1 crashed",
		"ALARM: w1 and w2 held the lock at once",
		"ALARM: w3's release deleted w4's lock",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("live transcript lacks %q:\n%s", want, text)
		}
	}
	assertEmpty(t, b)
}

// openLive opens a backend on the live server at url (story time ÷ 20).
func openLive(t *testing.T, url string) *sim.Backend {
	t.Helper()
	b, err := sim.OpenLive(context.Background(), url, 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// livePlain starts the plain transcript of scene id on a live backend of its
// own, in the background; the returned func waits for it and returns the
// transcript and the backend.
func livePlain(t *testing.T, url, id string) func() (string, *sim.Backend) {
	t.Helper()
	b := openLive(t, url)
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- Plain(context.Background(), &out, b, id, 1) }()
	return func() (string, *sim.Backend) {
		t.Helper()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		return out.String(), b
	}
}

// assertEmpty checks that every run on the server was reset: no key is left.
func assertEmpty(t *testing.T, b *sim.Backend) {
	t.Helper()
	if n, err := b.Admin().DBSize(context.Background()).Result(); err != nil || n != 0 {
		t.Fatalf("keys left on the server after the runs were reset: %d (%v)", n, err)
	}
}

// TestOptionsReplay: step back three moves and forward three on the
// embedded server land on the very same events.
func TestOptionsReplay(t *testing.T) {
	checkReplay(t, "options", Params{"token": 1})
}

// checkReplay runs scene id to the end, seeks back three moves and forward
// again, and compares every event.
func checkReplay(t *testing.T, id string, p Params) {
	t.Helper()
	ctx := context.Background()
	b := embedded(t)
	run := sim.NewRun(b, Find(id).Build(p), 5)
	defer run.Close()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	n := len(run.Moves())
	if err := run.Seek(ctx, n); err != nil {
		t.Fatal(err)
	}
	first := append([]sim.Event(nil), run.Events...)
	before := run.Snapshot(ctx).Keys
	if err := run.Seek(ctx, n-3); err != nil {
		t.Fatal(err)
	}
	if len(run.Events) >= len(first) {
		t.Fatalf("seeking back three moves kept %d of %d events", len(run.Events), len(first))
	}
	if err := run.Seek(ctx, n); err != nil {
		t.Fatal(err)
	}
	if len(run.Events) != len(first) {
		t.Fatalf("replay made %d events, the first run %d", len(run.Events), len(first))
	}
	for i, e := range run.Events {
		f := first[i]
		if e.Cmd != f.Cmd || e.Reply != f.Reply || e.At != f.At || e.Actor != f.Actor || e.Note != f.Note {
			t.Errorf("event %d differs on replay:\n got %v %s %s → %s %s\nwant %v %s %s → %s %s",
				i, e.At, e.Actor, e.Cmd, e.Reply, e.Note, f.At, f.Actor, f.Cmd, f.Reply, f.Note)
		}
	}
	after := run.Snapshot(ctx).Keys
	for i := range after {
		if after[i] != before[i] {
			t.Errorf("key read back differs on replay: %+v, first %+v", after[i], before[i])
		}
	}
}

func TestOptionsGolden(t *testing.T) {
	a := openScene(t, embedded(t), "options", 1, 80, 24, "nnnnn")
	golden(t, "options-80x24", a.View())
	// the constant value, played to the end: the wrong delete and its alarm
	a = openScene(t, embedded(t), "options", 1, 80, 24, "Tnnnnnnnnn")
	golden(t, "options-80x24-constant", a.View())
	// all on, through w4's SET: w3's lease has lapsed and w4 holds the key
	a = openScene(t, embedded(t), "options", 1, 80, 24, "nnnnnnn")
	golden(t, "options-80x24-lapsed", a.View())
}

// TestOptionsKnobs: each key flips its option, the schedule replays from the
// start, and the commands sent change with it.
func TestOptionsKnobs(t *testing.T) {
	a := openScene(t, embedded(t), "options", 1, 80, 24, "nn")
	if w2 := sent(a.pl.snap.Events, "w2", "SET"); len(w2) != 1 || w2[0].Reply != "(nil)" {
		t.Fatalf("with NX on w2 should be refused: %v", replies(w2))
	}
	drive(t, a, keys("N")...)
	if a.pl.snap.Pos != 0 || !strings.Contains(a.View(), "NX: off") {
		t.Fatalf("N should switch NX off and restart:\n%s", a.View())
	}
	drive(t, a, keys("nn")...)
	w2 := sent(a.pl.snap.Events, "w2", "SET")
	if len(w2) != 1 || w2[0].Reply != "OK" || strings.Contains(w2[0].Cmd, "NX") {
		t.Fatalf("without NX w2's SET should carry no NX and get OK: %+v", w2)
	}
	if v := a.View(); !strings.Contains(v, "OK · 2nd holder") || !strings.Contains(v, "w1 and w2 held the lock at once") {
		t.Fatalf("the screen should flag two holders:\n%s", v)
	}
	drive(t, a, keys("NPn")...)
	if w1 := sent(a.pl.snap.Events, "w1", "SET"); len(w1) != 1 || strings.Contains(w1[0].Cmd, " PX ") {
		t.Fatalf("with PX off w1's SET should carry no PX: %+v", w1)
	}
}

// checkScreenText replays scene id under every variant, move by move, and
// explains each point for every selection: no text is missing, every
// readout fits the three rows an 80-column screen gives it, and the verdict
// and alarm fit their line.
func checkScreenText(t *testing.T, id string) {
	t.Helper()
	sc := Find(id)
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range variantPoints(t, id) {
		for sel := -1; sel < len(pt.snap.Actors); sel++ {
			ex := sc.Explain(View{Snap: pt.snap, P: pt.p, Sel: sel, Text: text})
			where := fmt.Sprintf("%s, selected %d", pt.where, sel)
			all := ex.Readout + ex.Verdict + ex.Alarm
			if ex.Readout == "" || strings.Contains(all, "[no text") || strings.Contains(all, "%!") {
				t.Errorf("%s: readout %q, verdict %q, alarm %q", where, ex.Readout, ex.Verdict, ex.Alarm)
			}
			if rows := strings.Count(lipgloss.NewStyle().Width(80).Render(ex.Readout), "\n") + 1; rows > 3 {
				t.Errorf("%s: readout takes %d rows at 80 columns: %s", where, rows, ex.Readout)
			}
			if w := ansi.StringWidth("verdict " + ex.Verdict); w > 80 {
				t.Errorf("%s: verdict is %d columns: %s", where, w, ex.Verdict)
			}
			if w := ansi.StringWidth("⚠ " + ex.Alarm); w > 80 {
				t.Errorf("%s: alarm is %d columns: %s", where, w, ex.Alarm)
			}
			for _, c := range ex.Cards {
				for _, l := range c.Lines {
					if w := ansi.StringWidth(l); w > 16 {
						t.Errorf("%s: %s's card line %q is cut at 80 columns", where, c.Name, l)
					}
				}
			}
		}
	}
}

func TestOptionsScreenText(t *testing.T) { checkScreenText(t, "options") }

// lastWrite returns the key and value of actor's last write that the server
// accepted (SET → OK, SETNX → 1), as sent.
func lastWrite(events []sim.Event, actor string) (key, value string, ok bool) {
	for _, e := range events {
		if e.Kind != sim.Command || e.Actor != actor || len(e.Args) < 3 {
			continue
		}
		if (e.Args[0] == "SET" && e.Reply == "OK") || (e.Args[0] == "SETNX" && e.Reply == "(integer) 1") {
			key, value, ok = e.Args[1], e.Args[2], true
		}
	}
	return key, value, ok
}

// checkHolderCards replays every variant of scene id move by move and holds
// each card to the keys read back: a card that calls its actor the holder,
// or says it is holding the lock, needs the key the actor last wrote to be
// there with the value it sent, and no key may have two such cards.
func checkHolderCards(t *testing.T, id string) {
	t.Helper()
	sc := Find(id)
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range variantPoints(t, id) {
		snap, where := pt.snap, pt.where
		ex := sc.Explain(View{Snap: snap, P: pt.p, Sel: -1, Text: text})
		claims := map[string][]string{}
		for _, c := range ex.Cards {
			line := strings.Join(c.Lines[1:], " ")
			if !strings.Contains(line, "holder") && !strings.Contains(line, "holding") {
				continue
			}
			key, val, ok := lastWrite(snap.Events, c.Name)
			if !ok {
				t.Errorf("%s: %s's card says %q, but no write of %s was accepted", where, c.Name, line, c.Name)
				continue
			}
			var got *sim.KeyState
			for i := range snap.Keys {
				if snap.Keys[i].Name == key {
					got = &snap.Keys[i]
				}
			}
			if got == nil || !got.Exists() || got.Value != val {
				t.Errorf("%s: %s's card says %q, but %s reads back %+v (it sent %q)", where, c.Name, line, key, got, val)
			}
			claims[key] = append(claims[key], c.Name)
		}
		for key, names := range claims {
			if len(names) > 1 {
				t.Errorf("%s: %v are all shown holding %s", where, names, key)
			}
		}
	}
}

func TestOptionsHolderCards(t *testing.T) { checkHolderCards(t, "options") }

// readoutFor is the scene's readout for the named actor, selected.
func readoutFor(t *testing.T, id string, p Params, snap sim.Snapshot, name string) string {
	t.Helper()
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range snap.Actors {
		if a.Name == name {
			return Find(id).Explain(View{Snap: snap, P: p, Sel: i, Text: text}).Readout
		}
	}
	t.Fatalf("no actor %s", name)
	return ""
}

// TestOptionsCrashAfterOverwrite: with NX off, w2's SET overwrites w1's key
// before w1 crashes, so w1 crashes holding nothing, and the screen says so.
func TestOptionsCrashAfterOverwrite(t *testing.T) {
	p := Params{"NX": 1}
	run, snap, ex := playStory(t, embedded(t), "options", p, 1)
	w1, w2 := run.Actor("w1").Token, run.Actor("w2").Token
	if r := sent(run.Events, "w2", "SET"); len(r) == 0 || r[0].Reply != "OK" || r[0].Args[2] != w2 {
		t.Fatalf("w2's first SET without NX should get OK: %v", replies(r))
	}
	if snap.Keys[0].Value == w1 {
		t.Fatalf("w1's value should be long gone: %+v", snap.Keys[0])
	}
	got := readoutFor(t, "options", p, snap, "w1")
	if strings.Contains(got, "while it held the lock") || !strings.Contains(got, "w2") || !strings.Contains(got, "overwr") {
		t.Errorf("w1's readout should say w2's SET had overwritten its key before it crashed: %s", got)
	}
	if c := ex.Cards[0]; strings.Contains(strings.Join(c.Lines, " "), "holding") {
		t.Errorf("w1's card %v says it holds the lock", c.Lines)
	}
}
