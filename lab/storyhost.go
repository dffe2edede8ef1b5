package lab

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/alicebob/miniredis/v2/server"
	lua "github.com/yuin/gopher-lua"

	"locksim/sim"
)

// storyHost answers EVAL and EVALSHA of a lock's Lua parts on a story's
// embedded server through the lab's own Host, so the story runs the
// learner's scripts under the same budget, limits and sealed globals as
// the search: miniredis's own Lua has no budget, and a script that tells
// the two hosts apart (if rawget(_G, 'redis') then while true do end end)
// would hang the story. The command still goes over the client's own
// connection, so the log shows EVAL and its reply as before. SCRIPT LOAD
// of a part is answered here too, so its EVALSHA cannot reach miniredis's
// Lua. Every other command, and any other script, is miniredis's.
//
// The script's commands reach the server one by one on a connection of
// the host's own: a story runs one step at a time, so nothing comes in
// between, but a second client sending commands meanwhile could.
type storyHost struct {
	mu   sync.Mutex
	b    *sim.Backend
	srv  *Server
	host *Host
	// parts are the lock's Lua parts
	parts []*part
	// loaded are the scripts an EVAL ran or SCRIPT LOAD loaded, by SHA1:
	// EVALSHA finds those, and any other SHA1 is miniredis's (NOSCRIPT,
	// as from a server that never saw it)
	loaded map[string]*Script
}

// hostStory makes the embedded server behind b answer pr's Lua parts
// through a Host of its own, and returns it; on a live server it does
// nothing and returns nil.
func hostStory(b *sim.Backend, pr *program) *storyHost {
	mr := b.Embedded()
	if mr == nil || pr == nil {
		return nil
	}
	srv := serverOn(mr)
	sh := &storyHost{b: b, srv: srv, host: NewHost(srv, DefaultBudget()), loaded: map[string]*Script{}}
	for _, p := range []*part{pr.acquire, pr.release, pr.extend} {
		if p != nil && p.script != nil {
			sh.parts = append(sh.parts, p)
		}
	}
	b.SetScriptHook(sh.answer)
	return sh
}

// lossy are the tonumber reads past 2^53 of the last script it ran.
func (sh *storyHost) lossy() []LossyRead {
	if sh == nil {
		return nil
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return slices.Clone(sh.host.lossy)
}

// partOf is the part src is: its source, or its source and one comment
// line after it (as sim's EvalSHA tags a script with its run).
func (sh *storyHost) partOf(src string) *Script {
	for _, p := range sh.parts {
		rest, ok := strings.CutPrefix(src, p.Src)
		if ok && (rest == "" || strings.HasPrefix(strings.TrimLeft(rest, "\n"), "--") && !strings.Contains(strings.TrimLeft(rest, "\n"), "\n")) {
			return p.script
		}
	}
	return nil
}

func shaOf(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}

// answer is the server's hook: EVAL or EVALSHA of one of the parts runs
// in the host, and its reply is written to c as Redis writes a script's.
func (sh *storyHost) answer(c *server.Peer, cmd string, args []string) bool {
	// the script's own commands come back through here: only these take
	// the lock (the host refuses them inside a script)
	if cmd != "SCRIPT" && cmd != "EVAL" && cmd != "EVALSHA" {
		return false
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if cmd == "SCRIPT" && len(args) == 2 && strings.EqualFold(args[0], "LOAD") {
		s := sh.partOf(args[1])
		if s == nil {
			return false
		}
		sha := shaOf(args[1])
		sh.loaded[sha] = s
		c.WriteBulk(sha)
		return true
	}
	if (cmd != "EVAL" && cmd != "EVALSHA") || len(args) < 2 {
		return false
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 || n > len(args)-2 {
		return false // miniredis answers a malformed call
	}
	var s *Script
	if cmd == "EVAL" {
		if s = sh.partOf(args[0]); s != nil {
			sh.loaded[shaOf(args[0])] = s
		}
	} else {
		s = sh.loaded[strings.ToLower(args[0])]
	}
	if s == nil {
		return false
	}
	// the server may have been restarted (a fault of the story) since
	sh.srv.srv = sh.b.Embedded().Server()
	v, err := sh.host.run(context.Background(), s, args[2:2+n], args[2+n:])
	var se *ScriptError
	switch {
	case errors.As(err, &se):
		sha := strings.ToLower(args[0])
		if cmd == "EVAL" {
			sha = shaOf(args[0])
		}
		c.WriteError(se.Reply(sha))
	case err != nil:
		c.WriteError("ERR " + err.Error())
	default:
		writeLua(c, v)
	}
	return true
}

// writeLua writes a script's return value as Redis converts it: nil and
// false a nil, true 1, a number an integer (truncated), a string a bulk
// string, {err=...} an error, {ok=...} a status, a table an array up to
// its first nil.
func writeLua(c *server.Peer, v lua.LValue) {
	switch t := v.(type) {
	case lua.LBool:
		if t {
			c.WriteInt(1)
			return
		}
	case lua.LNumber:
		c.WriteInt(int(t))
		return
	case lua.LString:
		c.WriteBulk(string(t))
		return
	case *lua.LTable:
		if e := t.RawGetString("err"); e.Type() == lua.LTString {
			c.WriteError(e.String())
			return
		}
		if ok := t.RawGetString("ok"); ok.Type() == lua.LTString {
			c.WriteInline(ok.String())
			return
		}
		n := 0
		for t.RawGetInt(n+1) != lua.LNil {
			n++
		}
		c.WriteLen(n)
		for i := 1; i <= n; i++ {
			writeLua(c, t.RawGetInt(i))
		}
		return
	}
	c.WriteNull()
}
