package lab

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Redis 7.0.15 embeds Lua 5.1.5; gopher-lua is a Lua 5.1 too, but where a
// lock's script meets a builtin the two answer differently, the lab
// answers as Redis does. Each reply here was checked with redis-cli EVAL
// on redis-server 7.0.15 (TestDialectAgreesWithRedis holds the lab to it).

// Lua 5.1's messages (lstrlib.c, ltablib.c, lbaselib.c), as Redis 7.0.15
// raises them.
const (
	msgFormatTooLong  = "invalid format (width or precision too long)"
	msgFormatFlags    = "invalid format (repeated flags)"
	msgSortOrder      = "invalid order function for sorting"
	msgDumpUnable     = "unable to dump given function"
	msgTonumberBase   = "bad argument #2 to 'tonumber' (base out of range)"
	formatFlags       = "-+ #0"
	maxFormatDigits   = 2              // width and precision: two digits at most (scanformat)
	ulongMax          = math.MaxUint64 // C's ULONG_MAX on a 64-bit Linux
	errorTableCrashes = "error() raised a table with no err string: redis-server 7.0.15 crashes on this (SIGSEGV); return redis.error_reply('...') instead"
)

// redis7Dialect replaces, in the globals g, the builtins whose answers
// differ from Redis 7.0.15's Lua: tonumber with a base, string.format's
// width and precision, table.sort, string.dump. It wraps whatever is
// there, so the size checks guardBuiltins put on string.format still run.
func (h *Host) redis7Dialect(g *lua.LTable) {
	L := h.L
	str, _ := g.RawGetString("string").(*lua.LTable)
	tab, _ := g.RawGetString("table").(*lua.LTable)
	if f, ok := g.RawGetString("tonumber").(*lua.LFunction); ok {
		g.RawSetString("tonumber", L.NewFunction(func(L *lua.LState) int {
			if L.Get(2) == lua.LNil || L.Get(2) == lua.LNumber(10) {
				return f.GFunction(L)
			}
			return h.tonumberBase(L)
		}))
	}
	if f, ok := str.RawGetString("format").(*lua.LFunction); ok {
		str.RawSetString("format", L.NewFunction(func(L *lua.LState) int {
			checkFormat(L, L.CheckString(1))
			return f.GFunction(L)
		}))
	}
	if f, ok := g.RawGetString("tostring").(*lua.LFunction); ok {
		g.RawSetString("tostring", L.NewFunction(func(L *lua.LState) int {
			if n, ok := L.Get(1).(lua.LNumber); ok {
				L.Push(lua.LString(numberText(float64(n))))
				return 1
			}
			return f.GFunction(L)
		}))
	}
	if f, ok := g.RawGetString(concatName).(*lua.LFunction); ok {
		// '..' writes a number as tostring does; with a table among the
		// operands, a __concat metamethod gets its numbers as numbers
		g.RawSetString(concatName, L.NewFunction(func(L *lua.LState) int {
			for i := 1; i <= L.GetTop(); i++ {
				if !lua.LVCanConvToString(L.Get(i)) {
					return f.GFunction(L)
				}
			}
			for i := 1; i <= L.GetTop(); i++ {
				if n, ok := L.Get(i).(lua.LNumber); ok {
					L.Replace(i, lua.LString(numberText(float64(n))))
				}
			}
			return f.GFunction(L)
		}))
	}
	tab.RawSetString("sort", L.NewFunction(h.sort))
	str.RawSetString("dump", L.NewFunction(func(L *lua.LState) int {
		if _, ok := L.Get(1).(*lua.LFunction); !ok {
			argError(L, 1, "dump", "function")
		}
		// Redis's Lua dumps a Lua function's bytecode; the lab has no Lua
		// 5.1 bytecode to give, and says what Redis says of a C function
		// rather than name the Lua it runs on
		L.RaiseError(msgDumpUnable)
		return 0
	}))
}

// numberText is a number as Lua 5.1 writes it (LUAI_NUMFFORMAT, "%.14g",
// as tostring and '..' do): 14 significant digits, so 2^64 reads
// 1.844674407371e+19; inf, -inf, nan or -nan as glibc prints them.
func numberText(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f) && math.Signbit(f):
		return "-nan"
	case math.IsNaN(f):
		return "nan"
	}
	return strconv.FormatFloat(f, 'g', 14, 64)
}

// argText is a number as Redis 7.0.15 sends it in a redis.call argument
// (script_lua.c: "%.17g"): 0.1 is 0.10000000000000001.
func argText(f float64) string {
	return strconv.FormatFloat(f, 'g', 17, 64)
}

