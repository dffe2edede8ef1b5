package lab

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"locksim/sim"
)

func newHost(t *testing.T) (*Server, *Host) {
	t.Helper()
	srv, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h := NewHost(srv, DefaultBudget())
	t.Cleanup(h.Close)
	return srv, h
}

func eval(t *testing.T, h *Host, src string, keys, argv []string) (any, error) {
	t.Helper()
	s, err := Compile(Part{Name: PartAcquire, Lang: Lua, Src: src})
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	return h.Eval(context.Background(), s, keys, argv)
}

// TestHostEvalSemantics checks the host's replies against what Redis's
// EVAL sends for the same scripts, as redis-cli prints them.
func TestHostEvalSemantics(t *testing.T) {
	_, h := newHost(t)
	for _, c := range evalCases {
		v, err := eval(t, h, c.src, []string{"resource:lock"}, []string{"t1", "30000"})
		var se *ScriptError
		if errors.As(err, &se) {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if got := sim.FormatReply(v, err); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.src, got, c.want)
		}
	}
}

// evalCases are scripts run in order on one server, with the replies
// redis-cli shows for them on Redis 7 (checked against redis-server by
// TestHostAgreesWithRedis in the slow tier).
var evalCases = []struct{ src, want string }{
	{`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`, "OK"},
	{`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`, "(nil)"}, // held now
	{`return redis.call('GET', KEYS[1])`, `"t1"`},
	{`return redis.call('GET', 'nosuch')`, "(nil)"},               // nil bulk → false → nil
	{`return redis.call('PTTL', KEYS[1]) > 29000`, "(integer) 1"}, // a real server's clock runs on: no exact PTTL
	{`return 3.9`, "(integer) 3"},                                 // numbers truncate to integers
	{`return true`, "(integer) 1"},                                // true → 1
	{`return false`, "(nil)"},                                     // false → nil
	{`return {1, 'a', nil, 2}`, `1) (integer) 1 2) "a"`},          // an array stops at the first nil
	{`return {1, false}`, `1) (integer) 1 2) (nil)`},              // false in an array is a nil
	{`return redis.status_reply('FINE')`, `"FINE"`},
	{`return redis.error_reply('MINE oops')`, "(error) MINE oops"},
	{`return redis.pcall('INCR', KEYS[1])['err']`, `"ERR value is not an integer or out of range"`},
	{`return type(redis.call('SET', 'x', '1'))`, `"table"`}, // a status reply is a table with ok
	{`return redis.call('SET', 'x', '1')['ok']`, `OK`},
	{`return #KEYS + #ARGV`, "(integer) 3"},
}

func TestHostErrorsCarryTheLine(t *testing.T) {
	_, h := newHost(t)
	for _, c := range []struct {
		src    string
		line   int
		budget bool
		msg    string
	}{
		{"local x = 1\nwhile true do end\n", 0, true, "budget"},
		{"local n = 0\nlocal t = {}\nwhile true do n = n + 1 end", 0, true, "budget"},
		{"local x = 1\nreturn redis.call('INCR', KEYS[1])", 2, false, "not an integer"}, // after SET below
		{"\n\nreturn nosuch.field", 3, false, "nonexistent global variable 'nosuch'"},
		{"x = 1", 1, false, "Attempt to modify a readonly table"},
		{"return string.rep('x', 1e10)", 0, true, "made more than 64 MB"},
	} {
		_, _ = eval(t, h, `return redis.call('SET', KEYS[1], 'abc')`, []string{"k"}, nil)
		_, err := eval(t, h, c.src, []string{"k"}, nil)
		var se *ScriptError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a script error", c.src, err)
			continue
		}
		if se.OverBudget != c.budget || (!c.budget && se.Line != c.line) || !strings.Contains(se.Error(), c.msg) {
			t.Errorf("%q: got %+v (%v), want line %d, budget %v, %q", c.src, se, se, c.line, c.budget, c.msg)
		}
	}
	_, err := Compile(Part{Name: PartRelease, Lang: Lua, Src: "if x then\nreturn 1\n"})
	var se *ScriptError
	if !errors.As(err, &se) || !se.Syntax || se.File != "release.lua" || se.Line == 0 {
		t.Errorf("a syntax error: got %#v", err)
	}
}

