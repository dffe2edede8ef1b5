package lab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// Note is a lint note on a lock: code the search cannot see is dead,
// because a comparison that never holds changes no reply it reads, or a
// setting that does nothing. A note is not a failure: the verdicts stand
// on the schedules alone.
type Note struct {
	Part string // PartAcquire, PartRelease, PartExtend; "" for the policy
	File string // the part's file name, or lab.json
	Line int    // 1-based; 0 for the policy
	Text string // one sentence
}

// String is the note as one line: "release.lua:2: v == nil never holds…".
func (n Note) String() string {
	if n.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", n.File, n.Line, n.Text)
	}
	return n.File + ": " + n.Text
}

// Lint reads l's Lua parts and its policy for what the search cannot
// judge: a redis.call reply compared with nil (Redis hands a script false,
// never nil, for a nil reply: see "Conversion between Lua and Redis data
// types" in Redis's EVAL documentation), a number compared with a string
// (Lua's == never converts: tonumber(x) == ARGV[1] never holds), error()
// given a table with no err string (it crashes redis-server 7.0.15), and a
// watchdog period with no extend to run. A part that does not parse gets
// no note: the search names its syntax error.
func Lint(l *Lock) []Note {
	out := slices.Clone(l.Read)
	for _, p := range l.Parts() {
		if p.Lang != Lua || p.Empty() {
			continue
		}
		chunk, err := parse.Parse(strings.NewReader(p.Src), p.File())
		if err != nil {
			continue
		}
		lt := &linter{part: p, locals: map[string]luaType{}}
		lt.stmts(chunk)
		out = append(out, lt.notes...)
	}
	if l.Policy.Watchdog > 0 && l.Extend.Empty() {
		out = append(out, Note{File: "lab.json", Text: fmt.Sprintf(
			"the watchdog renews every %s, but the lock has no extend: nothing renews the lease, and the setting does nothing", l.Policy.Watchdog)})
	}
	return out
}

// luaType is what the linter knows of a value's type.
type luaType int

const (
	unknownType luaType = iota
	numberType
	stringType
	// replyType is a redis.call reply of a command whose reply type the
	// linter does not know: never nil (a nil reply reads false)
	replyType
)

// stringReplies and numberReplies are commands whose reply is a bulk
// string (or false for none), or an integer.
var (
	stringReplies = map[string]bool{"GET": true, "HGET": true, "GETSET": true, "GETDEL": true, "GETEX": true,
		"LINDEX": true, "LPOP": true, "RPOP": true, "SRANDMEMBER": true, "SPOP": true}
	numberReplies = map[string]bool{"INCR": true, "INCRBY": true, "DECR": true, "DECRBY": true, "DEL": true, "UNLINK": true,
		"EXISTS": true, "PTTL": true, "TTL": true, "PEXPIRE": true, "EXPIRE": true, "PEXPIREAT": true, "EXPIREAT": true,
		"HINCRBY": true, "HDEL": true, "HSET": true, "HEXISTS": true, "HLEN": true, "SETNX": true, "ZADD": true,
		"ZREM": true, "ZCARD": true, "SCARD": true, "SADD": true, "SREM": true, "LLEN": true, "PERSIST": true}
)

// linter walks one part's statements in order, knowing each local's type
// from its last assignment.
type linter struct {
	part   Part
	locals map[string]luaType
	notes  []Note
}

func (lt *linter) note(line int, format string, args ...any) {
	lt.notes = append(lt.notes, Note{Part: lt.part.Name, File: lt.part.File(), Line: line, Text: fmt.Sprintf(format, args...)})
}

func (lt *linter) stmts(ss []ast.Stmt) {
	for _, s := range ss {
		lt.stmt(s)
	}
}

