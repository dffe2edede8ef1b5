package lab

import (
	"strings"

	lua "github.com/yuin/gopher-lua"

	"locksim/lab/internal/pattern"
)

// The string library's pattern functions, on the lab's copy of gopher-lua's
// matcher (lab/internal/pattern), which counts its steps against the run's
// budget: gopher-lua's own cannot be stopped inside one call. Their
// results are gopher-lua's (the same matcher, the same captures, the same
// positions after an empty match), so a lock behaves as it did; gmatch
// finds one match per call instead of every match up front, and gsub
// checks the size of what it builds before building it.

// patternOf compiles pat, raising a malformed pattern's error.
func patternOf(L *lua.LState, pat string) *pattern.Program {
	p, err := pattern.Compile(pat)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	return p
}

// match runs p on s from from under the run's budget, raising when the
// budget stops it or the pattern is malformed.
func (h *Host) match(L *lua.LState, p *pattern.Program, s string, from int) (*pattern.MatchData, int) {
	md, next, err := p.Match(s, from, &h.ctx)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	return md, next
}

// pushCaptures pushes a match's captures (or the whole match when it has
// none and whole is set) and returns how many it pushed.
func pushCaptures(L *lua.LState, md *pattern.MatchData, s string, whole bool) int {
	if md.CaptureLength() == 2 {
		if !whole {
			return 0
		}
		L.Push(lua.LString(s[md.Capture(0):md.Capture(1)]))
		return 1
	}
	n := 0
	for i := 2; i < md.CaptureLength(); i += 2 {
		if md.IsPosCapture(i) {
			L.Push(lua.LNumber(md.Capture(i)))
		} else {
			L.Push(lua.LString(s[md.Capture(i):md.Capture(i+1)]))
		}
		n++
	}
	return n
}

// strIndex is gopher-lua's luaIndex2StringIndex: a Lua position (1-based,
// negative from the end) as a Go index into s.
func strIndex(s string, i int, start bool) int {
	if start && i != 0 {
		i--
	}
	l := len(s)
	if i < 0 {
		i = l + i + 1
	}
	i = max(0, i)
	if !start && i > l {
		i = l
	}
	return i
}

func (h *Host) strFind(L *lua.LState) int {
	s, pat := L.CheckString(1), L.CheckString(2)
	if len(pat) == 0 {
		L.Push(lua.LNumber(1))
		L.Push(lua.LNumber(0))
		return 2
	}
	init := strIndex(s, L.OptInt(3, 1), true)
	if L.GetTop() == 4 && lua.LVAsBool(L.Get(4)) {
		if init > len(s) {
			L.Push(lua.LNil)
			return 1
		}
		pos := strings.Index(s[init:], pat)
		if pos < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(lua.LNumber(init + pos + 1))
		L.Push(lua.LNumber(init + pos + len(pat)))
		return 2
	}
	md, _ := h.match(L, patternOf(L, pat), s, init)
	if md == nil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(lua.LNumber(md.Capture(0) + 1))
	L.Push(lua.LNumber(md.Capture(1)))
	return 2 + pushCaptures(L, md, s, false)
}

func (h *Host) strMatch(L *lua.LState) int {
	s, pat := L.CheckString(1), L.CheckString(2)
	offset := L.OptInt(3, 1)
	if offset < 0 {
		offset = len(s) + offset + 1
	}
	offset = max(offset-1, 0)
	md, _ := h.match(L, patternOf(L, pat), s, offset)
	if md == nil {
		L.Push(lua.LNil)
		return 1
	}
	return pushCaptures(L, md, s, true)
}

// strGmatch returns an iterator that finds the next match on each call,
// under the budget of the run that calls it.
func (h *Host) strGmatch(L *lua.LState) int {
	s, pat := L.CheckString(1), L.CheckString(2)
	p := patternOf(L, pat)
	pos, done := 0, false
	L.Push(L.NewFunction(func(L *lua.LState) int {
		if done || pos > len(s) {
			return 0
		}
		md, next := h.match(L, p, s, pos)
		pos = next
		if md == nil || p.Anchored {
			done = true
		}
		if md == nil {
			return 0
		}
		return pushCaptures(L, md, s, true)
	}))
	return 1
}

