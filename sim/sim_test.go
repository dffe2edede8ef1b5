package sim_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"locksim/sim"
	"locksim/sim/simtest"
)

func embedded(t testing.TB) *sim.Backend { return simtest.Embedded(t) }

func live(t testing.TB) *sim.Backend { return liveAt(t, 20) }

// liveAt is a live backend at the given scale: a story of minutes runs in
// a second at ÷100, its shortest step still several wire milliseconds.
func liveAt(t testing.TB, scale int) *sim.Backend {
	t.Helper()
	url := simtest.StartRedis(t)
	// a command timeout far past the default 400 ms: on a loaded machine a
	// reply may take that long, and a story's reply must not become a
	// client timeout (simtest.LiveTimeout)
	b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(scale))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	return b
}

// acquire is the course's one-command acquire.
var acquire = sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
	x.Do("SET", x.Key("resource:lock"), x.Actor().Token, "NX", "PX", x.TTL(30*time.Second))
}}

var release = sim.Step{Label: "release", Run: func(x *sim.Exec) {
	x.Eval(sim.ReleaseLua, []string{x.Key("resource:lock")}, x.Actor().Token)
}}

var setnx = sim.Step{Label: "setnx", Run: func(x *sim.Exec) { x.Do("SETNX", x.Key("resource:lock"), x.Actor().Token) }}
var expire = sim.Step{Label: "expire", Run: func(x *sim.Exec) { x.Do("EXPIRE", x.Key("resource:lock"), x.TTL(30*time.Second)/1000) }}
var pttl = sim.Step{Label: "pttl", Run: func(x *sim.Exec) { x.Do("PTTL", x.Key("resource:lock")) }}

// twenty is a 20-move schedule: acquire, lapse, re-acquire, release.
func twenty() sim.Script {
	prog := []sim.Step{acquire, pttl, release, acquire, pttl, release, acquire, pttl}
	var moves []sim.Move
	for i := range 4 {
		moves = append(moves, sim.StepOf("A"), sim.StepOf("B"), sim.Advance(time.Duration(10+i*7)*time.Second), sim.StepOf("A"), sim.StepOf("B"))
	}
	return sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: prog}, {Name: "B", Program: prog}},
		Keys:   []string{"resource:lock"}, Watch: []string{"resource:lock"},
		Moves: moves,
	}
}

func TestReplayIsIdentical(t *testing.T) {
	ctx := context.Background()
	r := sim.NewRun(embedded(t), twenty(), 42)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(ctx, 20); err != nil {
		t.Fatal(err)
	}
	first := r.Snapshot(ctx)
	for _, k := range []int{19, 18, 17} {
		if err := r.Seek(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	mid := r.Snapshot(ctx)
	if mid.Pos != 17 {
		t.Fatalf("after three steps back pos = %d", mid.Pos)
	}
	for _, k := range []int{18, 19, 20} {
		if err := r.Seek(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	again := r.Snapshot(ctx)
	if !reflect.DeepEqual(first.Events, again.Events) || !reflect.DeepEqual(first.Keys, again.Keys) || first.Now != again.Now {
		t.Fatalf("replay differs:\n%v\n%v", first.Events, again.Events)
	}
	if !reflect.DeepEqual(first.Events[:len(mid.Events)], mid.Events) {
		t.Fatal("stepping back did not land on a prefix of the same events")
	}
	// the story must really have exercised expiry: some acquire was refused, some succeeded after a lapse
	var oks, nils int
	for _, e := range first.Events {
		switch {
		case e.Step == "acquire" && e.Reply == "OK":
			oks++
		case e.Step == "acquire" && e.Reply == "(nil)":
			nils++
		}
	}
	if oks < 2 || nils < 1 {
		t.Fatalf("expected contention and re-acquisition, got %d OK, %d nil", oks, nils)
	}
}

func TestVirtualClockExpires(t *testing.T) {
	ctx := context.Background()
	script := sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{acquire, pttl, pttl, pttl}}, {Name: "B", Program: []sim.Step{acquire, acquire}}},
		Keys:   []string{"resource:lock"},
		Moves: []sim.Move{sim.StepOf("A"), sim.Advance(29999 * time.Millisecond), sim.StepOf("A"), sim.Advance(time.Millisecond),
			sim.StepOf("A"), sim.StepOf("B"), sim.Advance(time.Millisecond), sim.StepOf("A"), sim.StepOf("B")},
	}
	r := sim.NewRun(embedded(t), script, 1)
	defer r.Close()
	r.Reset(ctx)
	r.Seek(ctx, len(script.Moves))
	var got []string
	for _, e := range r.Events {
		if e.Kind == sim.Command {
			got = append(got, fmt.Sprintf("%s %s", sim.FormatDuration(e.At), e.Reply))
		}
	}
	// Redis 7 keeps the key through the millisecond its TTL ends: PTTL 0
	// and SET NX refused at 30.000s, gone one millisecond later.
	want := []string{"0.000s OK", "29.999s (integer) 1", "30.000s (integer) 0", "30.000s (nil)", "30.001s (integer) -2", "30.001s OK"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// crashGap: SETNX, crash before EXPIRE, wait far past the TTL, B's SETNX.
func crashGap(t *testing.T, b *sim.Backend) {
	ctx := context.Background()
	script := sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{setnx, expire}}, {Name: "B", Program: []sim.Step{setnx, pttl}}},
		Keys:   []string{"resource:lock"}, Watch: []string{"resource:lock"},
		Moves: []sim.Move{sim.StepOf("A"), sim.Crash("A"), sim.StepOf("A"), sim.Advance(40 * time.Second), sim.StepOf("B"), sim.StepOf("B")},
	}
	r := sim.NewRun(b, script, 1)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(ctx, len(script.Moves)); err != nil {
		t.Fatal(err)
	}
	var replies []string
	for _, e := range r.Events {
		if e.Kind == sim.Command {
			replies = append(replies, e.Actor+" "+e.Args[0]+" "+e.Reply)
		}
	}
	want := []string{"A SETNX (integer) 1", "B SETNX (integer) 0", "B PTTL (integer) -1"}
	if !reflect.DeepEqual(replies, want) {
		t.Fatalf("got %v, want %v", replies, want)
	}
	s := r.Snapshot(ctx)
	if s.Keys[0].PTTL != -1 || s.Keys[0].Value != r.Actors[0].Token {
		t.Fatalf("inspector read %+v", s.Keys[0])
	}
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := b.Admin().Exists(ctx, b.Key("resource:lock")).Result(); n != 0 {
		t.Fatal("Reset left the lock key behind")
	}
}

