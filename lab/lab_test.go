package lab

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"locksim/sim/simtest"
)

func TestParseCommands(t *testing.T) {
	lines, err := ParseCommands("# check, then delete\nGET {key}\n\nif token: DEL {key}\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Line{{N: 2, Args: []string{"GET", "{key}"}}, {N: 4, If: Cond{Kind: IfToken}, Args: []string{"DEL", "{key}"}}}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("got %+v, want %+v", lines, want)
	}
	for src, msg := range map[string]string{
		"if nil: SET {key} 1":        "line 1: a condition tests the previous command's reply",
		"GET {key}\nif maybe: DEL x": "line 2: unknown condition",
		"GET {key}\nif nil DEL x":    "line 2: a condition ends with a colon",
		"SET {lock} 1":               "line 1: unknown placeholder",
		"# nothing\n":                "no command",
	} {
		if _, err := ParseCommands(src); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: got %v, want %q", src, err, msg)
		}
	}
	if got := expand([]string{"PEXPIRE", "{key}", "{ttl}", "{ttl_s}", "{token}"}, "k", "t", 1500); !reflect.DeepEqual(got, []string{"PEXPIRE", "k", "1500", "2", "t"}) {
		t.Errorf("expand: %v", got)
	}
}

func TestPolicy(t *testing.T) {
	p, err := ParsePolicy([]byte(`{"ttl_ms": 10000, "faults": ["crash"], "bound": {"clients": 3}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.TTL != 10*time.Second || !reflect.DeepEqual(p.Faults, []Fault{Crash}) || p.Bound.Clients != 3 || p.Bound.Depth != DefaultBound().Depth || len(p.Properties) != 4 {
		t.Errorf("got %+v", p)
	}
	for src, msg := range map[string]string{
		`{"faults": ["meteor"]}`:                `unknown fault "meteor"`,
		`{"bound": {"clients": 5}}`:             "bound.clients must be 2 or 3",
		`{"ttl_ms": 0}`:                         "ttl_ms must be at least 1",
		`{"ttl_ms": 86400001}`:                  "ttl_ms must be at most 86400000 (a day)",
		`{"watchdog_ms": 86400001}`:             "watchdog_ms must be at most 86400000 (a day)",
		`{"ttl": 5}`:                            `unknown field "ttl"`,
		`{"properties": ["liveness"]}`:          `unknown property "liveness"`,
		`{"bound": {"depth": 99}}`:              "bound.depth must be 1 to 40",
		`{"bound": {"max_schedules": 5000000}}`: "bound.max_schedules must be 1 to 1000000",
		`{"retries": 1, "retry_delay_ms": -1}`:  "cannot be negative",
	} {
		if _, err := ParsePolicy([]byte(src)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: got %v, want %q", src, err, msg)
		}
	}
}

func TestLoadSaveRoundTrip(t *testing.T) {
	lv, _ := FindLevel("extend-recreates")
	dir := t.TempDir()
	if err := lv.Lock.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, lv.Lock) {
		t.Errorf("Load(Save(l)) differs:\n got %+v\nwant %+v", *got, lv.Lock)
	}
	// a part saved in the other language replaces the first, and an
	// absent extend removes its file
	got.Release = Part{Name: PartRelease, Lang: Commands, Src: "DEL {key}\n"}
	got.Extend = Part{}
	if err := got.Save(dir); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	if want := []string{"README.md", "acquire.lua", "lab.json", "release.redis"}; !reflect.DeepEqual(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
	if _, err := Load(filepath.Join(dir, "nosuch")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing directory: %v", err)
	}
	if _, err := Load(t.TempDir()); !errors.Is(err, ErrNoAcquire) {
		t.Errorf("an empty directory: %v", err)
	}
}

// TestSaveWritesAReadme: a lock saved into a fresh directory leaves a
// README.md that names each part, the placeholders, how to run the lab and
// -grade, and how to read a break and its story code; a README.md already
// there is the learner's, and stays as it was.
func TestSaveWritesAReadme(t *testing.T) {
	dir := t.TempDir()
	l := Starter()
	if err := l.Save(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"acquire.lua or acquire.redis", "release.lua or release.redis", "extend.lua or extend.redis", "lab.json",
		"{key}", "{token}", "{ttl}", "KEYS[1]", "ARGV[1]", "locksim -lab DIR", "locksim -grade DIR -out OUT", "✗", "story code", "locksim -story"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("README.md should say %q", want)
		}
	}
	mine := filepath.Join(t.TempDir(), "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "README.md"), []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := l.Save(mine); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(mine, "README.md")); string(data) != "my notes\n" {
		t.Errorf("a README.md of the learner's was overwritten: %q", data)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 812: "812", 4812: "4 812", 1234567: "1 234 567"} {
		if got := Thousands(n); got != want {
			t.Errorf("%d: %q", n, got)
		}
	}
	r := &Report{Bound: Bound{Clients: 3, Faults: 2, Depth: 14}, Explored: 4812}
	if got := r.Summary(); got != "all schedules of 3 clients with up to 2 faults, depth 14: 4 812 explored, 0 broke" {
		t.Errorf("summary: %q", got)
	}
}

// TestGetThenDelRelease is the walk: a release written as GET
// then DEL is broken for no-foreign-release with every fault in scope, a
// compare-and-delete script is not, and a fenced acquire keeps
// resource-safety once restarts (which lose the counter) are out of scope.
// The quick tier searches with one fault, the slow tier with the default
// bound.
func TestGetThenDelRelease(t *testing.T) {
	ctx := context.Background()
	l, err := Load("testdata/getdel")
	if err != nil {
		t.Fatal(err)
	}
	l.Policy = DefaultPolicy()
	if !simtest.Slow {
		l.Policy.Bound.Faults = 1
	}
	rep, err := Check(ctx, l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := rep.Judgement(NoForeignRelease)
	if v.Status != Fail || v.Break == nil || v.Break.Moves[len(v.Break.Moves)-1].Label != "release: DEL" {
		t.Fatalf("GET then DEL: %+v", v)
	}
	if !strings.Contains(rep.Lesson, "no lease keeps mutual-exclusion") || !strings.Contains(rep.Lesson, "not a bug in your lock") {
		t.Errorf("lesson: %q", rep.Lesson)
	}
	// a GET-then-SET acquire breaks it with no fault: the lesson says so
	gs, _ := FindLevel("get-then-set")
	gs.Lock.Policy = l.Policy
	if rep, err := Check(ctx, &gs.Lock, Options{}); err != nil || !strings.Contains(rep.Lesson, "that break is the lock's own") {
		t.Errorf("GET then SET: lesson %q (%v)", rep.Lesson, err)
	}
	fixed, _ := Load("testdata/fixes/get-then-del")
	fixed.Policy = l.Policy
	rep, err = Check(ctx, fixed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := rep.Judgement(NoForeignRelease); v.Status != Pass || !strings.Contains(v.Message, "no break within the bound") {
		t.Errorf("compare-and-delete: %+v", v)
	}
	if v, _ := rep.Judgement(MutualExclusion); v.Status != Fail {
		t.Errorf("mutual-exclusion with pauses past the TTL in scope: %+v", v)
	}

	fenced, _ := Load("testdata/fenced")
	fenced.Policy = l.Policy
	rep, _ = Check(ctx, fenced, Options{})
	if v, _ := rep.Judgement(ResourceSafety); v.Status != Fail || !strings.Contains(v.Break.String(), "restarts") {
		t.Errorf("fenced, restarts in scope: %+v", v)
	}
	fenced.Policy.Faults = []Fault{PauseHalf, PausePast, Crash, LostReply, ClockJump}
	rep, _ = Check(ctx, fenced, Options{})
	if v, _ := rep.Judgement(ResourceSafety); v.Status != Pass {
		t.Errorf("fenced, no restarts: %+v", v)
	}
}

func TestRefusedBound(t *testing.T) {
	l, _ := Load("testdata/getdel")
	l.Policy.Bound.MaxSchedules = 100
	rep, err := Check(context.Background(), l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Refused || rep.Judgements[0].Status != Error || !strings.HasPrefix(rep.Summary(), "bound refused") {
		t.Errorf("got %+v", rep)
	}
}

func TestProgress(t *testing.T) {
	l, _ := Load("testdata/getdel")
	l.Policy.Bound.Faults = 2 // enough schedules for a few reports
	l.Policy.Faults = []Fault{PausePast, Crash}
	var seen []Progress
	rep, err := Check(context.Background(), l, Options{Progress: func(p Progress) { seen = append(seen, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 2 || seen[len(seen)-1].Done != 1 || seen[len(seen)-1].Explored != rep.Explored {
		t.Fatalf("progress %+v for %s", seen, rep.Summary())
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].Done < seen[i-1].Done || seen[i].Explored <= seen[i-1].Explored {
			t.Errorf("progress went back: %+v then %+v", seen[i-1], seen[i])
		}
	}
}

func TestCancel(t *testing.T) {
	l, _ := Load("testdata/getdel")
	l.Policy.Bound.Clients = 3
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Check(ctx, l, Options{Progress: func(Progress) {
		calls++
		cancel()
	}})
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("got %v after %d progress calls", err, calls)
	}
}

// TestRareRuntimeError: a script that fails only in some schedules is an
// error reply there, as in Redis, and the report keeps the error.
func TestRareRuntimeError(t *testing.T) {
	l := Starter()
	l.Release = Part{Name: PartRelease, Lang: Lua, Src: `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return v .. ' is not ours'
`}
	l.Policy.Faults = []Fault{PausePast}
	l.Policy.Bound.Faults = 1
	rep, err := Check(context.Background(), &l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].Line != 3 || rep.Errors[0].File != "release.lua" || !rep.Grants {
		t.Errorf("errors %v, grants %v", rep.Errors, rep.Grants)
	}
}

// TestRuntimeErrorFails: a release that errors in some schedules (#v on
// the false of a missing key) fails the properties its search judged,
// with the error, in Redis 7's words, and the schedule that met it.
func TestRuntimeErrorFails(t *testing.T) {
	l := Starter()
	l.Release = Part{Name: PartRelease, Lang: Lua, Src: `local v = redis.call('GET', KEYS[1])
if #v > 0 and v == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`}
	l.Policy.Faults = []Fault{PausePast}
	l.Policy.Properties = []Property{NoForeignRelease}
	l.Policy.Bound.Faults = 1
	rep, err := Check(context.Background(), &l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := rep.Judgement(NoForeignRelease)
	want := "a script raised an error: release.lua:2: attempt to get length of local 'v' (a boolean value) (in the schedule A acquire, "
	if v.Status != Fail || !strings.HasPrefix(v.Message, want) || !strings.Contains(v.Message, "pauses until just past the TTL") {
		t.Errorf("got %s %q", v.Status, v.Message)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].Schedule[len(rep.Errors[0].Schedule)-1].Label != "release" {
		t.Errorf("errors %+v", rep.Errors)
	}
}

// TestBudgetStopNamesItsSchedule: an acquire that loops only when the
// key is taken passes the simplest run, then stops at its budget in the
// search's first schedule where B asks while A holds; the error names
// that schedule, so it can be played again (-grade's message is this
// error's line).
func TestBudgetStopNamesItsSchedule(t *testing.T) {
	l := &Lock{
		Acquire: Part{Name: PartAcquire, Lang: Lua, Src: "if redis.call('GET', KEYS[1]) then\n  while true do end\nend\nreturn redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n"},
		Release: Part{Name: PartRelease, Lang: Lua, Src: "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end\nreturn 0\n"},
		Extend:  Part{Name: PartExtend},
		Policy:  DefaultPolicy(),
	}
	l.Policy.Bound.Faults = 0
	if err := l.Compile(); err != nil {
		t.Fatal(err)
	}
	_, err := Check(context.Background(), l, Options{})
	var se *ScriptError
	if !errors.As(err, &se) || !se.OverBudget {
		t.Fatalf("the search should stop at the acquire's budget, got %v", err)
	}
	if len(se.Schedule) == 0 || se.Schedule[len(se.Schedule)-1].String() != "B acquire" ||
		!strings.Contains(se.Error(), "acquire.lua:2: stopped: the script ran past its budget") ||
		!strings.Contains(se.Error(), "(in the schedule A acquire, ") || !strings.HasSuffix(se.Error(), ", B acquire)") {
		t.Errorf("the stop should name its schedule, ending with B's acquire: %q, %v", se.Error(), se.Schedule)
	}
}