func TestServerSaveRestore(t *testing.T) {
	srv, _ := newHost(t)
	mustDo := func(args ...string) any {
		v, err := srv.Do(args...)
		if err != nil && !errors.Is(err, redis.Nil) {
			t.Fatalf("%v: %v", args, err)
		}
		return v
	}
	mustDo("SET", "k", "v", "PX", "1000")
	mustDo("HSET", "h", "f", "1")
	mustDo("RPUSH", "l", "a", "b")
	mustDo("SADD", "s", "x")
	mustDo("ZADD", "z", "2", "m")
	mustDo("SET", "forever", "1")
	st, err := srv.Save()
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(1500 * 1e6)
	mustDo("DEL", "h", "l", "s", "z", "forever")
	if v := mustDo("GET", "k"); v != nil {
		t.Fatalf("k outlived its TTL: %v", v)
	}
	srv.Restore(st)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"PTTL", "k"}, "(integer) 1000"},
		{[]string{"HGET", "h", "f"}, `"1"`},
		{[]string{"LRANGE", "l", "0", "-1"}, `1) "a" 2) "b"`},
		{[]string{"SISMEMBER", "s", "x"}, "(integer) 1"},
		{[]string{"ZSCORE", "z", "m"}, `"2"`},
		{[]string{"PTTL", "forever"}, "(integer) -1"},
	} {
		v, err := srv.Do(c.args...)
		if got := sim.FormatReply(v, err); got != c.want {
			t.Errorf("%v: got %s, want %s", c.args, got, c.want)
		}
	}
	// Redis keeps a key through the millisecond its TTL ends
	srv.Advance(1000 * 1e6)
	if v, err := srv.Do("PTTL", "k"); sim.FormatReply(v, err) != "(integer) 0" {
		t.Errorf("at its TTL's end: PTTL %s, want 0", sim.FormatReply(v, err))
	}
	srv.Advance(1e6)
	if v, err := srv.Do("EXISTS", "k"); sim.FormatReply(v, err) != "(integer) 0" {
		t.Errorf("1 ms after its TTL's end: EXISTS %s, want 0", sim.FormatReply(v, err))
	}
}

// TestHostGlobalsAreReadonly: one Lua state serves every run of a search,
// so what a script writes to the globals, a library or redis must not
// reach the next run; Redis 7 refuses those writes, and so does the host.
func TestHostGlobalsAreReadonly(t *testing.T) {
	_, h := newHost(t)
	for _, src := range []string{
		`_G.n = (_G.n or 0) + 1 return _G.n`,
		`redis.call = function() return 1 end return 1`,
		`string.rep = nil return 1`,
		`rawset(_G, 'n', 1) return 1`,
		`rawset(math, 'pi', 3) return 1`,
		`setmetatable(_G, nil) return 1`,
		`getmetatable('').__index.upper = nil return 1`,
		`n = 1 return n`,
	} {
		for run := 1; run <= 2; run++ {
			v, err := eval(t, h, src, []string{"resource:lock"}, []string{"t1", "30000"})
			var se *ScriptError
			if !errors.As(err, &se) {
				t.Errorf("%s (run %d): %v, %v; want a script error", src, run, v, err)
			}
		}
	}
	// and nothing of them stayed: the next script sees the libraries whole
	v, err := eval(t, h, `return {tostring(pcall(function() return _G.n end)), redis.call('SET', 'k', 'v')['ok'], string.rep('a', 2), ('x'):upper(), rawget(_G, 'n') == nil}`, []string{"resource:lock"}, nil)
	if got := sim.FormatReply(v, err); got != `1) "false" 2) "OK" 3) "aa" 4) "X" 5) (integer) 1` {
		t.Fatalf("after the writes were refused: %s", got)
	}
	// a table a script makes itself is its own to change
	v, err = eval(t, h, `local t = {} t.a = 1 rawset(t, 'b', 2) return t.a + t.b`, []string{"resource:lock"}, nil)
	if got := sim.FormatReply(v, err); got != "(integer) 3" {
		t.Fatalf("a script's own table: %s", got)
	}
}

