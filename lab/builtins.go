package lab

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// concatName is the global the host's compiler sends every '..' to (see
// rewriteConcat): a name no script has reason to use.
const concatName = "__lab_concat"

// maxUnpack is the most values unpack returns, Lua 5.1's C stack limit
// (LUAI_MAXCSTACK), past which Redis's Lua answers "too many results to
// unpack".
const maxUnpack = 8000

// guardBuiltins replaces, in the globals g, the builtins whose one call
// could run for long or allocate much: the pattern functions run on the
// lab's matcher under the budget (strlib.go); string.rep, string.format,
// upper, lower, reverse and table.concat charge the size of their result
// before making it, and so does error (its text is copied with its
// position); unpack and string.byte refuse more than maxUnpack values, as
// Redis's Lua does ("too many results to unpack", "string slice too
// long"). It adds concatName, the '..' of every script.
func (h *Host) guardBuiltins(g *lua.LTable) {
	L := h.L
	str, _ := g.RawGetString("string").(*lua.LTable)
	tab, _ := g.RawGetString("table").(*lua.LTable)
	orig := func(t *lua.LTable, name string) *lua.LFunction {
		f, _ := t.RawGetString(name).(*lua.LFunction)
		return f
	}
	// wrap runs the original after check has charged what it will make
	wrap := func(t *lua.LTable, name string, check func(L *lua.LState)) {
		f := orig(t, name)
		if f == nil {
			return
		}
		t.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			check(L)
			return f.GFunction(L)
		}))
	}
	for _, name := range []string{"upper", "lower", "reverse"} {
		wrap(str, name, func(L *lua.LState) { h.charge(L, len(L.CheckString(1))) })
	}
	wrap(str, "format", func(L *lua.LState) { h.charge(L, formatSize(L)) })
	wrap(tab, "concat", func(L *lua.LState) { h.charge(L, concatSize(L)) })
	if f, ok := g.RawGetString("unpack").(*lua.LFunction); ok {
		g.RawSetString("unpack", L.NewFunction(func(L *lua.LState) int {
			t := L.CheckTable(1)
			from, to := L.OptInt(2, 1), L.OptInt(3, t.Len())
			if from <= to && (to-from >= maxUnpack || to-from < 0) {
				L.RaiseError("too many results to unpack")
			}
			return f.GFunction(L)
		}))
	}
	str.RawSetString("rep", L.NewFunction(func(L *lua.LState) int {
		s, n := L.CheckString(1), max(L.CheckInt(2), 0)
		if n > 0 && len(s) > 0 {
			if len(s) > maxAlloc/n {
				h.charge(L, maxAlloc+1)
			}
			h.charge(L, len(s)*n)
		}
		L.Push(lua.LString(strings.Repeat(s, n)))
		return 1
	}))
	if f := orig(str, "byte"); f != nil {
		str.RawSetString("byte", L.NewFunction(func(L *lua.LState) int {
			// Lua 5.1's str_byte: each byte is a value pushed on the
			// stack, which luaL_checkstack bounds at LUAI_MAXCSTACK
			s := L.CheckString(1)
			i := L.OptInt(2, 1)
			j := L.OptInt(3, i)
			from, to := strIndex(s, i, true), strIndex(s, j, false)
			if to-from > maxUnpack {
				L.RaiseError("string slice too long")
			}
			return f.GFunction(L)
		}))
	}
	if f, ok := g.RawGetString("error").(*lua.LFunction); ok {
		g.RawSetString("error", L.NewFunction(func(L *lua.LState) int {
			// the error's text is copied with its position in front
			if v, ok := L.Get(1).(lua.LString); ok {
				h.charge(L, len(v)+64)
			}
			return f.GFunction(L)
		}))
	}
	str.RawSetString("find", L.NewFunction(h.strFind))
	str.RawSetString("match", L.NewFunction(h.strMatch))
	str.RawSetString("gsub", L.NewFunction(h.strGsub))
	gm := L.NewFunction(h.strGmatch)
	str.RawSetString("gmatch", gm)
	str.RawSetString("gfind", gm)
	g.RawSetString(concatName, L.NewFunction(h.concat))
	g.RawSetString(lenName, L.NewFunction(func(L *lua.LState) int {
		switch v := L.Get(1).(type) {
		case lua.LString:
			L.Push(lua.LNumber(len(v)))
			return 1
		case *lua.LTable:
			L.Push(lua.LNumber(v.Len())) // Lua 5.1 reads no __len of a table
			return 1
		}
		v, what, name := L.Get(1), L.OptString(2, ""), L.OptString(3, "")
		if what == "ident" {
			what = "local"
			if g.RawGetString(name) != lua.LNil {
				what = "global"
			}
		}
		if what == "" {
			L.RaiseError("attempt to get length of a %s value", v.Type().String())
		}
		L.RaiseError("attempt to get length of %s '%s' (a %s value)", what, name, v.Type().String())
		return 0
	}))
}

