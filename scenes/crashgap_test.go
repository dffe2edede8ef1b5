package scenes

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/views"
)

// checkCrashGap plays the crash-gap story with the crash at point on b and
// checks it from the replies and the keys read back.
func checkCrashGap(t *testing.T, b *sim.Backend, point int) {
	t.Helper()
	p := Params{gapKnob: point}
	run, snap, ex := playStory(t, b, "crash-gap", p, 2)
	ev := run.Events
	gap := gapPoints[point] == "between"
	atomicKey, splitKey := snap.Keys[0], snap.Keys[1]
	if !strings.HasSuffix(atomicKey.Name, gapAtomicKey) || !strings.HasSuffix(splitKey.Name, gapSplitKey) {
		t.Fatalf("watched keys %s, %s", atomicKey.Name, splitKey.Name)
	}

	// the atomic lane: a2 gets in once the crashed a1's lease has run out
	a2 := sent(ev, "a2", "SET")
	if len(a2) != 1 || a2[0].Reply != "OK" {
		t.Fatalf("a2's SET NX PX after 40 s should get OK: %v", replies(a2))
	}
	if a2[0].At < run.Scaled(lease) {
		t.Errorf("a2 got in at %v, before a 30 s lease could run out", a2[0].At)
	}

	// the split lane
	s1 := replies(sent(ev, "s1", "SETNX"))
	s1exp := len(sent(ev, "s1", "EXPIRE")) + len(sent(ev, "s1", "PEXPIRE"))
	s2 := replies(sent(ev, "s2", "SETNX"))
	s2ttl := replies(sent(ev, "s2", "PTTL"))
	switch gapPoints[point] {
	case "before SETNX":
		if len(s1) != 0 || s1exp != 0 {
			t.Errorf("s1 crashed first and must send nothing: SETNX %v, EXPIRE %d", s1, s1exp)
		}
	case "between":
		if len(s1) != 1 || s1[0] != "(integer) 1" || s1exp != 0 {
			t.Errorf("s1 should get (integer) 1 from SETNX and crash before EXPIRE: SETNX %v, EXPIRE %d", s1, s1exp)
		}
	case "after EXPIRE":
		if len(s1) != 1 || s1[0] != "(integer) 1" || s1exp != 1 {
			t.Errorf("s1 should send SETNX and EXPIRE: SETNX %v, EXPIRE %d", s1, s1exp)
		}
	}
	if gap {
		// every later SETNX is refused and the lock has no TTL, far past 30 s
		if len(s2) != 2 || s2[0] != "(integer) 0" || s2[1] != "(integer) 0" {
			t.Errorf("after the gap crash every SETNX must get (integer) 0, got %v", s2)
		}
		if len(s2ttl) != 2 || s2ttl[0] != "(integer) -1" || s2ttl[1] != "(integer) -1" {
			t.Errorf("s2 should read PTTL -1 after each refusal, got %v", s2ttl)
		}
		if last := sent(ev, "s2", "SETNX"); len(last) == 2 && last[1].At < run.Scaled(3*lease) {
			t.Errorf("the last SETNX came at %v, not far past the lease", last[1].At)
		}
		if splitKey.PTTL != -1 || splitKey.Value != run.Actor("s1").Token {
			t.Errorf("the crashed s1's lock should remain with PTTL -1, read back %+v", splitKey)
		}
	} else {
		if len(s2) == 0 || s2[0] != "(integer) 1" {
			t.Errorf("with the crash %s s2's SETNX should get (integer) 1, got %v", gapPoints[point], s2)
		}
		for _, r := range s2ttl {
			if r == "(integer) -1" {
				t.Errorf("no lock may be left without a TTL when the crash is %s", gapPoints[point])
			}
		}
		if splitKey.PTTL == -1 {
			t.Errorf("split key left without TTL: %+v", splitKey)
		}
	}
	if atomicKey.PTTL == -1 {
		t.Errorf("the atomic lane's key may never lack a TTL: %+v", atomicKey)
	}

	// the scene's reading of the same replies
	if broken := ex.Props[1] == views.Broken; broken != gap {
		t.Errorf("deadlock freedom %v with the crash %s", ex.Props[1], gapPoints[point])
	}
	// a 30 s lease goes out as EXPIRE 30; scaled below whole seconds, as PEXPIRE
	expire := "EXPIRE"
	if run.Scaled(lease)%time.Second != 0 {
		expire = "PEXPIRE"
	}
	if gap != strings.Contains(ex.Alarm, "deadlock: s1 crashed between SETNX and "+expire+";") {
		t.Errorf("alarm %q with the crash %s", ex.Alarm, gapPoints[point])
	}
	if err := run.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestCrashGap(t *testing.T) {
	b := embedded(t)
	for i, name := range gapPoints {
		t.Run(name, func(t *testing.T) { checkCrashGap(t, b, i) })
	}
}

// TestCrashGapLive plays the three crash points on a real redis-server,
// story time divided by 20, with the plain transcript running beside them.
func TestCrashGapLive(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	ctx := context.Background()
	plain := livePlain(t, url, "crash-gap")
	b := openLive(t, url)
	for i, name := range gapPoints {
		t.Run(name, func(t *testing.T) { checkCrashGap(t, b, i) })
	}
	run := sim.NewRun(b, Find("crash-gap").Build(Params{}), 1)
	defer run.Close()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, 5); err != nil { // through s1's crash in the gap
		t.Fatal(err)
	}
	if ttl, err := b.Admin().Do(ctx, "PTTL", b.Key(gapSplitKey)).Int64(); err != nil || ttl != -1 {
		t.Fatalf("on redis-server the gap crash should leave PTTL -1, got %d (%v)", ttl, err)
	}
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}

	// the transcript shows the commands as sent: prefixed keys, PX 1500, and
	// PEXPIRE, since EXPIRE cannot carry the scaled 1.5 s
	text, pb := plain()
	for _, want := range []string{
		"SET " + pb.Prefix + "atomic:resource:lock",
		" NX PX 1500 → OK",
		"PEXPIRE " + pb.Prefix + "split:resource:lock 1500 → (integer) 1",
		"PTTL " + pb.Prefix + "split:resource:lock → (integer) -1",
		"verdict: atomic lane free · split lane DEADLOCKED (PTTL -1)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("live transcript lacks %q:\n%s", want, text)
		}
	}
	assertEmpty(t, b)
}