// tonumberBase is Lua 5.1's tonumber(e, base) for a base other than 10
// (lbaselib.c luaB_tonumber): e read as a string by C's strtoul, so
// leading spaces, a sign and, in base 16, a 0x are taken; a value past
// 2^64-1 is 2^64-1 (strtoul's ULONG_MAX), and the unsigned long becomes a
// double, so every value past 2^53 loses its low digits: every 32-digit
// hexadecimal token reads as 1.844674407371e+19, the same number.
// A read that lost digits that way is kept in h.lossy for the story to
// tell.
func (h *Host) tonumberBase(L *lua.LState) int {
	base := L.CheckInt(2)
	var s string
	switch v := L.Get(1).(type) {
	case lua.LString:
		s = string(v)
	case lua.LNumber:
		s = numberText(float64(v)) // luaL_checkstring converts a number
	default:
		argError(L, 1, "tonumber", "string")
	}
	if base < 2 || base > 36 {
		L.RaiseError(msgTonumberBase)
	}
	n, rest, ok := strtoul(s, base)
	if ok && strings.TrimLeft(rest, " \t\n\v\f\r") == "" {
		if n > 1<<53 && len(h.lossy) < 8 {
			h.lossy = append(h.lossy, LossyRead{Text: s, Base: base, Value: numberText(n)})
		}
		L.Push(lua.LNumber(n))
		return 1
	}
	L.Push(lua.LNil)
	return 1
}

// strtoul is C's strtoul(s, &end, base) on a 64-bit unsigned long: the
// value as a float64 (as Lua then holds it), what follows the digits, and
// whether there was at least one digit.
func strtoul(s string, base int) (float64, string, bool) {
	i := 0
	for i < len(s) && strings.IndexByte(" \t\n\v\f\r", s[i]) >= 0 {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if base == 16 && i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && digit(s[i+2]) < 16 {
		i += 2
	}
	var n uint64
	over := false
	start := i
	for ; i < len(s); i++ {
		d := digit(s[i])
		if d >= base {
			break
		}
		if !over {
			if n > (ulongMax-uint64(d))/uint64(base) {
				over = true
			} else {
				n = n*uint64(base) + uint64(d)
			}
		}
	}
	if i == start {
		return 0, s, false
	}
	switch {
	case over:
		n = ulongMax
	case neg:
		n = -n // strtoul negates in unsigned arithmetic
	}
	return float64(n), s[i:], true
}

// digit is c's value as a digit of bases up to 36; 36 for none.
func digit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 36
}

// checkFormat raises Lua 5.1's errors for a directive of string.format
// that its scanformat (lstrlib.c) refuses: six flags or more, a width or
// a precision of more than two digits. Lua raises them as it reaches each
// directive, after the arguments before it were read; here all come first.
// A number given to %s is written as tostring writes it.
func checkFormat(L *lua.LState, f string) {
	arg := 1
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		p := i
		for p < len(f) && strings.IndexByte(formatFlags, f[p]) >= 0 {
			p++
		}
		if p-i > len(formatFlags) {
			L.RaiseError(msgFormatFlags)
		}
		p = skipDigits(f, p)
		if p < len(f) && f[p] == '.' {
			p = skipDigits(f, p+1)
		}
		if p < len(f) && isDigit(f[p]) {
			L.RaiseError(msgFormatTooLong)
		}
		arg++
		if n, ok := L.Get(arg).(lua.LNumber); ok && p < len(f) && f[p] == 's' {
			L.Replace(arg, lua.LString(numberText(float64(n))))
		}
		i = p
	}
}

