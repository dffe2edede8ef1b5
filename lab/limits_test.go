package lab

import (
	"errors"
	"strings"
	"testing"
)

// TestHostBuiltinsCheckSizeFirst runs, in one host, scripts whose one
// builtin call would make more than a run may (string.byte's values on the
// stack, redis.error_reply's copy, error's text with its position, a
// recursion that outgrows the Lua stack): each ends as an error at its
// line, in Redis's words where Redis has them, and the host runs the next
// script as before.
func TestHostBuiltinsCheckSizeFirst(t *testing.T) {
	_, h := newHost(t)
	for _, c := range []struct {
		src  string
		line int
		want string
	}{
		{"local s = string.rep('a', 10000000)\nlocal t = {string.byte(s, 1, -1)}\nreturn 1", 2, "string slice too long"},
		// 40 MB made, under the cap; its copy (the reply's, the error's)
		// would take the run past it
		{"local s = string.rep('E', 4e7)\nreturn redis.error_reply(s)", 2, "made more than 64 MB"},
		{"local s = string.rep('E', 4e7)\n\nerror(s)", 3, "made more than 64 MB"},
		{deepRecursion, 4, "registry overflow"},
		{"local t = {}\nfor i = 1, 7999 do t[i] = i end\nlocal function f(n, ...)\n if n == 0 then return 0 end\n local r = f(n - 1, unpack(t))\n return r\nend\nreturn f(3)", 5,
			"stack overflow (the script's calls or values outgrew the Lua stack)"},
	} {
		_, err := eval(t, h, c.src, []string{"k"}, []string{"t", "30000"})
		var se *ScriptError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a script error", c.src[:30], err)
			continue
		}
		if se.Line != c.line || !strings.Contains(se.Msg, c.want) {
			t.Errorf("%q: line %d %q, want line %d and %q", c.src[:30], se.Line, se.Msg, c.line, c.want)
		}
		if v, err := eval(t, h, "return redis.call('SET', KEYS[1], ARGV[1])", []string{"k"}, []string{"t"}); err != nil || v != "OK" {
			t.Errorf("after %q the host answers %v %v, want OK", c.src[:30], v, err)
		}
	}
	// a slice within Redis's limit is answered
	v, err := eval(t, h, "return #({string.byte(string.rep('a', 7000), 1, -1)})", nil, nil)
	if err != nil || v != int64(7000) {
		t.Errorf("string.byte of 7000 bytes: %v %v, want 7000", v, err)
	}
}

// TestHostClipsAnErrorReply: an error reply a script returns whole is
// kept to its first maxErrorText bytes, saying so.
func TestHostClipsAnErrorReply(t *testing.T) {
	_, h := newHost(t)
	_, err := eval(t, h, "return {err = string.rep('E', 1000000)}", nil, nil)
	var er ErrorReply
	if !errors.As(err, &er) {
		t.Fatalf("got %v, want an error reply", err)
	}
	if len(er) > maxErrorText+100 || !strings.Contains(string(er), "1000000 bytes in all") {
		t.Errorf("error reply of %d bytes, ending %q", len(er), string(er)[max(0, len(er)-80):])
	}
}

// deepRecursion recurses with 150 locals a call: 200 calls of it outgrow
// gopher-lua's registry, which then cannot push the error handler.
var deepRecursion = func() string {
	var names, vals []string
	for i := range 150 {
		names = append(names, "v"+strings.Repeat("x", i%5)+string(rune('a'+i%26))+strings.Repeat("_", i/26))
		vals = append(vals, "1")
	}
	return "local function f(n)\n local " + strings.Join(names, ",") + " = " + strings.Join(vals, ",") +
		"\n local r = 0\n r = f(n + 1)\n return r\nend\nreturn f(1)"
}()