// TestHostStopsAStringThatDoubles: the instruction budget cannot bound a
// string that doubles each instruction; the host stops the script on what
// it allocates, long before the gigabytes it asks for.
func TestHostStopsAStringThatDoubles(t *testing.T) {
	_, h := newHost(t)
	_, err := eval(t, h, "local s = 'x'\nfor i = 1, 40 do s = s .. s end\nreturn #s", []string{"resource:lock"}, nil)
	var se *ScriptError
	if !errors.As(err, &se) || !se.OverBudget || !strings.Contains(se.Msg, "made more than") {
		t.Fatalf("a string doubled forty times: %v", err)
	}
	// a script that builds a modest string runs
	v, err := eval(t, h, "local s = 'x'\nfor i = 1, 16 do s = s .. s end\nreturn #s", []string{"resource:lock"}, nil)
	if got := sim.FormatReply(v, err); got != "(integer) 65536" {
		t.Fatalf("a 64 kB string: %s", got)
	}
}

// dialectCases are scripts whose replies show Redis 7's Lua where lock
// scripts meet it: undefined globals, the error reply's envelope, the
// errors scripts meet most, redis.sha1hex, error_reply, status_reply,
// log, bit, and the libraries the lab leaves out. KEYS[1] holds "abc"
// before each; <sha> stands for the script's SHA1. The quick tier holds
// the host to them; the slow tier, redis-server 7 too
// (TestDialectAgreesWithRedis), but for the cases marked labOnly.
var dialectCases = append([]dialectCase{
	{src: `return x`, want: `(error) ERR user_script:1: Script attempted to access nonexistent global variable 'x' script: <sha>, on @user_script:1.`},
	{src: "local a = 1\nreturn nosuch.field", want: `(error) ERR user_script:2: Script attempted to access nonexistent global variable 'nosuch' script: <sha>, on @user_script:2.`},
	{src: `x = 1`, want: `(error) ERR user_script:1: Attempt to modify a readonly table script: <sha>, on @user_script:1.`},
	{src: `return rawget(_G, 'x') == nil`, want: `(integer) 1`},
	{src: "local n = 1\nreturn redis.call('INCR', KEYS[1])", want: `(error) ERR value is not an integer or out of range script: <sha>, on @user_script:2.`},
	{src: `return redis.call('SET', KEYS[1], {})`, want: `(error) ERR Lua redis lib command arguments must be strings or integers script: <sha>, on @user_script:1.`},
	{src: `return redis.call('NOSUCH')`, want: `(error) ERR Unknown Redis command called from script script: <sha>, on @user_script:1.`},
	{src: `return redis.call('GET', KEYS[1], 'extra')`, want: `(error) ERR Wrong number of args calling Redis command from script script: <sha>, on @user_script:1.`},
	{src: `return redis.call()`, want: `(error) ERR Please specify at least one argument for this redis lib call script: <sha>, on @user_script:1.`},
	{src: `return redis.pcall('NOSUCH')`, want: `(error) ERR Unknown Redis command called from script`},
	{src: `return redis.pcall('INCR', KEYS[1])`, want: `(error) ERR value is not an integer or out of range`},
	{src: "local v = redis.call('GET', 'nosuch')\nreturn #v", want: `(error) ERR user_script:2: attempt to get length of local 'v' (a boolean value) script: <sha>, on @user_script:2.`},
	{src: `return #false`, want: `(error) ERR user_script:1: attempt to get length of a boolean value script: <sha>, on @user_script:1.`},
	{src: `local t = {} return #t.x`, want: `(error) ERR user_script:1: attempt to get length of field 'x' (a nil value) script: <sha>, on @user_script:1.`},
	{src: `return 1 .. {}`, want: `(error) ERR user_script:1: attempt to concatenate a table value script: <sha>, on @user_script:1.`},
	{src: `error('boom')`, want: `(error) ERR user_script:1: boom script: <sha>, on @user_script:1.`},
	{src: `error('boom', 0)`, want: `(error) ERR boom script: <sha>, on @user_script:1.`},
	{src: `error({err='MY boom'})`, want: `(error) MY boom script: <sha>, on @user_script:1.`},
	{src: `return redis.error_reply('oops')`, want: `(error) ERR oops`},
	{src: `return redis.error_reply('-oops')`, want: `(error) ERR oops`},
	{src: `return redis.error_reply('MINE oops')`, want: `(error) MINE oops`},
	{src: `return redis.status_reply('FINE')`, want: `"FINE"`},
	{src: `redis.log(redis.LOG_WARNING, 'hi') return 1`, want: `(integer) 1`},
	{src: `return redis.sha1hex('abc')`, want: `"a9993e364706816aba3e25717850c26c9cd0d89d"`},
	{src: `return redis.sha1hex(12)`, want: `"7b52009b64fd0a2a49e6d8a939753077792b0554"`},
	{src: `return redis.sha1hex()`, want: `(error) ERR wrong number of arguments script: <sha>, on @user_script:1.`},
	{src: `return {bit.band(12, 10), bit.bor(12, 10), bit.bxor(5, 3), bit.bnot(0), bit.lshift(1, 31), bit.rshift(-8, 1), bit.arshift(-8, 1)}`,
		want: `1) (integer) 8 2) (integer) 14 3) (integer) 6 4) (integer) -1 5) (integer) -2147483648 6) (integer) 2147483644 7) (integer) -4`},
	{src: `return {bit.tobit(4294967295), bit.tobit(2^31), bit.rol(1, 33), bit.ror(1, 1), bit.bswap(0x12345678), bit.band(3.7, 1)}`,
		want: `1) (integer) -1 2) (integer) -2147483648 3) (integer) 2 4) (integer) -2147483648 5) (integer) 2018915346 6) (integer) 0`},
	{src: `return {bit.tohex(255), bit.tohex(255, 2), bit.tohex(-1, -4)}`, want: `1) "000000ff" 2) "ff" 3) "FFFF"`},
	{src: `return {type(cjson), type(cjson.encode), type(cmsgpack.pack), type(struct.pack)}`, want: `1) "table" 2) "function" 3) "function" 4) "function"`},
	{src: `return cjson.encode({1})`, labOnly: true,
		want: `(error) ERR user_script:1: the lab does not provide cjson; Redis 7 does script: <sha>, on @user_script:1.`},
	{src: `return redis.REDIS_VERSION_NUM >= 0x070000`, want: `(integer) 1`},
}, redis7Cases...)

// dialectCase is a script and the reply it gets, as redis-cli prints it.
type dialectCase struct {
	src, want string
	labOnly   bool // the lab's own words: Redis 7 runs cjson
	// crashes: redis-server 7.0.15 dies of it (SIGSEGV), so the slow tier
	// sends it to a server of its own and wants that server gone; want is
	// the lab's answer
	crashes bool
}

// dialectReply is what the host answers src, as redis-cli prints it.
func dialectReply(t *testing.T, h *Host, src string) string {
	t.Helper()
	v, err := eval(t, h, src, []string{"resource:lock"}, nil)
	var se *ScriptError
	if errors.As(err, &se) {
		err = ErrorReply(se.Reply(""))
	}
	return sim.FormatReply(v, err)
}

func TestHostDialect(t *testing.T) {
	srv, h := newHost(t)
	for _, c := range dialectCases {
		if _, err := srv.Do("SET", "resource:lock", "abc"); err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll(c.want, "<sha>", shaOf(c.src))
		if got := dialectReply(t, h, c.src); got != want {
			t.Errorf("%s\n got %s\nwant %s", c.src, got, want)
		}
	}
}
