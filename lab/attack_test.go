package lab

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"locksim/sim"
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
// and the host runs the next script.
func TestPatternBacktrackingIsBudgeted(t *testing.T) {
	_, h := newHost(t)
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
	_, h := newHost(t)
	_, err := eval(t, h, "return string.find(string.rep('a', 200000), '.*b')", nil, nil)
	var se *ScriptError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "pattern too complex") {
		t.Fatalf("a 200 000-deep match: %v", err)
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