func (lt *linter) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.LocalAssignStmt:
		lt.exprs(s.Exprs)
		for i, name := range s.Names {
			lt.locals[name] = unknownType
			if i < len(s.Exprs) {
				lt.locals[name] = lt.typeOf(s.Exprs[i])
			}
		}
	case *ast.AssignStmt:
		lt.exprs(s.Rhs)
		lt.exprs(s.Lhs)
		for i, e := range s.Lhs {
			if id, ok := e.(*ast.IdentExpr); ok {
				// a value assigned again, maybe in one branch only: its type
				// is no longer known
				t := unknownType
				if i < len(s.Rhs) && lt.typeOf(s.Rhs[i]) == lt.locals[id.Value] {
					t = lt.locals[id.Value]
				}
				lt.locals[id.Value] = t
			}
		}
	case *ast.FuncCallStmt:
		lt.expr(s.Expr)
	case *ast.DoBlockStmt:
		lt.stmts(s.Stmts)
	case *ast.WhileStmt:
		lt.expr(s.Condition)
		lt.stmts(s.Stmts)
	case *ast.RepeatStmt:
		lt.stmts(s.Stmts)
		lt.expr(s.Condition)
	case *ast.IfStmt:
		lt.expr(s.Condition)
		lt.stmts(s.Then)
		lt.stmts(s.Else)
	case *ast.NumberForStmt:
		lt.exprs([]ast.Expr{s.Init, s.Limit, s.Step})
		lt.locals[s.Name] = numberType
		lt.stmts(s.Stmts)
	case *ast.GenericForStmt:
		lt.exprs(s.Exprs)
		for _, n := range s.Names {
			lt.locals[n] = unknownType
		}
		lt.stmts(s.Stmts)
	case *ast.FuncDefStmt:
		lt.expr(s.Func)
	case *ast.ReturnStmt:
		lt.exprs(s.Exprs)
	}
}

func (lt *linter) exprs(es []ast.Expr) {
	for _, e := range es {
		lt.expr(e)
	}
}

// expr looks for comparisons that never hold in e and its parts.
func (lt *linter) expr(e ast.Expr) {
	switch e := e.(type) {
	case nil:
	case *ast.RelationalOpExpr:
		lt.exprs([]ast.Expr{e.Lhs, e.Rhs})
		if e.Operator == "==" || e.Operator == "~=" {
			lt.compare(e)
		}
	case *ast.LogicalOpExpr:
		lt.exprs([]ast.Expr{e.Lhs, e.Rhs})
	case *ast.ArithmeticOpExpr:
		lt.exprs([]ast.Expr{e.Lhs, e.Rhs})
	case *ast.StringConcatOpExpr:
		lt.exprs([]ast.Expr{e.Lhs, e.Rhs})
	case *ast.UnaryNotOpExpr:
		lt.expr(e.Expr)
	case *ast.UnaryMinusOpExpr:
		lt.expr(e.Expr)
	case *ast.UnaryLenOpExpr:
		lt.expr(e.Expr)
	case *ast.FuncCallExpr:
		lt.expr(e.Func)
		lt.expr(e.Receiver)
		lt.exprs(e.Args)
		lt.errorTable(e)
	case *ast.AttrGetExpr:
		lt.exprs([]ast.Expr{e.Object, e.Key})
	case *ast.TableExpr:
		for _, f := range e.Fields {
			lt.exprs([]ast.Expr{f.Key, f.Value})
		}
	case *ast.FunctionExpr:
		// a function's body is walked with what is known outside it
		lt.stmts(e.Stmts)
	}
}

// errorTable notes error() given a table with no err string, or one
// made by setmetatable: redis-server 7.0.15 crashes (SIGSEGV) on it, as
// redis-cli EVAL "error({})" 0 shows (TestDialectAgreesWithRedis).
func (lt *linter) errorTable(e *ast.FuncCallExpr) {
	id, ok := e.Func.(*ast.IdentExpr)
	if !ok || id.Value != "error" || len(e.Args) == 0 {
		return
	}
	if _, local := lt.locals["error"]; local {
		return
	}
	crashes := false
	switch a := e.Args[0].(type) {
	case *ast.TableExpr:
		crashes = true
		for _, f := range a.Fields {
			if k, ok := f.Key.(*ast.StringExpr); ok && k.Value == "err" {
				_, table := f.Value.(*ast.TableExpr)
				crashes = table
			}
		}
	case *ast.FuncCallExpr:
		f, ok := a.Func.(*ast.IdentExpr)
		crashes = ok && f.Value == "setmetatable"
	}
	if crashes {
		lt.note(e.Line(), "error(%s) raises a table with no err string: this crashes redis-server 7.0.15: return redis.error_reply(...)", exprText(e.Args[0]))
	}
}

