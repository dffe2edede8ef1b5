package lab

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"locksim/sim"
	"locksim/sim/simtest"
)

// overBudget runs src in a fresh host and reports the script error that
// stopped it, failing the test when the run ends any other way.
func overBudget(t *testing.T, h *Host, src, want string) *ScriptError {
	t.Helper()
	v, err := eval(t, h, src, []string{LockKey}, []string{"t1", "30000"})
	var se *ScriptError
	if !errors.As(err, &se) || !se.OverBudget || !strings.Contains(se.Msg, want) {
		t.Errorf("%s\n got %v, %v\nwant a run stopped over its budget: %q", src, v, err, want)
	}
	return se
}

// TestPatternBacktrackingIsBudgeted: each pattern function, given a
// pattern that backtracks for minutes on gopher-lua's own matcher, stops
// at the run's instruction budget (or, on a slow machine, its deadline),
// and the host runs the next script. The host's budget is a tenth of the
// default's instructions: each attack stops at it ten times sooner (under
// -race, a tenth of a second each at the default), the same stop.
func TestPatternBacktrackingIsBudgeted(t *testing.T) {
	srv, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := NewHost(srv, Budget{Steps: DefaultBudget().Steps / 10, Deadline: DefaultBudget().Deadline})
	defer h.Close()
	subject := "string.rep('a', 200)"
	slow := "'.-.-.-.-b'"
	for _, src := range []string{
		"return string.find(" + subject + ", " + slow + ")",
		"return (" + subject + "):find(" + slow + ")",
		"return string.match(" + subject + ", " + slow + ")",
		"for m in string.gmatch(" + subject + ", " + slow + ") do end return 1",
		"return string.gsub(" + subject + ", " + slow + ", 'x')",
		"return string.find(" + subject + ", '.-.-.-.-b', 1, false)",
	} {
		overBudget(t, h, src, "stopped: the script ran past its")
	}
	v, err := eval(t, h, "return {string.find('token-A', 'n%-(%u)')}", nil, nil)
	if got := sim.FormatReply(v, err); got != `1) (integer) 5 2) (integer) 7 3) "A"` {
		t.Errorf("after the attacks, a plain find: %s", got)
	}
}

// TestPatternTooDeep: a repetition over a long string recurses once per
// character in the matcher; past pattern.MaxDepth it is an error, not a
// goroutine stack of gigabytes.
func TestPatternTooDeep(t *testing.T) {
	srv, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// a deadline no machine reaches: the depth is what must stop it
	h := NewHost(srv, Budget{Steps: DefaultBudget().Steps, Deadline: time.Hour})
	defer h.Close()
	_, err = eval(t, h, "return string.find(string.rep('a', 25000), '.*b')", nil, nil)
	var se *ScriptError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "pattern too complex") {
		t.Fatalf("a 25 000-deep match: %v", err)
	}
}