// skipDigits skips up to maxFormatDigits digits of f from p.
func skipDigits(f string, p int) int {
	for k := 0; k < maxFormatDigits && p < len(f) && isDigit(f[p]); k++ {
		p++
	}
	return p
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// sort is Lua 5.1.5's table.sort (ltablib.c auxsort), step for step, so a
// comparator that is not a strict order gets what it gets in Redis: the
// same order, or "invalid order function for sorting" where Lua's
// partition runs off the end. Each comparison is a step of the budget.
func (h *Host) sort(L *lua.LState) int {
	t, ok := L.Get(1).(*lua.LTable)
	if !ok {
		argError(L, 1, "sort", "table")
	}
	var cmp *lua.LFunction
	if L.Get(2) != lua.LNil {
		if cmp, ok = L.Get(2).(*lua.LFunction); !ok {
			argError(L, 2, "sort", "function")
		}
	}
	less := func(a, b lua.LValue) bool {
		if err := h.ctx.Spend(); err != nil {
			L.RaiseError("%s", err.Error())
		}
		if cmp == nil {
			return lessThan(L, a, b)
		}
		L.Push(cmp)
		L.Push(a)
		L.Push(b)
		L.Call(2, 1)
		r := lua.LVAsBool(L.Get(-1))
		L.Pop(1)
		return r
	}
	auxsort(L, t, 1, t.Len(), less)
	return 0
}

// auxsort is ltablib.c's auxsort over t[l..u]: median of three, then
// partition around a[u-1], recursing into the smaller half.
func auxsort(L *lua.LState, t *lua.LTable, l, u int, less func(a, b lua.LValue) bool) {
	get := func(i int) lua.LValue { return t.RawGetInt(i) }
	swap := func(i, j int) {
		a, b := get(i), get(j)
		t.RawSetInt(i, b)
		t.RawSetInt(j, a)
	}
	for l < u {
		if less(get(u), get(l)) {
			swap(l, u)
		}
		if u-l == 1 {
			break
		}
		i := (l + u) / 2
		if less(get(i), get(l)) {
			swap(i, l)
		} else if less(get(u), get(i)) {
			swap(i, u)
		}
		if u-l == 2 {
			break
		}
		p := get(i)
		swap(i, u-1)
		i, j := l, u-1
		for {
			for i++; less(get(i), p); i++ {
				if i > u {
					L.RaiseError(msgSortOrder)
				}
			}
			for j--; less(p, get(j)); j-- {
				if j < l {
					L.RaiseError(msgSortOrder)
				}
			}
			if j < i {
				break
			}
			swap(i, j)
		}
		swap(u-1, i)
		if i-l < u-i {
			j, i, l = l, i-1, i+1
		} else {
			j, i, u = i+1, u, i-1
		}
		auxsort(L, t, j, i, less)
	}
}

// LossyRead is a tonumber(text, base) whose value is past 2^53, where a
// Lua number (a double) no longer holds every digit: Value as tostring
// writes it.
type LossyRead struct {
	Text  string
	Base  int
	Value string
}

// lossyNote says, in one sentence, what the reads of one run lost, naming
// each text by whose token it is (names maps a token to its client): two
// texts read as one number are told as equal.
func lossyNote(reads []LossyRead, names map[string]string) string {
	if len(reads) == 0 {
		return ""
	}
	name := func(t string) string {
		if n, ok := names[t]; ok {
			return n + "'s token " + t
		}
		return "'" + t + "'"
	}
	byValue := map[string][]string{}
	var order []string
	for _, r := range reads {
		if !slices.Contains(byValue[r.Value], r.Text) {
			if len(byValue[r.Value]) == 0 {
				order = append(order, r.Value)
			}
			byValue[r.Value] = append(byValue[r.Value], r.Text)
		}
	}
	var parts []string
	for _, v := range order {
		texts := byValue[v]
		var named []string
		for _, t := range texts {
			named = append(named, name(t))
		}
		if len(texts) > 1 {
			parts = append(parts, fmt.Sprintf("tonumber(…, %d) read %s as the same number, %s: the two compare equal", reads[0].Base, strings.Join(named, " and "), v))
		} else {
			parts = append(parts, fmt.Sprintf("tonumber(…, %d) read %s as %s", reads[0].Base, named[0], v))
		}
	}
	return strings.Join(parts, "; ") + " (Redis 7's Lua reads it with C's strtoul: past 2^64-1 every value is 2^64-1, and past 2^53 a Lua number drops the low digits, so every 32-digit hexadecimal token reads as 1.844674407371e+19)"
}

// argError raises Lua 5.1's error for argument n of the builtin fname
// (lauxlib.c luaL_typerror): "bad argument #2 to 'sort' (function
// expected, got number)".
func argError(L *lua.LState, n int, fname, want string) {
	got := "no value"
	if n <= L.GetTop() {
		got = L.Get(n).Type().String()
	}
	L.RaiseError("bad argument #%d to '%s' (%s expected, got %s)", n, fname, want, got)
}

// lessThan is Lua 5.1's a < b (lvm.c luaV_lessthan): numbers and strings
// each among themselves, anything else through a __lt both share, or the
// error, which names no line when a builtin compares (luaG_ordererror).
func lessThan(L *lua.LState, a, b lua.LValue) bool {
	switch x := a.(type) {
	case lua.LNumber:
		if y, ok := b.(lua.LNumber); ok {
			return x < y
		}
	case lua.LString:
		if y, ok := b.(lua.LString); ok {
			return x < y
		}
	}
	ta, tb := a.Type().String(), b.Type().String()
	if ta == tb && L.GetMetaField(a, "__lt") != lua.LNil {
		return L.LessThan(a, b)
	}
	if ta == tb {
		L.Error(lua.LString("attempt to compare two "+ta+" values"), 0)
	}
	L.Error(lua.LString("attempt to compare "+ta+" with "+tb), 0)
	return false
}
