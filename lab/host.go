package lab

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// Budget is how much one script run may spend: Steps Lua instructions
// (counted, so the same script stops at the same place on any machine;
// the pattern functions spend one for every pattern.MeterEvery steps of
// their matcher), and Deadline of wall time, which every run has (a zero
// field takes DefaultBudget's). A run also may not make more than
// maxAlloc bytes (see Host.charge).
type Budget struct {
	Steps    int
	Deadline time.Duration
}

// DefaultBudget: 100 000 instructions and 1 s. A lock's script needs a
// few dozen instructions.
func DefaultBudget() Budget { return Budget{Steps: 100_000, Deadline: time.Second} }

// ScriptError is a part that cannot run: a syntax error, a runtime error
// (a Lua error, or redis.call's error reply raised), or a run over budget.
// Line is the line in the part's source, 0 when unknown.
type ScriptError struct {
	Part       string // PartAcquire, PartRelease, PartExtend
	File       string // the part's file name
	Line       int
	Msg        string
	OverBudget bool // stopped by the instruction budget, the deadline or the bytes it made
	Syntax     bool // the source does not compile or parse
	// Schedule is, for a runtime error a search met, the schedule that
	// ran into it, ending with the move whose script raised it (and
	// Probe set when it was the new client that comes after every
	// client is done); nil otherwise.
	Schedule []Move
	Probe    bool
	// SHA is the script's SHA1, for its reply's envelope
	SHA string
	// raised: the error was an error reply raised (a table with err),
	// not a Lua error; raw is the message as Redis puts it in the reply
	raised bool
	raw    string
}

// Reply is the error reply Redis 7 sends for the script's error, its
// envelope and all: "ERR user_script:3: attempt to ... script: SHA, on
// @user_script:3." for a Lua error, "ERR value is not an integer or out
// of range script: SHA, on @user_script:2." for an error reply raised
// (redis.call's). sha is the script's SHA1 ("" for SHA). A run over the
// lab's budget, which Redis has no words for, and a syntax error are
// "ERR " and Error.
func (e *ScriptError) Reply(sha string) string {
	if e.OverBudget || e.Syntax || e.raw == "" && !e.raised {
		return "ERR " + e.Error()
	}
	if sha == "" {
		sha = e.SHA
	}
	msg := e.raw
	if !e.raised {
		msg = "ERR " + msg
	}
	return fmt.Sprintf("%s script: %s, on @%s:%d.", msg, sha, scriptChunkName, e.Line)
}

// Where is the schedule of a runtime error the search met, as one line:
// "A acquire, A pauses until just past the TTL, B acquire, A release";
// "" when it has none.
func (e *ScriptError) Where() string {
	if len(e.Schedule) == 0 && !e.Probe {
		return ""
	}
	b := Break{Moves: e.Schedule}
	out := b.String()
	if e.Probe {
		if out != "" {
			out += ", then "
		}
		out += "a new client's acquire, twice the TTL later"
	}
	return out
}

// Error is the error in one line: the file, the line when known, the
// message, and for a run over budget that a search met, the schedule
// that ran into it (a runtime error's schedule is said by the report,
// beside the properties it failed).
func (e *ScriptError) Error() string {
	where := ""
	if w := e.Where(); e.OverBudget && w != "" {
		where = " (in the schedule " + w + ")"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s%s", e.File, e.Line, e.Msg, where)
	}
	return fmt.Sprintf("%s: %s%s", e.File, e.Msg, where)
}

// Script is a compiled Lua part.
type Script struct {
	part  Part
	proto *lua.FunctionProto
	sha   string // SHA1 of the source, as EVALSHA names it
}

