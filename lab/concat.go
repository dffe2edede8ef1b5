package lab

import "github.com/yuin/gopher-lua/ast"

// rewriteConcat turns every '..' of a parsed chunk into a call of
// concatName with the chain's operands (a .. b .. c becomes one call of
// three), so each concatenation is charged its size before it is made:
// the VM's own joins two strings inside one instruction, and s = s .. s
// doubles a string thirty times in as many instructions. A script that
// names concatName itself gains nothing: its own '..' are calls too.
func rewriteConcat(stmts []ast.Stmt) {
	for _, s := range stmts {
		rwStmt(s)
	}
}

func rwStmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		rwExprs(s.Lhs)
		rwExprs(s.Rhs)
	case *ast.LocalAssignStmt:
		rwExprs(s.Exprs)
	case *ast.FuncCallStmt:
		s.Expr = rw(s.Expr)
	case *ast.DoBlockStmt:
		rewriteConcat(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = rw(s.Condition)
		rewriteConcat(s.Stmts)
	case *ast.RepeatStmt:
		s.Condition = rw(s.Condition)
		rewriteConcat(s.Stmts)
	case *ast.IfStmt:
		s.Condition = rw(s.Condition)
		rewriteConcat(s.Then)
		rewriteConcat(s.Else)
	case *ast.NumberForStmt:
		s.Init, s.Limit = rw(s.Init), rw(s.Limit)
		if s.Step != nil {
			s.Step = rw(s.Step)
		}
		rewriteConcat(s.Stmts)
	case *ast.GenericForStmt:
		rwExprs(s.Exprs)
		rewriteConcat(s.Stmts)
	case *ast.FuncDefStmt:
		if s.Name != nil {
			if s.Name.Func != nil {
				s.Name.Func = rw(s.Name.Func)
			}
			if s.Name.Receiver != nil {
				s.Name.Receiver = rw(s.Name.Receiver)
			}
		}
		rewriteConcat(s.Func.Stmts)
	case *ast.ReturnStmt:
		rwExprs(s.Exprs)
	}
}

func rwExprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = rw(e)
	}
}

// rw rewrites e's concatenations and returns e, or the call that
// replaces it.
func rw(e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.StringConcatOpExpr:
		// '..' is right-associative: a .. (b .. c)
		var ops []ast.Expr
		var cur ast.Expr = e
		for {
			c, ok := cur.(*ast.StringConcatOpExpr)
			if !ok {
				ops = append(ops, rw(cur))
				break
			}
			ops = append(ops, rw(c.Lhs))
			cur = c.Rhs
		}
		fn := &ast.IdentExpr{Value: concatName}
		fn.SetLine(e.Line())
		fn.SetLastLine(e.LastLine())
		call := &ast.FuncCallExpr{Func: fn, Args: ops, AdjustRet: true}
		call.SetLine(e.Line())
		call.SetLastLine(e.LastLine())
		return call
	case *ast.AttrGetExpr:
		e.Object, e.Key = rw(e.Object), rw(e.Key)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			if f.Key != nil {
				f.Key = rw(f.Key)
			}
			f.Value = rw(f.Value)
		}
	case *ast.FuncCallExpr:
		if e.Func != nil {
			e.Func = rw(e.Func)
		}
		if e.Receiver != nil {
			e.Receiver = rw(e.Receiver)
		}
		rwExprs(e.Args)
	case *ast.LogicalOpExpr:
		e.Lhs, e.Rhs = rw(e.Lhs), rw(e.Rhs)
	case *ast.RelationalOpExpr:
		e.Lhs, e.Rhs = rw(e.Lhs), rw(e.Rhs)
	case *ast.ArithmeticOpExpr:
		e.Lhs, e.Rhs = rw(e.Lhs), rw(e.Rhs)
	case *ast.UnaryMinusOpExpr:
		e.Expr = rw(e.Expr)
	case *ast.UnaryNotOpExpr:
		e.Expr = rw(e.Expr)
	case *ast.UnaryLenOpExpr:
		// '#' is a call of lenName, so that its error names the operand
		// as Lua 5.1 does ("attempt to get length of local 'v' (a
		// boolean value)"), where gopher-lua says "__len undefined"
		what, name := "", ""
		switch x := e.Expr.(type) {
		case *ast.IdentExpr:
			what, name = "ident", x.Value
		case *ast.AttrGetExpr:
			what, name = "field", "?"
			if k, ok := x.Key.(*ast.StringExpr); ok {
				name = k.Value
			}
		}
		args := []ast.Expr{rw(e.Expr), &ast.StringExpr{Value: what}, &ast.StringExpr{Value: name}}
		fn := &ast.IdentExpr{Value: lenName}
		fn.SetLine(e.Line())
		fn.SetLastLine(e.LastLine())
		call := &ast.FuncCallExpr{Func: fn, Args: args, AdjustRet: true}
		call.SetLine(e.Line())
		call.SetLastLine(e.LastLine())
		return call
	case *ast.FunctionExpr:
		rewriteConcat(e.Stmts)
	}
	return e
}
