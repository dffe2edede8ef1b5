package lab

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
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
// connection, so the log shows EVAL and its reply as before. Every other
// command, and EVAL of any other script, is miniredis's.
//
// The script's commands reach the server one by one on a connection of
// the host's own: a story runs one step at a time, so nothing comes in
// between, but a second client sending commands meanwhile could.
type storyHost struct {
	mu   sync.Mutex
	b    *sim.Backend
	srv  *Server
	host *Host
	// parts are the lock's Lua parts, by source and by SHA1
	bySrc, bySHA map[string]*Script
	// loaded are the SHA1s an EVAL ran: EVALSHA finds those, and answers
	// NOSCRIPT for the others as a server that never saw them does
	loaded map[string]bool
}

// hostStory makes the embedded server behind b answer pr's Lua parts
// through a Host of its own; on a live server it does nothing.
func hostStory(b *sim.Backend, pr *program) {
	mr := b.Embedded()
	if mr == nil || pr == nil {
		return
	}
	srv := serverOn(mr)
	sh := &storyHost{b: b, srv: srv, host: NewHost(srv, DefaultBudget()),
		bySrc: map[string]*Script{}, bySHA: map[string]*Script{}, loaded: map[string]bool{}}
	for _, p := range []*part{pr.acquire, pr.release, pr.extend} {
		if p != nil && p.script != nil {
			sh.bySrc[p.Src] = p.script
			sh.bySHA[shaOf(p.Src)] = p.script
		}
	}
	b.SetScriptHook(sh.answer)
}

func shaOf(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}

// answer is the server's hook: EVAL or EVALSHA of one of the parts runs
// in the host, and its reply is written to c as Redis writes a script's.
func (sh *storyHost) answer(c *server.Peer, cmd string, args []string) bool {
	if (cmd != "EVAL" && cmd != "EVALSHA") || len(args) < 2 {
		return false
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 || n > len(args)-2 {
		return false // miniredis answers a malformed call
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	var s *Script
	if cmd == "EVAL" {
		s = sh.bySrc[args[0]]
		if s != nil {
			sh.loaded[shaOf(args[0])] = true
		}
	} else if sha := strings.ToLower(args[0]); sh.loaded[sha] {
		s = sh.bySHA[sha]
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
		c.WriteError("ERR " + se.Error())
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
