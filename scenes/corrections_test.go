package scenes

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/content"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/sim/simtest"
)

// liveScale divides story time in the live-server tests: a 30 s lease is
// sent as PX 600, so every story plays in a second or two.
const liveScale = 50

// onBoth runs check against the embedded server and, in parallel, against
// a redis-server of its own (skipped with a message when there is none).
// The test itself runs in parallel with the others: live stories wait in
// real time, and the embedded walks use the CPU meanwhile.
func onBoth(t *testing.T, check func(t *testing.T, b *sim.Backend)) {
	onBothAt(t, liveScale, check)
}

// onBothAt is onBoth with the live server's story time divided by scale.
func onBothAt(t *testing.T, scale int, check func(t *testing.T, b *sim.Backend)) {
	simtest.OnBoth(t, scale, check)
}

// readoutOf is the readout with the named actor selected.
func readoutOf(t *testing.T, id string, pl played, name string) string {
	t.Helper()
	text, _ := content.Load(id)
	for i, a := range pl.snap.Actors {
		if a.Name == name {
			return Explain(Find(id), Frame{Snap: pl.snap, L: pl.led, P: Params{}, Sel: i, Text: text}).Readout
		}
	}
	t.Fatalf("no actor %s", name)
	return ""
}

// 2: the resource refuses a token lower than the highest it has seen and
// accepts the current one again.
func TestFencedResourceAcceptsCurrentTokenAgain(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		write := func(tok int64) sim.Step {
			return sim.Step{Label: "write", Run: func(x *sim.Exec) { x.FencedWrite("v", tok) }}
		}
		script := sim.Script{
			Actors:   []sim.ActorSpec{{Name: "B", Program: []sim.Step{write(34), write(34)}}, {Name: "A", Program: []sim.Step{write(33)}}},
			Resource: true,
			Moves:    []sim.Move{sim.StepOf("B"), sim.StepOf("B"), sim.StepOf("A")},
		}
		run := sim.NewRun(b, script, 1)
		defer run.Close()
		ctx := context.Background()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		if err := run.Seek(ctx, 3); err != nil {
			t.Fatal(err)
		}
		defer run.Clear(ctx)
		got := replies(commands(run.Events, "", ""))
		want := []string{"(integer) 1", "(integer) 2", "(error) STALE token 33, seen 34"}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("replies %q, want %q", got, want)
		}
	})
}

// 3: a lease that lapses while its holder works, then another OK before
// the release: two actors acted as holder, in every scene alike.
func TestOverrunIsOneRule(t *testing.T) {
	cases := []struct {
		id           string
		p            Params
		first, other string
	}{
		{"options", Params{}, "w3", "w4"},
		{"release", Params{"release": 2}, "A", "B"},
		{"gc-pause", Params{}, "A", "B"},
		{"fencing", Params{}, "A", "B"},
	}
	t.Parallel()
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			onBoth(t, func(t *testing.T, b *sim.Backend) {
				pl := playStory(t, b, c.id, c.p, 1)
				if len(pl.led.Overlaps) == 0 {
					t.Fatalf("%s: no overlap in %v", c.id, replies(commands(pl.run.Events, "", "")))
				}
				o := pl.led.Overlaps[0]
				if o.First.Actor != c.first || o.Second.Actor != c.other || o.Cause != ledger.Lapsed {
					t.Errorf("%s: overlap %s/%s cause %v", c.id, o.First.Actor, o.Second.Actor, o.Cause)
				}
				// the decisive reply: the second OK (or fence) came after the first lease's end
				if o.FromAt <= o.First.Lease.Ends() {
					t.Errorf("%s: second grant at %v, first lease ends %v", c.id, o.FromAt, o.First.Lease.Ends())
				}
				if pl.ex.Props[0] != say.Broken || !strings.Contains(pl.ex.Alarm, c.first+" and "+c.other+" both acted as holder") {
					t.Errorf("%s: scoreboard %v, alarm %q", c.id, pl.ex.Props, pl.ex.Alarm)
				}
			})
		})
	}
}