// compare notes an == or ~= that never holds (or always does): a reply
// of redis.call against nil, a number against a string.
func (lt *linter) compare(e *ast.RelationalOpExpr) {
	never := "never holds"
	if e.Operator == "~=" {
		never = "always holds"
	}
	lhs, rhs := e.Lhs, e.Rhs
	if _, ok := lhs.(*ast.NilExpr); ok {
		lhs, rhs = rhs, lhs
	}
	if _, ok := rhs.(*ast.NilExpr); ok {
		if lt.typeOf(lhs) != unknownType {
			lt.note(e.Line(), "%s %s nil %s: a redis.call reply is never nil, and a missing key reads false (test it with not %s)",
				exprText(lhs), e.Operator, never, exprText(lhs))
		}
		return
	}
	lt1, rt := lt.typeOf(e.Lhs), lt.typeOf(e.Rhs)
	if lt1 == replyType || rt == replyType || lt1 == unknownType || rt == unknownType || lt1 == rt {
		return
	}
	lt.note(e.Line(), "%s %s %s %s: it compares a number with a string, and Lua's == never converts one to the other",
		exprText(e.Lhs), e.Operator, exprText(e.Rhs), never)
}

// typeOf is what the linter knows of e's type.
func (lt *linter) typeOf(e ast.Expr) luaType {
	switch e := e.(type) {
	case *ast.NumberExpr, *ast.ArithmeticOpExpr, *ast.UnaryMinusOpExpr, *ast.UnaryLenOpExpr:
		return numberType
	case *ast.StringExpr, *ast.StringConcatOpExpr:
		return stringType
	case *ast.IdentExpr:
		return lt.locals[e.Value]
	case *ast.AttrGetExpr:
		if id, ok := e.Object.(*ast.IdentExpr); ok && (id.Value == "ARGV" || id.Value == "KEYS") {
			if _, local := lt.locals[id.Value]; !local {
				return stringType
			}
		}
	case *ast.FuncCallExpr:
		if id, ok := e.Func.(*ast.IdentExpr); ok {
			if _, local := lt.locals[id.Value]; !local {
				switch id.Value {
				case "tonumber":
					// a number, or nil for what does not read as one: either
					// way never equal to a string
					return numberType
				case "tostring":
					return stringType
				}
			}
		}
		if cmd, ok := redisCall(e); ok {
			switch {
			case stringReplies[cmd]:
				return stringType
			case numberReplies[cmd]:
				return numberType
			}
			return replyType
		}
	}
	return unknownType
}

// redisCall reports a call of redis.call or redis.pcall and its command,
// upper case ("" when it is not a constant).
func redisCall(e *ast.FuncCallExpr) (string, bool) {
	at, ok := e.Func.(*ast.AttrGetExpr)
	if !ok {
		return "", false
	}
	obj, ok1 := at.Object.(*ast.IdentExpr)
	key, ok2 := at.Key.(*ast.StringExpr)
	if !ok1 || !ok2 || obj.Value != "redis" || key.Value != "call" && key.Value != "pcall" {
		return "", false
	}
	if len(e.Args) > 0 {
		if s, ok := e.Args[0].(*ast.StringExpr); ok {
			return strings.ToUpper(s.Value), true
		}
	}
	return "", true
}

// exprText is e written short, as a note quotes it: a name, ARGV[1],
// redis.call('GET', …), tonumber(…), a constant.
func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.IdentExpr:
		return e.Value
	case *ast.NilExpr:
		return "nil"
	case *ast.NumberExpr:
		return e.Value
	case *ast.StringExpr:
		return "'" + e.Value + "'"
	case *ast.AttrGetExpr:
		if s, ok := e.Key.(*ast.StringExpr); ok {
			return exprText(e.Object) + "." + s.Value
		}
		return exprText(e.Object) + "[" + exprText(e.Key) + "]"
	case *ast.TableExpr:
		return "{…}"
	case *ast.FuncCallExpr:
		if len(e.Args) == 0 {
			return exprText(e.Func) + "()"
		}
		first := exprText(e.Args[0])
		if len(e.Args) > 1 {
			first += ", …"
		}
		return exprText(e.Func) + "(" + first + ")"
	}
	return "…"
}
