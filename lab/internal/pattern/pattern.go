// Package pattern is Lua's pattern matching for the lab's Lua host: a copy
// of gopher-lua's pm package (github.com/yuin/gopher-lua v1.1.1, pm/pm.go,
// MIT licence, copyright (c) 2015 Yusuke Inuzuka; the licence text is in
// LICENSE beside this file), changed so that a match can be stopped.
//
// What changed from the original: the parser and the compiler are as they
// were; the matching machine counts its steps and asks a Meter, every
// MeterEvery steps, whether it may go on (gopher-lua's own has no count,
// so one string.find on a 200-byte string could run for minutes inside a
// single Lua instruction, out of reach of any instruction budget); it
// refuses to recurse deeper than MaxDepth (each repetition tried is a Go
// call, and the goroutine's stack would grow without bound); and Find
// gives way to Compile and Program.Match, which find one match at a time
// in a string (not a copy of it as bytes), so gmatch and gsub need not
// hold every match at once.
package pattern

import (
	"fmt"
)

const EOS = -1
const _UNKNOWN = -2

/* Error {{{ */

type Error struct {
	Pos     int
	Message string
}

func newError(pos int, message string, args ...interface{}) *Error {
	if len(args) == 0 {
		return &Error{pos, message}
	}
	return &Error{pos, fmt.Sprintf(message, args...)}
}

func (e *Error) Error() string {
	switch e.Pos {
	case EOS:
		return fmt.Sprintf("%s at EOS", e.Message)
	case _UNKNOWN:
		return fmt.Sprintf("%s", e.Message)
	default:
		return fmt.Sprintf("%s at %d", e.Message, e.Pos)
	}
}

/* }}} */

/* MatchData {{{ */

type MatchData struct {
	// captured positions
	// layout
	// xxxx xxxx xxxx xxx0 : caputured positions
	// xxxx xxxx xxxx xxx1 : position captured positions
	captures []uint32
}

func newMatchState() *MatchData { return &MatchData{[]uint32{}} }

func (st *MatchData) addPosCapture(s, pos int) {
	for s+1 >= len(st.captures) {
		st.captures = append(st.captures, 0)
	}
	st.captures[s] = (uint32(pos) << 1) | 1
	st.captures[s+1] = (uint32(pos) << 1) | 1
}

func (st *MatchData) setCapture(s, pos int) uint32 {
	for s >= len(st.captures) {
		st.captures = append(st.captures, 0)
	}
	v := st.captures[s]
	st.captures[s] = (uint32(pos) << 1)
	return v
}

func (st *MatchData) restoreCapture(s int, pos uint32) { st.captures[s] = pos }

func (st *MatchData) CaptureLength() int { return len(st.captures) }

func (st *MatchData) IsPosCapture(idx int) bool { return (st.captures[idx] & 1) == 1 }

func (st *MatchData) Capture(idx int) int { return int(st.captures[idx] >> 1) }

/* }}} */

/* API {{{ */

// Program is a compiled pattern.
type Program struct {
	insts []inst
	// Anchored: the pattern began with '^', so it is tried at its first
	// position only
	Anchored bool
}

// Compile parses and compiles a pattern; a malformed one is an *Error.
func Compile(p string) (prog *Program, err error) {
	defer func() {
		if v := recover(); v != nil {
			if perr, ok := v.(*Error); ok {
				err = perr
			} else {
				panic(v)
			}
		}
	}()
	pat := parsePattern(newScanner([]byte(p)), true)
	return &Program{insts: compilePattern(pat), Anchored: pat.MustHead}, nil
}

// Match looks for the first match in src at or after position from, as
// the original Find did for each match: it returns the match and the
// position the next search starts from (past the match, or one past from
// for an empty match), or nil when there is none (and next is past the
// end). The meter's error, or a malformed pattern's (*Error), is err.
func (p *Program) Match(src string, from int, meter Meter) (md *MatchData, next int, err error) {
	vm := &machine{src: src, insts: p.insts, meter: meter}
	defer func() {
		if v := recover(); v != nil {
			switch e := v.(type) {
			case *Error:
				md, next, err = nil, len(src)+1, e
			case stopped:
				md, next, err = nil, len(src)+1, e.err
			default:
				panic(v)
			}
		}
	}()
	for sp := from; sp <= len(src); {
		m := newMatchState()
		ok, nsp := vm.run(0, sp, m)
		sp++
		if ok {
			if sp < nsp {
				sp = nsp
			}
			return m, sp, nil
		}
		if p.Anchored {
			break
		}
	}
	return nil, len(src) + 1, nil
}

/* }}} */