// 4: with NX off and PX off the cause is the overwrite, not a lease.
func TestNoNXNoPXBlamesTheOverwrite(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		pl := playStory(t, b, "options", Params{"NX": 1, "PX": 1}, 1)
		w2 := sent(pl.run.Events, "w2", "SET")
		if len(w2) == 0 || w2[0].Reply != "OK" || strings.Contains(w2[0].Cmd, " PX ") {
			t.Fatalf("w2's first SET: %v", replies(w2))
		}
		o := pl.led.Overlaps[0]
		if o.Cause != ledger.Overwritten || !strings.Contains(pl.ex.Alarm, "without NX") {
			t.Errorf("cause %v, alarm %q", o.Cause, pl.ex.Alarm)
		}
		for _, w := range []string{"w1", "w2", "w3", "w4"} {
			if r := readoutOf(t, "options", pl, w); strings.Contains(r, "lease") && strings.Contains(r, "ran out") {
				t.Errorf("%s's readout blames a lease that was never set: %s", w, r)
			}
		}
	})
}

// 5 and 6: the race's winner is the SET the server ran first; a key with
// no TTL stays until someone deletes it. No text says otherwise, and the
// readouts say so on both servers.
func TestWording(t *testing.T) {
	forbidden := regexp.MustCompile(`(?i)first to arrive|\bfor ever\b|forever|will ever (remove|delete)|nothing will ever|nobody will`)
	for _, id := range append([]string{content.Shared}, ids()...) {
		text, err := content.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range text {
			// every forbidden phrase holds one of these, in any case: the
			// regexp (dear under -race) reads only the sections that do
			lower := strings.ToLower(s)
			if !slices.ContainsFunc([]string{"first to arrive", "for ever", "forever", "will ever", "nobody will"}, func(k string) bool { return strings.Contains(lower, k) }) {
				continue
			}
			if forbidden.MatchString(s) {
				t.Errorf("%s/%s: %q", id, name, forbidden.FindString(s))
			}
		}
	}
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		pl := playStory(t, b, "options", Params{"PX": 1}, 1)
		w2 := sent(pl.run.Events, "w2", "SET")
		if len(w2) != 2 || w2[1].Reply != "(nil)" {
			t.Fatalf("w2's last SET, refused by the crashed w1's key without TTL: %v", replies(w2))
		}
		if r := readoutOf(t, "options", pl, "w2"); !strings.Contains(r, "until someone deletes it by hand") {
			t.Errorf("w2's readout: %s", r)
		}
		race := playStory(t, b, "race", Params{}, 1)
		for _, e := range commands(race.run.Events, "", "acquire") {
			want := map[string]string{"OK": "the server ran first", "(nil)": "ran after"}[e.Reply]
			if r := readoutOf(t, "race", race, e.Actor); want == "" || !strings.Contains(r, want) {
				t.Errorf("%s got %s; its readout: %s", e.Actor, e.Reply, r)
			}
		}
	})
}

func ids() []string {
	var out []string
	for _, s := range All() {
		out = append(out, s.ID)
	}
	return out
}

// 7: pauses have no upper bound: a longer TTL only moves where the overlap
// starts. With a 60 s TTL, B's SET after a 35 s pause is refused; after a
// 70 s pause it gets OK at 67 s, and A and B overlap from there.
func TestGCPauseLongerTTLOnlyMovesTheLine(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		short := playStory(t, b, "gc-pause", Params{"TTL": 1}, 1)
		if r := replies(sent(short.run.Events, "B", "SET")); len(r) != 1 || r[0] != "(nil)" || len(short.led.Overlaps) != 0 {
			t.Errorf("TTL 60 s, pause 35 s: B's SET %v, overlaps %d", r, len(short.led.Overlaps))
		}
		long := playStory(t, b, "gc-pause", Params{"TTL": 1, "pause": 1}, 1)
		set := sent(long.run.Events, "B", "SET")
		if len(set) != 1 || set[0].Reply != "OK" || len(long.led.Overlaps) != 1 {
			t.Fatalf("TTL 60 s, pause 70 s: B's SET %v", replies(set))
		}
		// exactly on the embedded server; a live server's story time also
		// counts each step's real round trips, which a loaded machine
		// stretches without bound, so there only the least is checked
		if at := long.led.Overlaps[0].FromAt; at < 67*time.Second || !b.Live() && at != 67*time.Second {
			t.Errorf("the overlap starts at %v, want 67 s", at)
		}
	})
	text, _ := content.Load("gc-pause")
	if !strings.Contains(text.Get("start"), "only moves the line") {
		t.Errorf("the start readout should say a longer TTL only moves the line")
	}
}