// Compile compiles a Lua part; a syntax error is a *ScriptError with its line.
func Compile(p Part) (*Script, error) {
	chunk, err := parse.Parse(strings.NewReader(p.Src), p.File())
	if err != nil {
		se := &ScriptError{Part: p.Name, File: p.File(), Line: errLine(err.Error()), Msg: tidy(err.Error(), p.File()), Syntax: true}
		if strings.Contains(se.Msg, "at EOF") {
			// the source ended inside a block: the last line is where
			se.Line = strings.Count(strings.TrimRight(p.Src, "\n"), "\n") + 1
			se.Msg = "syntax error: the script ends before a block is closed (a missing end?)"
		}
		return nil, se
	}
	rewriteConcat(chunk)
	proto, err := lua.Compile(chunk, p.File())
	if err != nil {
		return nil, &ScriptError{Part: p.Name, File: p.File(), Line: errLine(err.Error()), Msg: tidy(err.Error(), p.File()), Syntax: true}
	}
	// Lua 5.1's compatibility table `arg` of a vararg chunk is built on
	// every call (a table with a hash part each run); a Redis script is
	// no vararg chunk (Redis wraps it in a function of no parameters), so
	// it has no `arg` either
	proto.IsVarArg &^= lua.VarArgNeedsArg
	return &Script{part: p, proto: proto, sha: shaOf(p.Src)}, nil
}

// lineRes find the line in gopher-lua's messages: a syntax error's
// "line:N", a runtime error's "FILE.lua:N:". Compiled once: errLine runs
// for every script error a search meets.
var lineRes = [...]*regexp.Regexp{regexp.MustCompile(`line:(\d+)`), regexp.MustCompile(`\.lua:(\d+):`)}