func TestCrashGapEmbedded(t *testing.T) { crashGap(t, embedded(t)) }
func TestCrashGapLive(t *testing.T)     { t.Parallel(); crashGap(t, live(t)) }

func TestLiveScalesAndPrefixes(t *testing.T) {
	b := live(t)
	ctx := context.Background()
	script := sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{acquire}}, {Name: "B", Program: []sim.Step{acquire}}},
		Moves:  []sim.Move{sim.StepOf("A"), sim.Advance(31 * time.Second), sim.StepOf("B")},
	}
	r := sim.NewRun(b, script, 1)
	defer r.Close()
	r.Reset(ctx)
	if err := r.Seek(ctx, 3); err != nil {
		t.Fatal(err)
	}
	a, bb := r.Events[0], r.Events[2]
	if a.Args[1] != b.Prefix+"resource:lock" || a.Args[5] != "1500" {
		t.Fatalf("sent %v; want the prefixed key and PX 1500 (30 s / 20)", a.Args)
	}
	if a.Reply != "OK" || bb.Reply != "OK" {
		t.Fatalf("after a real wait past the scaled lease B should acquire: %s, %s", a.Reply, bb.Reply)
	}
	if bb.At < 1550*time.Millisecond {
		t.Fatalf("B acquired at %v, before the real scaled wait of 1.55 s", bb.At)
	}
	if err := b.Cleanup(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := b.Admin().DBSize(ctx).Result(); n != 0 {
		t.Fatalf("Cleanup left %d keys", n)
	}
}

func TestFormatReply(t *testing.T) {
	cases := []struct {
		val  any
		err  error
		want string
	}{
		{"OK", nil, "OK"},
		{nil, redis.Nil, "(nil)"},
		{int64(-1), nil, "(integer) -1"},
		{"tok", nil, `"tok"`},
		{[]any{"1767258000", "0"}, nil, `1) "1767258000" 2) "0"`},
		{[]any{}, nil, "(empty array)"},
		{nil, serverErr("BUSY Redis is busy running a script."), "(error) BUSY Redis is busy running a script."},
		// no reply is not an error reply: redis-cli would print no "(error)"
		{nil, errors.New("boom"), "no reply: boom"},
	}
	for _, c := range cases {
		if got := sim.FormatReply(c.val, c.err); got != c.want {
			t.Errorf("FormatReply(%v, %v) = %q, want %q", c.val, c.err, got, c.want)
		}
	}
}