// 8: the resource is a separate store only when it is.
func TestResourceWhereItIs(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		run := sim.NewRun(b, Find("fencing").Script(Params{}), 1)
		defer run.Close()
		ctx := context.Background()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		snap := run.Snapshot(ctx)
		text, _ := content.Load("fencing")
		ex := Explain(Find("fencing"), Frame{Snap: snap, L: Fold(snap), Sel: -1, Text: text})
		want := "on a server of its own"
		if b.Live() {
			want = "on the lock's own server"
		}
		if snap.SharedResource != b.Live() || !strings.Contains(ex.Readout, want) {
			t.Errorf("shared %v, readout %q", snap.SharedResource, ex.Readout)
		}
	})
}

// 8, with -resource-redis: a store of its own only when it names another server.
func TestResourceRedisWhereItIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lockURL, otherURL := simtest.StartRedis(t), simtest.StartRedis(t)
	for _, c := range []struct {
		url    string
		shared bool
	}{{lockURL, true}, {otherURL, false}} {
		b, err := sim.OpenLive(ctx, lockURL, simtest.LiveOptions(liveScale))
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.OpenLive(ctx, c.url, simtest.LiveOptions(liveScale))
		if err != nil {
			t.Fatal(err)
		}
		b.SetResourceStore(res)
		pl := playStory(t, b, "fencing", Params{}, 1)
		if pl.snap.SharedResource != c.shared {
			t.Errorf("resource on %s: shared %v", c.url, pl.snap.SharedResource)
		}
		if w := sent(pl.run.Events, "A", "EVAL"); len(w) < 2 || w[1].Reply != "(error) STALE token 33, seen 34" {
			t.Errorf("A's stale write on %s: %v", c.url, replies(w))
		}
		pl.run.Close()
		if err := b.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// 9: expired versus taken comes from the script's own reply: -1 no key,
// 0 another token; no GET follows it.
func TestReleaseScriptTellsExpiredFromTaken(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		for _, c := range []struct {
			p     Params
			reply string
			what  ledger.What
			word  string
		}{
			{Params{"release": 2}, "(integer) 0", ledger.RelTaken, "held B's token"},
			{Params{"release": 2, "lapsed lock": 1}, "(integer) -1", ledger.RelGone, "no such key"},
		} {
			pl := playStory(t, b, "release", c.p, 1)
			ev := pl.run.Events
			rel := sent(ev, "A", "EVAL")
			if len(rel) != 1 || rel[0].Reply != c.reply || pl.led.Reads[rel[0].Seq].What != c.what {
				t.Fatalf("%v: A's release %v", c.p, replies(rel))
			}
			if g := sent(ev, "A", "GET"); len(g) != 0 {
				t.Errorf("%v: a GET after the release: %v", c.p, replies(g))
			}
			if r := readoutOf(t, "release", pl, "A"); !strings.Contains(r, c.word) {
				t.Errorf("%v: A's readout %q lacks %q", c.p, r, c.word)
			}
		}
	})
}

// 9, extend: the compare-and-PEXPIRE script answers 1 for the holder's
// token, 0 for another token (a handle from an earlier acquisition), -1
// once the key is gone, and never creates a key.
func TestExtendReplies(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		var first string
		acquire := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
			x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL})
			if first == "" {
				first = x.Actor().Value
			}
		}}
		extend := func(old bool) sim.Step {
			return sim.Step{Label: "extend", Run: func(x *sim.Exec) {
				tok := x.Actor().Value
				if old {
					tok = first
				}
				x.Extend("", sim.CourseKey, tok, sim.CourseTTL)
			}}
		}
		release := sim.Step{Label: "release", Run: func(x *sim.Exec) { x.Release("", sim.CourseKey) }}
		script := sim.Script{
			Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{acquire, release, acquire, extend(false), extend(true), release, extend(false)}}},
			Keys:   []string{sim.CourseKey}, Watch: []string{sim.CourseKey},
			Moves: []sim.Move{sim.StepOf("A"), sim.StepOf("A"), sim.StepOf("A"), sim.StepOf("A"), sim.StepOf("A"), sim.StepOf("A"), sim.StepOf("A")},
		}
		run := sim.NewRun(b, script, 1)
		defer run.Close()
		ctx := context.Background()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		_ = run.Seek(ctx, 7)
		defer run.Clear(ctx)
		var got []string
		for _, e := range run.Events {
			if e.Op != nil && e.Op.Kind == sim.OpExtend {
				got = append(got, e.Reply)
			}
		}
		if strings.Join(got, "|") != "(integer) 1|(integer) 0|(integer) -1" {
			t.Fatalf("extend replies %q", got)
		}
		snap := run.Snapshot(ctx)
		if snap.Keys[0].Exists() {
			t.Errorf("a renewal created a key: %+v", snap.Keys[0])
		}
		l := Fold(snap)
		var whats []ledger.What
		for i, e := range run.Events {
			if e.Op != nil && e.Op.Kind == sim.OpExtend {
				whats = append(whats, l.Reads[i].What)
			}
		}
		if fmt.Sprint(whats) != "[extended ext-taken ext-gone]" {
			t.Errorf("the ledger reads %v", whats)
		}
	})
}