// TestPatternCancelled: a search that is let go of (its context
// cancelled) ends inside a pattern function too, whatever the budget.
func TestPatternCancelled(t *testing.T) {
	srv, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := NewHost(srv, Budget{Steps: 1 << 50, Deadline: time.Hour})
	defer h.Close()
	s, err := Compile(Part{Name: PartAcquire, Lang: Lua, Src: "return string.find(string.rep('a', 200), '.-.-.-.-.-.-b')"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Eval(ctx, s, nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled run: %v", err)
	}
}

// TestPatternsAgreeWithGopherLua: the lab's pattern functions give what
// gopher-lua's own give, on the patterns a lock or a learner might write.
func TestPatternsAgreeWithGopherLua(t *testing.T) {
	_, h := newHost(t)
	ref := lua.NewState()
	defer ref.Close()
	for _, expr := range []string{
		`string.find('token-A', '-')`,
		`string.find('token-A', 'n-', 1, true)`,
		`string.find('token-A', 'k(.)n')`,
		`string.find('a.b.c', '.', 3, true)`,
		`string.find('hello', 'l+', -3)`,
		`string.find('hello', '^h()e')`,
		`string.find('hello', 'x')`,
		`string.match('key:42:rest', '(%a+):(%d+)')`,
		`string.match('  trim  ', '^%s*(.-)%s*$')`,
		`string.match('[a[b]c]', '%b[]')`,
		`string.match('abcabc', '(abc)%1')`,
		`string.match('hello', 'l', -2)`,
		`string.gsub('hello world', 'o', '0')`,
		`string.gsub('hello world', '(%w+)', '<%1>')`,
		`string.gsub('hello world', '%w+', '%0 %0', 1)`,
		`string.gsub('abc', '', '-')`,
		`string.gsub('abc', '%w', {a = 'A', b = false})`,
		`string.gsub('abc', '%w', function(c) if c == 'b' then return nil end return c:upper() end)`,
		`string.gsub('50% off', '%%', ' percent')`,
		`string.gsub('x', 'x', '%z')`,
		`string.gsub('hello', '^h', 'H')`,
		`(function() local t = {} for k, v in string.gmatch('a=1, b=2', '(%w+)=(%w+)') do t[#t+1] = k .. v end return table.concat(t, ';') end)()`,
		`(function() local n = 0 for w in string.gmatch('one two  three', '%a+') do n = n + #w end return n end)()`,
		`(function() local t = {} for w in string.gmatch('abc', '') do t[#t+1] = '.' end return #t end)()`,
		`(function() local t = {} for w in string.gmatch('aaa', '^a') do t[#t+1] = w end return #t end)()`,
		`'a' .. 1 .. 'b' .. 2.5`,
		`(function() local t = setmetatable({}, {__concat = function(a, b) return 'mt' end}) return ('x' .. t) .. ('y' .. 'z' .. t) end)()`,
		`(pcall(function() return 'a' .. nil end))`,
		`string.format('%5.2f|%-4d|%s|%q', 3.14159, 42, 'x', 'y')`,
		`table.concat({1, 2, 'three'}, ', ', 2)`,
		`select('#', unpack({1, 2, 3}))`,
	} {
		src := "return {" + expr + "}"
		want := refEval(t, ref, src)
		v, err := eval(t, h, "local r = {"+expr+"} local out = {} for i = 1, 8 do out[i] = tostring(r[i]) end return table.concat(out, '|')", nil, nil)
		if got := sim.FormatReply(v, err); got != want {
			t.Errorf("%s\n lab:         %s\n gopher-lua:  %s", expr, got, want)
		}
	}
}

// refEval runs src's returned table's first eight values through tostring
// in a plain gopher-lua state, as the lab's side does.
func refEval(t *testing.T, L *lua.LState, src string) string {
	t.Helper()
	if err := L.DoString("local r = (function() " + src + " end)() local out = {} for i = 1, 8 do out[i] = tostring(r[i]) end return table.concat(out, '|')"); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	v := L.Get(-1)
	L.Pop(1)
	return fmt.Sprintf("%q", v.String())
}

// newHostLongDeadline is newHost with the default instruction budget and
// a deadline of 30 s, which no loaded machine reaches in 100 000
// instructions: a test that wants the budget's stop or the byte cap's
// gets it under any load (at load 18 under nice, the default second of
// wall time ended TestMemoryAttacks' endless loops first), and a budget
// that no longer stops a loop fails it in 30 s, naming the deadline.
func newHostLongDeadline(t *testing.T) (*Server, *Host) {
	t.Helper()
	srv, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h := NewHost(srv, Budget{Steps: DefaultBudget().Steps, Deadline: 30 * time.Second})
	t.Cleanup(h.Close)
	return srv, h
}

// allocated reads the process's cumulative heap allocations, in bytes.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestMemoryAttacks: each script asks for far more memory than the cap,
// in one builtin call or one instruction at a time; each is stopped
// before the process has allocated twice the cap and 16 MB over the run
// (gopher-lua's own builtins allocated 954 MB for the table.concat), and
// the host runs the next script.
func TestMemoryAttacks(t *testing.T) {
	srv, h := newHostLongDeadline(t)
	limit := uint64(2*maxAlloc + 16<<20)
	memoryAttacks(t, srv, h, limit, []struct{ src, want string }{
		{"return string.rep('x', 1e9)", "made more than"},
		{"return string.rep(string.rep('x', 1e6), 1e6)", "made more than"},
		{"local s = 'x'\nfor i = 1, 40 do s = s .. s end\nreturn #s", "made more than"},
		{"local s = 'x'\nfor i = 1, 40 do s = s .. s .. s .. s end\nreturn #s", "made more than"},
		{"local t, mb = {}, string.rep('x', 1048576)\nfor i = 1, 1000 do t[i] = mb end\nreturn #table.concat(t)", "made more than"},
		{"local t = {}\nfor i = 1, 1e9 do t[i] = i end\nreturn #t", "budget of instructions"},
		{"local t, mb = {}, string.rep('x', 1048576)\nfor i = 1, 1e6 do t[i] = mb .. i end\nreturn #t", "made more than"},
		{"return #string.gsub(string.rep('x', 1e4), '.+', string.rep('%0', 1e4))", "made more than"},
		// a width past 99 is refused, as Redis's Lua does: it takes many
		// arguments to make a large result
		{"local t, mb = {}, string.rep('x', 1048576)\nfor i = 1, 7000 do t[i] = mb end\nreturn #string.format(string.rep('%99s', 7000), unpack(t))", "made more than"},
		{"local v = string.rep('x', 1e6)\nfor i = 1, 1000 do redis.call('SET', KEYS[1] .. i, v) end\nreturn 1", "made more than"},
	})
	for _, c := range []struct{ src, want string }{
		{"return select('#', unpack({}, 1, 1e8))", "too many results to unpack"},
		{"local function f(n) return 1 + f(n + 1) end\nreturn f(1)", "stack overflow"},
		{"return redis.call('SETRANGE', KEYS[1], 1e9, 'x')", "not allowed"},
		{"return redis.call('SETBIT', KEYS[1], 4e9, 1)", "not allowed"},
		{"return redis.call('SRANDMEMBER', KEYS[1], -1e9)", "not allowed"},
		{"return redis.call('SET', KEYS[1], string.rep('x', 2e6))", "under 1024 kB"},
		{"local v = string.rep('x', 1e5)\nfor i = 1, 1000 do redis.call('APPEND', KEYS[1], v) end\nreturn 1", "under 1024 kB"},
	} {
		before := allocated()
		_, err := eval(t, h, c.src, []string{LockKey}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
		if got := allocated() - before; got > limit {
			t.Errorf("%s: %d MB allocated", c.src, got>>20)
		}
	}
	// pcall cannot swallow the end of a run
	overBudget(t, h, "pcall(string.rep, 'x', 1e9)\nreturn 1", "made more than")
	overBudget(t, h, "pcall(function() while true do end end)\nreturn 1", "budget of instructions")
	overBudget(t, h, "while true do pcall(string.rep, 'x', 1e9) end", "made more than")
	// a tail call that never returns is an endless loop: the budget ends it
	overBudget(t, h, "local function f(n) return f(n + 1) end\nreturn f(1)", "budget of instructions")
	v, err := eval(t, h, "return #(string.rep('ab', 1000) .. 'c')", nil, nil)
	if got := sim.FormatReply(v, err); got != "(integer) 2001" {
		t.Errorf("after the attacks: %s", got)
	}
}

// memoryAttacks runs each script of cases on h, which must stop it over
// its budget with the reason want, before the process has allocated more
// than limit over the run; the server is emptied after each.
func memoryAttacks(t *testing.T, srv *Server, h *Host, limit uint64, cases []struct{ src, want string }) {
	t.Helper()
	for _, c := range cases {
		before := allocated()
		se := overBudget(t, h, c.src, c.want)
		if got := allocated() - before; got > limit {
			t.Errorf("%s: %d MB allocated, more than %d MB (%v)", c.src, got>>20, limit>>20, se)
		}
		srv.Flush()
	}
}

// TestMemoryAttacksByteByByte is TestMemoryAttacks for the two attacks
// whose builtins reach the cap a byte at a time (string.upper of a
// megabyte, string.gsub with a megabyte's replacement): under -race their
// 64 MB took 12 and 17 s, most of the lab's quick tier, so they run in the
// slow tier. The cap they meet is the one the quick tier's attacks meet.
func TestMemoryAttacksByteByByte(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	srv, h := newHostLongDeadline(t)
	memoryAttacks(t, srv, h, uint64(2*maxAlloc+16<<20), []struct{ src, want string }{
		{"local t, mb = {}, string.rep('x', 1048576)\nfor i = 1, 1e6 do t[i] = mb:upper() end\nreturn #t", "made more than"},
		{"return #string.gsub(string.rep('x', 1000), 'x', string.rep('y', 1e6))", "made more than"},
	})
}

// TestServerDataIsCapped: a lock that fills the server across runs is
// stopped when the search saves the server, not let grow with every move.
func TestServerDataIsCapped(t *testing.T) {
	srv, h := newHost(t)
	for i := range 40 {
		if _, err := eval(t, h, fmt.Sprintf("redis.call('SET', 'fill:%d', string.rep('x', 100000)) return 1", i), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := srv.Save()
	var se *ScriptError
	if !errors.As(err, &se) || !se.OverBudget || !strings.Contains(se.Msg, "keys hold more than") {
		t.Fatalf("a server holding 4 MB: %v", err)
	}
	srv.Flush()
	if _, err := srv.Save(); err != nil {
		t.Fatalf("an empty server: %v", err)
	}
}

// TestHostIsSealed: a run cannot change what a later run sees (the
// string metatable, the libraries) nor reach the host (getfenv, setfenv,
// debug, load, the string metatable's table behind the guard).
func TestHostIsSealed(t *testing.T) {
	_, h := newHost(t)
	for _, src := range []string{
		"getmetatable('').__index = {upper = function() return 'owned' end} return 1",
		"getmetatable('').__index.upper = function() return 'owned' end return 1",
		"setmetatable('', {}) return 1",
		"string.upper = function() return 'owned' end return 1",
		"rawset(string, 'upper', function() return 'owned' end) return 1",
		"return getfenv(0)",
		"setfenv(1, {}) return 1",
		"return debug.getregistry()",
		"return debug.getmetatable('')",
		"return load('return 1')()",
		"return loadstring('return 1')()",
		"return string.dump(function() end)",
		"return coroutine.create(function() end)",
		"return io.open('/etc/passwd')",
		"return os.execute('true')",
		"return require('os')",
	} {
		if v, err := eval(t, h, src, []string{LockKey}, nil); err == nil {
			t.Errorf("%s: %v; want an error", src, v)
		}
	}
	// debug and getfenv are gone: naming them is an error, as naming any
	// global that does not exist is in Redis 7
	v, err := eval(t, h, "return {('x'):upper(), string.upper('y'), type(getmetatable('')), tostring(pcall(function() return debug end)), tostring(pcall(function() return getfenv end))}", nil, nil)
	if got := sim.FormatReply(v, err); got != `1) "X" 2) "Y" 3) "boolean" 4) "false" 5) "false"` {
		t.Errorf("the next run sees: %s", got)
	}
}