func errLine(msg string) int {
	for _, re := range lineRes {
		if m := re.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

// tidy drops the file name and Go stack noise from a Lua message.
func tidy(msg, file string) string {
	msg, _, _ = strings.Cut(msg, "\nstack traceback:")
	msg = strings.TrimPrefix(msg, file+" ")
	msg = strings.TrimPrefix(msg, file+":")
	// "3: attempt to..." after the file name: the line is kept apart
	if n, rest, ok := strings.Cut(msg, ":"); ok {
		if _, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
			msg = rest
		}
	}
	return strings.TrimSpace(msg)
}

// Host runs compiled parts as Redis 7 runs EVAL: KEYS and ARGV,
// redis.call (an error reply raises it as an error), redis.pcall (an
// error reply comes back as a table with err), redis.error_reply,
// status_reply, sha1hex, log, setresp (2 only) and the version; replies
// converted both ways as Redis does (integer ↔ number, truncated; bulk ↔
// string; nil ↔ false; array ↔ table, stopping at the first nil; status
// ↔ {ok=...}; error ↔ {err=...}; true → 1). Libraries: base, table,
// string, math, bit (LuaBitOp's); cjson, cmsgpack and struct are there
// but each function raises that the lab does not provide it; no dofile,
// loadfile, load, loadstring, require, io or os. Each run gets fresh
// KEYS and ARGV; assigning a global and reading one that does not exist
// are errors, in Redis 7's words, and so are the errors scripts meet
// most (script_lua.c's), in Redis 7's envelope (ScriptError.Reply).
// docs/lab.md lists where it still differs. Commands go to srv.
type Host struct {
	srv    *Server
	L      *lua.LState
	base   *lua.LTable
	budget Budget
	ctx    budgetCtx
	redis  *lua.LTable
	env    *lua.LTable // the globals every run sees, made on the first run
	// errAt is the line of the script at which the run's error was
	// raised, as the error handler found it; 0 when unknown
	errAt   int
	handler *lua.LFunction
	file    string // the running part's chunk name, for the handler
	// lossy are the run's tonumber reads with a base past 2^53 (dialect.go)
	lossy []LossyRead
}

// onError is the run's error handler: it finds the line of the part's
// chunk (file) that was running when the error was raised, for the
// error's envelope (Redis 7 names it: "on @user_script:LINE"), and
// passes the error on unchanged.
func (h *Host) onError(file string) *lua.LFunction {
	if h.handler == nil {
		h.handler = h.L.NewFunction(func(L *lua.LState) int {
			for level := 0; level < 8; level++ {
				dbg, ok := L.GetStack(level)
				if !ok {
					break
				}
				if _, err := L.GetInfo("Sl", dbg, lua.LNil); err == nil && dbg.CurrentLine > 0 && dbg.Source == h.file {
					h.errAt = dbg.CurrentLine
					break
				}
			}
			L.Push(L.Get(1))
			return 1
		})
	}
	h.file = file
	return h.handler
}

// blocked are the commands a script may not send (Redis refuses them
// inside a script, or they would block or leave the lab's one database).
var blocked = map[string]bool{
	"EVAL": true, "EVALSHA": true, "EVAL_RO": true, "EVALSHA_RO": true, "SCRIPT": true, "FUNCTION": true, "FCALL": true,
	"MULTI": true, "EXEC": true, "DISCARD": true, "WATCH": true, "UNWATCH": true,
	"BLPOP": true, "BRPOP": true, "BRPOPLPUSH": true, "BLMOVE": true, "BLMPOP": true, "BZPOPMIN": true, "BZPOPMAX": true, "BZMPOP": true,
	"SUBSCRIBE": true, "PSUBSCRIBE": true, "SSUBSCRIBE": true, "UNSUBSCRIBE": true, "PUNSUBSCRIBE": true,
	"SELECT": true, "SWAPDB": true, "MOVE": true, "WAIT": true, "AUTH": true, "HELLO": true, "CLIENT": true, "QUIT": true,
	"RESET": true, "SHUTDOWN": true, "DEBUG": true, "CONFIG": true, "MONITOR": true, "XREAD": true, "XREADGROUP": true,
	// one command of these makes the server allocate far more than it was
	// sent (an offset of a gigabyte, a copy of a key, a random sample of a
	// billion members), out of reach of what the run is charged
	"SETRANGE": true, "SETBIT": true, "BITFIELD": true, "BITOP": true, "COPY": true, "SORT": true, "SORT_RO": true,
	"SUNIONSTORE": true, "SINTERSTORE": true, "SDIFFSTORE": true, "ZUNIONSTORE": true, "ZINTERSTORE": true, "ZDIFFSTORE": true,
	"ZRANGESTORE": true, "GEORADIUS": true, "GEORADIUSBYMEMBER": true, "GEOSEARCHSTORE": true,
	"SRANDMEMBER": true, "ZRANDMEMBER": true, "HRANDFIELD": true, "RESTORE": true,
}

// NewHost prepares a Lua state for srv. Close it when done.
func NewHost(srv *Server, b Budget) *Host {
	if b.Steps <= 0 {
		b.Steps = DefaultBudget().Steps
	}
	if b.Deadline <= 0 {
		b.Deadline = DefaultBudget().Deadline
	}
	h := &Host{srv: srv, budget: b}
	h.open()
	return h
}

// open makes the host's Lua state: the libraries, guarded and read-only,
// and redis.
func (h *Host) open() {
	// the registry (Lua's value stack) grows to the same bound as a
	// script needs it: made whole at once, it cost every host (several a
	// grade) 320 kB of zeroed memory
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: 200, RegistrySize: 1024, RegistryMaxSize: 1024 * 20, RegistryGrowStep: 1024})
	for _, lib := range []struct {
		n string
		f lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath}} {
		L.Push(L.NewFunction(lib.f))
		L.Push(lua.LString(lib.n))
		L.Call(1, 0)
	}
	g := L.G.Global
	for _, name := range []string{"dofile", "loadfile", "load", "loadstring", "require", "module", "print", "collectgarbage", "newproxy", "_printregs"} {
		g.RawSetString(name, lua.LNil)
	}
	h.L, h.env, h.handler = L, nil, nil
	h.guardBuiltins(g)
	h.redis7Dialect(g)
	r := L.NewTable()
	r.RawSetString("call", L.NewFunction(h.call(true)))
	r.RawSetString("pcall", L.NewFunction(h.call(false)))
	openRedisLib(h, L, g, r)
	g.RawSetString("redis", r)
	h.redis, h.base = r, g
	protect(L, g)
	// as Redis 7 sets on its globals: reading one that does not exist is
	// an error, not nil (rawget still answers nil)
	gmt := L.CreateTable(0, 1)
	gmt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError(msgNoGlobal, L.CheckAny(2).String())
		return 0
	}))
	L.SetMetatable(g, gmt)
}

// readonlyMsg is Redis 7's error for a write to a script's globals or
// libraries.
const readonlyMsg = "Attempt to modify a readonly table"