// BenchmarkReplay20 measures stepping back across a 20-move schedule on the
// embedded server: Reset plus replaying 19 moves.
func BenchmarkReplay20(b *testing.B) {
	ctx := context.Background()
	r := sim.NewRun(embedded(b), twenty(), 42)
	defer r.Close()
	r.Reset(ctx)
	r.Seek(ctx, 20)
	for b.Loop() {
		r.Seek(ctx, 19)
		r.Seek(ctx, 20)
	}
}

// TestInsertKeepsTheStory: a crash injected before A's EXPIRE plays out in
// the rest of the schedule, and stepping back over it replays it.
func TestInsertKeepsTheStory(t *testing.T) {
	ctx := context.Background()
	script := sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{setnx, expire}}, {Name: "B", Program: []sim.Step{setnx}}},
		Keys:   []string{"resource:lock"}, Watch: []string{"resource:lock"},
		Moves: []sim.Move{sim.StepOf("A"), sim.StepOf("A"), sim.Advance(40 * time.Second), sim.StepOf("B")},
	}
	r := sim.NewRun(embedded(t), script, 1)
	defer r.Close()
	r.Reset(ctx)
	r.Seek(ctx, 1)
	if err := r.Insert(ctx, sim.Crash("A")); err != nil {
		t.Fatal(err)
	}
	if len(r.Moves()) != 5 || r.Pos() != 2 {
		t.Fatalf("schedule %d moves at %d, want 5 at 2", len(r.Moves()), r.Pos())
	}
	r.Seek(ctx, 5)
	if got := setnxOf(r.Events, "B"); got != "(integer) 0" {
		t.Fatalf("after the injected crash B's SETNX should fail forever, got %s", got)
	}
	r.Seek(ctx, 1)
	r.Seek(ctx, 5)
	if got := setnxOf(r.Events, "B"); got != "(integer) 0" {
		t.Fatalf("replay over the injected crash gave %s", got)
	}
}

// setnxOf is the reply to actor's last SETNX, or "" if it sent none.
func setnxOf(events []sim.Event, actor string) string {
	reply := ""
	for _, e := range events {
		if e.Kind == sim.Command && e.Actor == actor && len(e.Args) > 0 && e.Args[0] == "SETNX" {
			reply = e.Reply
		}
	}
	return reply
}

func TestServerVersion(t *testing.T) {
	for _, c := range []struct {
		info, name, version string
		ok                  bool
	}{
		{"# Server\r\nredis_version:7.0.15\r\n", "Redis", "7.0.15", true},
		{"# Server\r\nredis_version:6.0.16\r\n", "Redis", "6.0.16", false},
		{"# Server\r\nredis_version:7.2.4\r\nvalkey_version:8.0.1\r\n", "Valkey", "8.0.1", true},
	} {
		name, version, ok := sim.ServerVersion(c.info)
		if !ok || name != c.name || version != c.version || sim.AtLeast(version, 6, 2) != c.ok {
			t.Errorf("%q: %s %s %v", c.info, name, version, sim.AtLeast(version, 6, 2))
		}
	}
}

// BenchmarkCommand compares one command on the embedded server with the
// release script that does the same GET and DEL, all on a missing key (so
// the script's DEL is not reached, and the GET+DEL pair still sends both):
// miniredis starts a new Lua state for every EVAL (and EVALSHA), which
// costs more than the round trips. On a live server the script is the
// cheaper of the two (one trip).
func BenchmarkCommand(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		args []any
	}{
		{"SET", []any{"SET", "k", "v"}},
		{"GET+DEL", nil},
		{"EVAL-release", []any{"EVAL", sim.ReleaseLua.Src, 1, "k", "v"}},
		{"EVALSHA-release", []any{"EVALSHA", "", 1, "k", "v"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			be := embedded(b)
			conn := be.NewConn()
			defer conn.Close()
			if c.name == "EVALSHA-release" {
				sha, err := conn.ScriptLoad(ctx, sim.ReleaseLua.Src).Result()
				if err != nil {
					b.Fatal(err)
				}
				c.args[1] = sha
			}
			b.ReportAllocs()
			for b.Loop() {
				if c.args == nil {
					conn.Get(ctx, "k")
					conn.Del(ctx, "k")
					continue
				}
				if err := conn.Do(ctx, c.args...).Err(); err != nil && err != redis.Nil {
					b.Fatal(err)
				}
			}
		})
	}
}