// lenName is the global the host's compiler sends every '#' to (see
// rewriteConcat).
const lenName = "__lab_len"

// concat is '..' over its arguments, as the VM's concat does it: from the
// right, each run of strings and numbers joined at once, its size charged
// first; anything else goes, two at a time, to a __concat metamethod of
// either side, or is an error.
func (h *Host) concat(L *lua.LState) int {
	n := L.GetTop()
	rhs := L.Get(n)
	for i := n - 1; i >= 1; {
		if lua.LVCanConvToString(rhs) && lua.LVCanConvToString(L.Get(i)) {
			j := i
			for j > 1 && lua.LVCanConvToString(L.Get(j-1)) {
				j--
			}
			last := lua.LVAsString(rhs)
			size := len(last)
			for k := j; k <= i; k++ {
				size += len(lua.LVAsString(L.Get(k)))
				if size > maxAlloc {
					break
				}
			}
			h.charge(L, size)
			var b strings.Builder
			b.Grow(size)
			for k := j; k <= i; k++ {
				b.WriteString(lua.LVAsString(L.Get(k)))
			}
			b.WriteString(last)
			rhs, i = lua.LString(b.String()), j-1
			continue
		}
		lhs := L.Get(i)
		mm := L.GetMetaField(lhs, "__concat")
		if mm == lua.LNil {
			mm = L.GetMetaField(rhs, "__concat")
		}
		if mm.Type() != lua.LTFunction {
			bad := lhs
			if lua.LVCanConvToString(lhs) {
				bad = rhs
			}
			L.RaiseError("attempt to concatenate a %s value", bad.Type().String())
		}
		L.Push(mm)
		L.Push(lhs)
		L.Push(rhs)
		L.Call(2, 1)
		rhs = L.Get(-1)
		L.Pop(1)
		i--
	}
	L.Push(rhs)
	return 1
}

// concatSize is the size table.concat(t, sep, i, j) would make, or -1
// (over any cap) when it cannot be told; a value it cannot join counts
// nothing, as the original raises on it.
func concatSize(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	i, j := L.OptInt(3, 1), L.OptInt(4, t.Len())
	i, j = max(i, 1), min(j, t.Len())
	size := 0
	for k := i; k <= j; k++ {
		v := t.RawGetInt(k)
		if lua.LVCanConvToString(v) {
			size += len(lua.LVAsString(v))
		}
		if k < j {
			size += len(sep)
		}
		if size > maxAlloc {
			return -1
		}
	}
	return size
}

// formatSize bounds what string.format will make: the format itself, and
// for each directive its width and precision plus its argument's size
// (four times a string's, for %q's escapes) or the widest number.
func formatSize(L *lua.LState) int {
	f := L.CheckString(1)
	size, arg := len(f), 2
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			i++
		}
		width, prec := 0, 0
		for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
			width = min(width*10+int(f[i]-'0'), maxAlloc)
		}
		if i < len(f) && f[i] == '.' {
			for i++; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
				prec = min(prec*10+int(f[i]-'0'), maxAlloc)
			}
		}
		size += width + prec + 330 // a float64 written out in full
		if arg <= L.GetTop() {
			if v := L.Get(arg); lua.LVCanConvToString(v) {
				size += 4*len(lua.LVAsString(v)) + 2
			}
		}
		arg++
		if size > maxAlloc {
			return -1
		}
	}
	return size
}