// strGsub replaces as gopher-lua's gsub does (a '%' before a character
// other than a digit or '%' stays in the replacement), charging the run
// for each piece before it is added.
func (h *Host) strGsub(L *lua.LState) int {
	s, pat := L.CheckString(1), L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTTable, lua.LTFunction)
	repl := L.CheckAny(3)
	limit := L.OptInt(4, -1)
	p := patternOf(L, pat)
	// the pieces are slices of s and the replacements: one join at the
	// end makes the result, its size charged first
	var parts []string
	grow := func(piece string) { parts = append(parts, piece) }
	last, n := 0, 0
	for pos := 0; pos <= len(s) && n != limit; {
		md, next := h.match(L, p, s, pos)
		if md == nil {
			break
		}
		n++
		start, end := md.Capture(0), md.Capture(1)
		var piece string
		replace := true
		switch r := repl.(type) {
		case lua.LString:
			piece = h.expand(L, string(r), md, s)
		case *lua.LTable:
			idx := 0
			if md.CaptureLength() > 2 {
				idx = 2
			}
			var v lua.LValue
			if md.IsPosCapture(idx) {
				v = L.GetTable(r, lua.LNumber(md.Capture(idx)))
			} else {
				v = L.GetField(r, s[md.Capture(idx):md.Capture(idx+1)])
			}
			replace, piece = !lua.LVIsFalse(v), lua.LVAsString(v)
		case *lua.LFunction:
			L.Push(r)
			args := pushCaptures(L, md, s, true)
			L.Call(args, 1)
			v := L.Get(-1)
			L.Pop(1)
			replace, piece = !lua.LVIsFalse(v), lua.LVAsString(v)
		}
		if replace {
			grow(s[last:start])
			grow(piece)
			last = max(last, end)
		}
		pos = next
		if p.Anchored {
			break
		}
	}
	if n == 0 {
		L.Push(lua.LString(s))
		L.Push(lua.LNumber(0))
		return 2
	}
	grow(s[last:])
	size := 0
	for _, piece := range parts {
		size += len(piece)
		if size > maxAlloc {
			break
		}
	}
	h.charge(L, size)
	L.Push(lua.LString(strings.Join(parts, "")))
	L.Push(lua.LNumber(n))
	return 2
}

// expand is a string replacement with md's captures put in: %0 to %9 a
// capture (%0 and, with no captures, %1 the whole match), %% a percent
// sign, '%' before anything else kept with it, as gopher-lua does. Its
// size is charged as it grows.
func (h *Host) expand(L *lua.LState, repl string, md *pattern.MatchData, s string) string {
	size := 0
	expandEach(L, repl, md, s, func(piece string) {
		size += len(piece)
		if size > maxAlloc {
			h.charge(L, size)
		}
	})
	h.charge(L, size)
	var b strings.Builder
	b.Grow(size)
	expandEach(L, repl, md, s, func(piece string) { b.WriteString(piece) })
	return b.String()
}

// expandEach calls put with each piece of repl: a literal byte, a
// '%' sequence, a capture.
func expandEach(L *lua.LState, repl string, md *pattern.MatchData, s string, put func(string)) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch {
		case c != '%' || i == len(repl)-1:
			put(repl[i : i+1])
		case repl[i+1] == '%':
			put("%")
			i++
		case repl[i+1] < '0' || repl[i+1] > '9':
			put(repl[i : i+2])
			i++
		default:
			i++
			idx := 2 * int(repl[i]-'0')
			if idx > 2 && idx >= md.CaptureLength() {
				L.RaiseError("invalid capture index")
			}
			if idx >= md.CaptureLength() && idx == 2 {
				idx = 0
			}
			if md.IsPosCapture(idx) {
				put(lua.LNumber(md.Capture(idx)).String())
			} else {
				put(s[md.Capture(idx):md.Capture(idx+1)])
			}
		}
	}
}