func TestCrashGapReplay(t *testing.T) {
	checkReplay(t, "crash-gap", Params{})
}

// TestCrashGapScheduler: the learner, not the schedule, makes the gap: s1
// takes the lock with SETNX, is crashed with x, time passes with w, and s2
// is refused with PTTL -1.
func TestCrashGapScheduler(t *testing.T) {
	a := openScene(t, embedded(t), "crash-gap", 1, 80, 24, "3[enter]xww4[enter]")
	ev := a.pl.snap.Events
	if r := replies(sent(ev, "s1", "SETNX")); len(r) != 1 || r[0] != "(integer) 1" {
		t.Fatalf("enter on s1 should send its SETNX: %v", r)
	}
	if s2 := sent(ev, "s2", "SETNX"); len(s2) != 1 || s2[0].Reply != "(integer) 0" || s2[0].At != 80*time.Second {
		t.Fatalf("s2's SETNX 80 s after the crash should get (integer) 0: %+v", s2)
	}
	v := a.View()
	for _, want := range []string{"⚠ deadlock: s1 crashed between SETNX and EXPIRE", "PTTL -1 (no expiry)", "deadlock freedom BROKEN"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	// the atomic lane untouched by the learner: a1 never moved
	if len(sent(ev, "a1", "SET")) != 0 {
		t.Errorf("a1 should not have moved")
	}
}

func TestCrashGapGolden(t *testing.T) {
	// through s2's first SETNX, 40 s after the gap crash
	a := openScene(t, embedded(t), "crash-gap", 1, 80, 24, "nnnnnnnn")
	golden(t, "crash-gap-80x24", a.View())
	// the same point with s1 selected, and with the crash moved after EXPIRE
	drive(t, a, keys("3")...)
	golden(t, "crash-gap-80x24-s1", a.View())
	a = openScene(t, embedded(t), "crash-gap", 1, 80, 24, "cnnnnnnnn")
	golden(t, "crash-gap-80x24-after", a.View())
	// crash before SETNX, to the end: every lease has lapsed, s2 skips its retry
	a = openScene(t, embedded(t), "crash-gap", 1, 80, 24, "ccnnnnnnnnnn")
	golden(t, "crash-gap-80x24-before-end", a.View())
}

func TestCrashGapScreenText(t *testing.T) { checkScreenText(t, "crash-gap") }

func TestCrashGapHolderCards(t *testing.T) { checkHolderCards(t, "crash-gap") }

// TestCrashGapReadoutFollowsKeys: at the end of "before SETNX", with nothing
// selected, s2's lease ran out long ago; the readout says the key is gone,
// as the key read back does, and never that the lock has a TTL now.
func TestCrashGapReadoutFollowsKeys(t *testing.T) {
	p := Params{gapKnob: slices.Index(gapPoints, "before SETNX")}
	_, snap, ex := playStory(t, embedded(t), "crash-gap", p, 1)
	if k := snap.Keys[1]; k.Exists() {
		t.Fatalf("s2's lease should have lapsed by the end: %+v", k)
	}
	if !strings.Contains(ex.Readout, "PTTL -2") || strings.Contains(ex.Readout, "now has") {
		t.Errorf("the readout contradicts the split key read back (PTTL -2): %s", ex.Readout)
	}
	for _, name := range []string{"a2", "s2"} {
		r := readoutFor(t, "crash-gap", p, snap, name)
		if strings.Contains(r, "now has") || strings.Contains(r, "now holds") || !strings.Contains(r, "PTTL -2") {
			t.Errorf("%s's readout should say its lease has lapsed (PTTL -2): %s", name, r)
		}
	}
}

// TestCrashGapLiveNamesCommand: on a live server the scaled lease (1500 ms)
// goes out as PEXPIRE, and every readout and alarm names that command.
func TestCrashGapLiveNamesCommand(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	b := openLive(t, url)
	bare := regexp.MustCompile(`\bEXPIRE\b`)
	for _, point := range []string{"between", "after EXPIRE"} {
		t.Run(point, func(t *testing.T) {
			p := Params{gapKnob: slices.Index(gapPoints, point)}
			run, snap, ex := playStory(t, b, "crash-gap", p, 2)
			if n := len(sent(run.Events, "s1", "EXPIRE")); n != 0 {
				t.Fatalf("a 1500 ms lease cannot go out as EXPIRE, sent %d", n)
			}
			texts := []string{ex.Readout, ex.Alarm}
			for _, name := range []string{"s1", "s2"} {
				texts = append(texts, readoutFor(t, "crash-gap", p, snap, name))
			}
			s1 := texts[2]
			if !strings.Contains(s1, "PEXPIRE") {
				t.Errorf("s1's readout should name PEXPIRE: %s", s1)
			}
			for _, s := range texts {
				if bare.MatchString(s) {
					t.Errorf("names EXPIRE, but PEXPIRE is what goes out: %s", s)
				}
			}
			if err := run.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
	assertEmpty(t, b)
}
