package lab

import (
	"context"
	"fmt"
	"time"
)

// tooBig reports a command that would leave a value over maxData bytes:
// an argument that big, or an APPEND that would grow a string past it
// (each APPEND copies the whole string, so many small ones cost the
// square of its size).
func (h *Host) tooBig(name string, args []string) bool {
	for _, a := range args {
		if len(a) > maxData {
			return true
		}
	}
	if name == "APPEND" && len(args) == 3 {
		v, _ := h.srv.mr.Get(args[1]) // not a string: "", and APPEND answers WRONGTYPE
		return len(v)+len(args[2]) > maxData
	}
	return false
}

// budgetCtx counts the Lua VM's instructions: gopher-lua asks a state's
// context for Done before each instruction it runs, so Done is where the
// count is kept. The pattern functions spend from the same count (Spend,
// one instruction for every pattern.MeterEvery steps of the matcher). It
// also ends the run at the wall deadline and when the parent context ends
// (both checked every clockEvery instructions), and keeps the bytes the
// run's builtins have made (see Host.charge).
type budgetCtx struct {
	context.Context
	left  int
	until time.Time
	// tick counts instructions down to the next look at the clock
	tick int
	// spent is why the run was stopped over its budget; stop is set when
	// it must stop for any reason (the parent context ended too), so that
	// every later instruction raises again, even under a pcall
	spent error
	stop  bool
	bytes int // bytes the run's builtins and concatenations made
}

// clockEvery is how many instructions pass between two readings of the
// clock and of the parent context.
const clockEvery = 1024

// maxAlloc is the most a run may make, in bytes: strings built by the
// builtins (string.rep, string.format, gsub, table.concat, upper, lower,
// reverse, error, redis.error_reply), by '..', and replies and arguments
// of redis.call, each charged before it is made. So one call, and one
// run, takes at most a sixteenth of a search process's memory cap
// (DefaultChildMemory, 1 GB), and an error's text kept past the run at
// most maxErrorText. What the VM
// allocates for itself (a table's slot, a closure) is a few dozen bytes an
// instruction, so the instruction budget bounds the rest.
const maxAlloc = 64 << 20

// maxErrorText is the most of an error's text the lab keeps: a script's
// error travels into messages, stories and results.json, read by a
// person, and a script may raise one of megabytes (error(string.rep(...))),
// which Redis would send whole. Past it the text is cut, and says so.
const maxErrorText = 4096

// clipError is msg cut to maxErrorText bytes.
func clipError(msg string) string {
	if len(msg) <= maxErrorText {
		return msg
	}
	return msg[:maxErrorText] + fmt.Sprintf("... (%d bytes in all: the lab keeps the first %d)", len(msg), maxErrorText)
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
