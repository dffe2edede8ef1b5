package lab

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// stringReplies are the commands whose reply, when there is one, is a
// bulk string: Lua reads it as a string, never as a number.
var stringReplies = map[string]bool{
	"GET": true, "HGET": true, "GETSET": true, "GETDEL": true, "GETEX": true,
	"LINDEX": true, "LPOP": true, "RPOP": true, "ZSCORE": true, "SPOP": true,
}

// Notes are what the search cannot show because it never runs: a
// comparison in a Lua part that Lua decides the same way whatever the
// server holds, each as "FILE:LINE: sentence". Two are looked for:
//   - a reply of redis.call compared with nil: a nil reply reaches Lua as
//     false (Redis's conversion, FACTS.md), never nil, so `v == nil`
//     never holds and `v ~= nil` always does;
//   - a string reply (GET's, HGET's, ...) compared with a number (a
//     number, tonumber(...), arithmetic): Lua never finds a string equal
//     to a number, so `==` never holds.
//
// A reply is recognised in place (redis.call(...) == nil) or through a
// name every assignment of which is such a call. A part that does not
// parse has no notes (Compile reports it).
func Notes(l *Lock) []string {
	var out []string
	for _, p := range l.Parts() {
		if p.Lang != Lua {
			continue
		}
		chunk, err := parse.Parse(strings.NewReader(p.Src), p.File())
		if err != nil {
			continue
		}
		out = append(out, notesOf(p.File(), chunk)...)
	}
	return out
}

func notesOf(file string, chunk []ast.Stmt) []string {
	// replyOf: the command whose reply a name holds; "" when some
	// assignment of it is not a redis.call
	replyOf := map[string]string{}
	assign := func(name string, e ast.Expr) {
		cmd, ok := redisCall(e)
		if prev, seen := replyOf[name]; !ok || seen && prev != cmd {
			cmd = ""
		}
		replyOf[name] = cmd
	}
	walk(chunk, func(n any) {
		switch s := n.(type) {
		case *ast.LocalAssignStmt:
			for i, name := range s.Names {
				var e ast.Expr
				if i < len(s.Exprs) {
					e = s.Exprs[i]
				}
				assign(name, e)
			}
		case *ast.AssignStmt:
			for i, lhs := range s.Lhs {
				if id, ok := lhs.(*ast.IdentExpr); ok {
					var e ast.Expr
					if i < len(s.Rhs) {
						e = s.Rhs[i]
					}
					assign(id.Value, e)
				}
			}
		}
	})
	reply := func(e ast.Expr) (string, bool) {
		if cmd, ok := redisCall(e); ok {
			return cmd, true
		}
		if id, ok := e.(*ast.IdentExpr); ok {
			cmd := replyOf[id.Value]
			return cmd, cmd != ""
		}
		return "", false
	}
	var out []string
	walk(chunk, func(n any) {
		r, ok := n.(*ast.RelationalOpExpr)
		if !ok || r.Operator != "==" && r.Operator != "~=" {
			return
		}
		never := "never holds"
		if r.Operator == "~=" {
			never = "always holds"
		}
		for _, pair := range [][2]ast.Expr{{r.Lhs, r.Rhs}, {r.Rhs, r.Lhs}} {
			cmd, ok := reply(pair[0])
			if !ok {
				continue
			}
			if _, isNil := pair[1].(*ast.NilExpr); isNil {
				out = append(out, fmt.Sprintf("%s:%d: this comparison with nil %s: a reply of redis.call is never nil (a missing key reads false in Lua)", file, r.Line(), never))
				return
			}
			if stringReplies[cmd] && isNumber(pair[1]) {
				out = append(out, fmt.Sprintf("%s:%d: this comparison %s: %s's reply is a string and the other side a number, and Lua never finds a string equal to a number", file, r.Line(), never, cmd))
				return
			}
		}
	})
	return out
}

// redisCall reports whether e is redis.call(...) or redis.pcall(...) (or
// server.call), with its command in upper case ("?" when it is not a
// literal string).
func redisCall(e ast.Expr) (string, bool) {
	c, ok := e.(*ast.FuncCallExpr)
	if !ok || c.Func == nil {
		return "", false
	}
	get, ok := c.Func.(*ast.AttrGetExpr)
	if !ok {
		return "", false
	}
	obj, ok1 := get.Object.(*ast.IdentExpr)
	key, ok2 := get.Key.(*ast.StringExpr)
	if !ok1 || !ok2 || obj.Value != "redis" && obj.Value != "server" || key.Value != "call" && key.Value != "pcall" {
		return "", false
	}
	if len(c.Args) > 0 {
		if s, ok := c.Args[0].(*ast.StringExpr); ok {
			return strings.ToUpper(s.Value), true
		}
	}
	return "?", true
}

// isNumber: e is a number whatever the server holds, or nil (tonumber's
// answer to a string that is no number): a number literal, a call of
// tonumber, arithmetic, a length.
func isNumber(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.NumberExpr, *ast.ArithmeticOpExpr, *ast.UnaryMinusOpExpr, *ast.UnaryLenOpExpr:
		return true
	case *ast.FuncCallExpr:
		id, ok := x.Func.(*ast.IdentExpr)
		return ok && id.Value == "tonumber"
	}
	return false
}

// walk calls f on every statement and expression under v, depth first.
func walk(v any, f func(any)) {
	var rec func(r reflect.Value)
	rec = func(r reflect.Value) {
		switch r.Kind() {
		case reflect.Interface:
			if !r.IsNil() {
				rec(r.Elem())
			}
		case reflect.Pointer:
			if r.IsNil() {
				return
			}
			f(r.Interface())
			rec(r.Elem())
		case reflect.Slice:
			for i := range r.Len() {
				rec(r.Index(i))
			}
		case reflect.Struct:
			for i := range r.NumField() {
				if r.Type().Field(i).IsExported() {
					rec(r.Field(i))
				}
			}
		}
	}
	rec(reflect.ValueOf(v))
}