// protect makes the tables every run shares read-only, as Redis 7 does:
// the libraries and redis inside the globals, and the globals as _G. One
// Lua state serves every run of a search, so a table a script could write
// would carry state from one run to the next (a counter kept in _G that
// survives a restart of the server), which no real Redis allows.
func protect(L *lua.LState, g *lua.LTable) {
	proxies := map[*lua.LTable]bool{}
	refuse := L.NewFunction(func(L *lua.LState) int {
		L.RaiseError(readonlyMsg)
		return 0
	})
	readonly := func(t *lua.LTable) *lua.LTable {
		p, mt := L.NewTable(), L.NewTable()
		mt.RawSetString("__index", t)
		mt.RawSetString("__newindex", refuse)
		// setmetatable cannot take the guard off, getmetatable cannot
		// reach the table behind it
		mt.RawSetString("__metatable", lua.LFalse)
		L.SetMetatable(p, mt)
		proxies[p] = true
		return p
	}
	var libs []string
	g.ForEach(func(k, v lua.LValue) {
		if t, ok := v.(*lua.LTable); ok && t != g {
			libs = append(libs, k.String())
		}
	})
	for _, name := range libs {
		g.RawSetString(name, readonly(g.RawGetString(name).(*lua.LTable)))
	}
	g.RawSetString("_G", readonly(g))
	// rawset would write into a guard itself, and getfenv(0) is the
	// globals unguarded
	rawset := g.RawGetString("rawset").(*lua.LFunction)
	g.RawSetString("rawset", L.NewFunction(func(L *lua.LState) int {
		if proxies[L.CheckTable(1)] {
			L.RaiseError(readonlyMsg)
		}
		L.Push(rawset)
		L.Push(L.Get(1))
		L.Push(L.Get(2))
		L.Push(L.Get(3))
		L.Call(3, 1)
		return 1
	}))
	g.RawSetString("getfenv", lua.LNil)
	g.RawSetString("setfenv", lua.LNil)
	// a string's methods are the string library: its metatable is kept
	// out of reach too
	if mt, ok := L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		mt.RawSetString("__metatable", lua.LFalse)
	}
}

// Close frees the Lua state.
func (h *Host) Close() { h.L.Close() }

// Eval runs s with KEYS keys and ARGV argv, and returns its reply typed
// as Server.Do returns one. A script that cannot finish (a Lua error, a
// raised error reply, the budget spent) returns a *ScriptError as err;
// redis.error_reply's reply is an ErrorReply, as Redis sends it.
func (h *Host) Eval(ctx context.Context, s *Script, keys, argv []string) (any, error) {
	v, err := h.run(ctx, s, keys, argv)
	if err != nil {
		return nil, err
	}
	return toReply(h.L, v)
}

// run runs s and returns the value it returned, unconverted; errors as
// Eval's.
func (h *Host) run(ctx context.Context, s *Script, keys, argv []string) (lua.LValue, error) {
	L := h.L
	kt, at := L.CreateTable(len(keys), 0), L.CreateTable(len(argv), 0)
	for i, k := range keys {
		kt.RawSetInt(i+1, lua.LString(k))
	}
	for i, a := range argv {
		at.RawSetInt(i+1, lua.LString(a))
	}
	// one env serves every run: a script cannot write it (its
	// __newindex raises), so KEYS and ARGV, fresh each run, are all it
	// holds
	env := h.env
	if env == nil {
		env = L.CreateTable(0, 2)
		mt := L.CreateTable(0, 2)
		mt.RawSetString("__index", h.base)
		mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
			L.RaiseError(readonlyMsg) // Redis 7's words for a global assigned
			return 0
		}))
		L.SetMetatable(env, mt)
		h.env = env
	}
	env.RawSetString("KEYS", kt)
	env.RawSetString("ARGV", at)
	fn := L.NewFunctionFromProto(s.proto)
	fn.Env = env

	h.ctx = budgetCtx{Context: ctx, left: h.budget.Steps, until: time.Now().Add(h.budget.Deadline), tick: clockEvery}
	L.SetContext(&h.ctx)
	defer func() { h.L.RemoveContext() }()
	top := L.GetTop()
	L.Push(fn)
	h.errAt, h.lossy = 0, nil
	err := h.pcall(s)
	L = h.L // made again after a fault
	if err != nil {
		L.SetTop(top)
		se := &ScriptError{Part: s.part.Name, File: s.part.File(), SHA: s.sha}
		var lerr *lua.ApiError
		msg := err.Error()
		if errors.As(err, &lerr) {
			msg = lerr.Object.String()
			if t, ok := lerr.Object.(*lua.LTable); ok {
				switch e := t.RawGetString("err"); e.(type) {
				case lua.LString, lua.LNumber:
					// an error reply raised (redis.call's, or error{err=...})
					msg, se.raised = lua.LVAsString(e), true
				default:
					// redis-server 7.0.15 dies of it (see lint.go): the lab
					// says so rather than print the table's address
					msg = errorTableCrashes
				}
			}
		}
		se.Line = errLine(msg)
		if se.Line == 0 || se.raised {
			se.Line = h.errAt
		}
		msg = clipError(msg)
		se.Msg = tidy(msg, s.part.File())
		if !se.raised {
			// Redis names the script's chunk user_script
			se.raw = strings.Replace(msg, s.part.File()+":", scriptChunkName+":", 1)
		} else {
			se.raw = msg
		}
		if h.ctx.spent != nil {
			se.OverBudget, se.Msg = true, h.ctx.spent.Error()
		}
		if ctx.Err() != nil && !se.OverBudget {
			return nil, ctx.Err()
		}
		return nil, se
	}
	ret := L.Get(-1)
	L.SetTop(top)
	return ret, nil
}