// 11: Redis 7 keeps a key through the millisecond its TTL ends. On the
// embedded server a learner's wait that lands exactly on a lease's end
// leaves the key at PTTL 0 and refuses SET NX; a live server is checked
// inside one script, where its clock stands still.
func TestExpiryBoundary(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		ctx := context.Background()
		key := b.Key("boundary")
		defer b.Delete(ctx, key)
		if !b.Live() {
			// A acquires; then the learner's moves: a wait that lands
			// exactly on the lease's end, a peek (GET, PTTL), B's acquire,
			// one millisecond more, B's acquire again
			acquire := sim.Step{Label: "acquire", Run: func(x *sim.Exec) { x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}) }}
			peek := sim.Step{Label: "peek", Run: func(x *sim.Exec) {
				x.Do("GET", x.Key(sim.CourseKey))
				x.Do("PTTL", x.Key(sim.CourseKey))
			}}
			script := sim.Script{
				Actors: []sim.ActorSpec{
					{Name: "A", Program: []sim.Step{acquire}},
					{Name: "P", Program: []sim.Step{peek}},
					{Name: "B", Program: []sim.Step{acquire, acquire}},
				},
				Keys: []string{sim.CourseKey}, Watch: []string{sim.CourseKey},
				Moves: []sim.Move{sim.StepOf("A")},
			}
			run := sim.NewRun(b, script, 1)
			defer run.Close()
			if err := run.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			_ = run.Seek(ctx, 1)
			for _, m := range []sim.Move{sim.Advance(sim.CourseTTL), sim.StepOf("P"), sim.StepOf("B"), sim.Advance(time.Millisecond), sim.StepOf("B")} {
				if err := run.Insert(ctx, m); err != nil {
					t.Fatal(err)
				}
			}
			peeked := replies(commands(run.Events, "P", ""))
			if len(peeked) != 2 || !strings.HasPrefix(peeked[0], `"`) || peeked[1] != "(integer) 0" {
				t.Fatalf("at 30.000s GET and PTTL: %q", peeked)
			}
			got := replies(commands(run.Events, "B", ""))
			if strings.Join(got, "|") != "(nil)|(integer) 0|OK" {
				t.Fatalf("at 30.000s B's SET NX and PTTL, then at 30.001s: %q", got)
			}
			// the ledger agrees: refused by A's lease at 30.000s, and B's OK
			// at 30.001s overlaps A, which never released
			l := Fold(run.Snapshot(ctx))
			if l.Refusals[0].Blocker == nil || len(l.Overlaps) != 1 || l.Overlaps[0].FromAt != sim.CourseTTL+time.Millisecond {
				t.Errorf("refusal %+v, overlaps %d", l.Refusals[0], len(l.Overlaps))
			}
			return
		}
		// live: poll inside a script until PTTL reads 0; then GET must still
		// return the value and SET NX must be refused, in that same instant
		probe := `local t = redis.call("PTTL", KEYS[1])
if t ~= 0 then return {t} end
return {t, redis.call("GET", KEYS[1]), redis.call("SET", KEYS[1], "other", "NX") or "refused"}`
		c := b.Admin()
		for try := 0; try < 20; try++ {
			if err := c.Set(ctx, key, "mine", 50*time.Millisecond).Err(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
				res, err := c.Eval(ctx, probe, []string{key}).Slice()
				if err != nil {
					t.Fatal(err)
				}
				if n := res[0].(int64); n == -2 {
					break
				} else if n == 0 {
					if res[1] != "mine" || res[2] != "refused" {
						t.Fatalf("at PTTL 0 the key should still be there and refuse SET NX: %v", res)
					}
					return
				}
			}
		}
		t.Skip("never caught PTTL 0 on the live server in 20 tries")
	})
}