// pcall runs the function on top of the stack under the error handler.
// A fault gopher-lua does not turn into a Lua error (its registry full
// when the handler is pushed: a deep recursion of many locals) ends the
// run as a runtime error at the line the script was on, and the state,
// which such a fault leaves unusable, is made again for the next run.
func (h *Host) pcall(s *Script) (err error) {
	defer func() {
		if r := recover(); r != nil {
			line := 0
			for level := 0; ; level++ {
				dbg, ok := h.L.GetStack(level)
				if !ok {
					break
				}
				if _, e := h.L.GetInfo("Sl", dbg, lua.LNil); e == nil && dbg.CurrentLine > 0 && dbg.Source == s.part.File() {
					line = dbg.CurrentLine
					break
				}
			}
			h.L.Close()
			h.open()
			h.errAt = line
			err = errors.New(s.part.File() + ":" + strconv.Itoa(line) + ": " + "stack overflow (the script's calls or values outgrew the Lua stack)")
		}
	}()
	return h.L.PCall(0, 1, h.onError(s.part.File()))
}

// call is redis.call (raise) or redis.pcall.
func (h *Host) call(raise bool) lua.LGFunction {
	return func(L *lua.LState) int {
		n := L.GetTop()
		if n == 0 {
			raiseReply(L, msgNoArgs)
		}
		args := make([]string, n)
		size := 0
		for i := 1; i <= n; i++ {
			switch a := L.Get(i).(type) {
			case lua.LNumber:
				args[i-1] = argText(float64(a))
			case lua.LString:
				args[i-1] = string(a)
			default:
				raiseReply(L, msgBadArg)
			}
			size += len(args[i-1])
		}
		// what the server keeps of a command is at most what it was sent
		h.charge(L, size)
		name := strings.ToUpper(args[0])
		var val any
		var err error
		switch {
		case blocked[name]:
			err = ErrorReply("ERR This Redis command is not allowed from script")
		case h.tooBig(name, args):
			err = ErrorReply(fmt.Sprintf("ERR the lab keeps each value under %d kB", maxData>>10))
		default:
			val, err = h.srv.Do(args...)
		}
		if err != nil && !errors.Is(err, redis.Nil) {
			msg := scriptReplyError(err.Error())
			if raise {
				raiseReply(L, msg)
			}
			t := L.CreateTable(0, 1)
			t.RawSetString("err", lua.LString(msg))
			L.Push(t)
			return 1
		}
		if s, ok := val.(string); ok && h.srv.lastStatus {
			t := L.CreateTable(0, 1)
			t.RawSetString("ok", lua.LString(s))
			L.Push(t)
			return 1
		}
		h.charge(L, replySize(val))
		L.Push(fromReply(L, val))
		return 1
	}
}
