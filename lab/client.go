package lab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// The clients of a search, in order: the first starts first.
var clientNames = [3]string{"A", "B", "C"}

// phase is where a client stands in its program: acquire (retrying up to
// the policy's retries), extend (when the lock has one), write to the
// protected resource, release, done.
type phase uint8

const (
	phAcquire phase = iota
	phExtend
	phWrite
	phRelease
	phDone
)

// client is one client's state in a search: plain values, copied with the
// world at every branch.
type client struct {
	phase   phase
	line    int // next line of a Commands part
	last    reply
	tries   int  // refused acquires so far
	wait    bool // its next acquire is a retry: the retry delay passes first
	holds   bool // it acts as holder
	fence   int64
	grant   int // the number of its grant in the run (1 for the first), 0 if none
	crashed bool
	started bool
}

func (c *client) active() bool { return !c.crashed && c.phase != phDone }

type reply struct {
	val any
	err error
}

func (r reply) ok() bool {
	s, isStr := r.val.(string)
	return r.err == nil && isStr && s == "OK"
}

func (r reply) int() (int64, bool) {
	n, ok := r.val.(int64)
	return n, ok && r.err == nil
}

// granted reads an acquire's reply: OK, or an integer above 0 (a Lua
// acquire's integer is the fencing token).
func granted(r reply, lang Lang) (bool, int64) {
	if r.ok() {
		return true, 0
	}
	if n, ok := r.int(); ok && n > 0 {
		if lang == Lua {
			return true, n
		}
		return true, 0
	}
	return false, 0
}

// done reads a release's or an extend's reply: 1, or OK, the reply of a
// renewal in one command (SET key token IFEQ token PX ttl, Redis 8.4's and
// Valkey 8.1's; nil when the key held another value or none).
func done(r reply) bool {
	if r.ok() {
		return true
	}
	n, ok := r.int()
	return ok && n == 1
}

// matches reports whether a reply passes a line's condition.
func matches(c Cond, r reply, token string) bool {
	s, isStr := r.val.(string)
	isStr = isStr && r.err == nil
	switch c.Kind {
	case IfOK:
		return r.ok()
	case IfNil:
		return errors.Is(r.err, redis.Nil)
	case IfNotNil:
		return !errors.Is(r.err, redis.Nil)
	case IfToken:
		return isStr && s == token
	case IfNotToken:
		return !isStr || s != token
	case IfInt:
		n, ok := r.int()
		return ok && n == c.N
	}
	return true
}

// part is a compiled part: a Lua script or Commands lines.
type part struct {
	Part
	script *Script
	lines  []Line
}

func compilePart(p Part) (*part, error) {
	cp := &part{Part: p}
	if p.Lang == Lua {
		s, err := Compile(p)
		if err != nil {
			return nil, err
		}
		cp.script = s
		return cp, nil
	}
	lines, err := ParseCommands(p.Src)
	if err != nil {
		msg := err.Error()
		line := 0
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			n, after, _ := strings.Cut(rest, ": ")
			line, _ = strconv.Atoi(n)
			msg = after
		}
		return nil, &ScriptError{Part: p.Name, File: p.File(), Line: line, Msg: msg, Syntax: true}
	}
	cp.lines = lines
	return cp, nil
}

// program is a lock compiled for its clients.
type program struct {
	lock                     *Lock
	acquire, release, extend *part
}

func compileLock(l *Lock) (*program, error) {
	pr := &program{lock: l}
	var err error
	if pr.acquire, err = compilePart(l.Acquire); err != nil {
		return nil, err
	}
	if pr.release, err = compilePart(l.Release); err != nil {
		return nil, err
	}
	if !l.Extend.Empty() {
		if pr.extend, err = compilePart(l.Extend); err != nil {
			return nil, err
		}
	}
	return pr, nil
}

func (pr *program) partOf(ph phase) *part {
	switch ph {
	case phAcquire:
		return pr.acquire
	case phExtend:
		return pr.extend
	case phRelease:
		return pr.release
	}
	return nil
}

// executor is where a client's commands go: the adversary's own server,
// or a story's run on a backend.
type executor interface {
	// lua runs a Lua part for client i; lost: the client never hears.
	lua(i int, p *part, keys, argv []string, lost bool) reply
	// cmd runs one command of a Commands part for client i.
	cmd(i int, p *part, n int, args []string, lost bool) reply
	// write is client i's write to the protected resource, fenced when
	// fence > 0; it reports whether the resource accepted it.
	write(i int, fence int64) bool
	// wait lets d pass before client i's retry.
	wait(i int, d time.Duration)
}

// step runs client i's next step (one command, or one Lua part, or its
// write) through ex, updating c; lost: the command runs but its reply is
// lost. grants counts the run's grants. It returns the step's label and,
// for a Lua part that cannot run (over budget), its error.
func (pr *program) step(c *client, i int, token string, grants *int, lost bool, ex executor) (string, error) {
	c.started = true
	pol := pr.lock.Policy
	ttl := strconv.FormatInt(pol.TTL.Milliseconds(), 10)
	if c.phase == phWrite {
		ex.write(i, c.fence)
		c.phase = phRelease
		return "write", nil
	}
	p := pr.partOf(c.phase)
	label := p.Name
	if c.phase == phAcquire && c.wait {
		ex.wait(i, pol.RetryDelay)
		c.wait = false
		label = "retry"
	}
	if c.phase == phRelease && (p.Lang == Lua || !strings.EqualFold(p.lines[c.line].Args[0], "GET")) {
		// it sends its release: it no longer acts as holder (a GET that
		// checks the key first is not the release yet, as the ledger reads it)
		c.holds = false
	}
	var r reply
	finished := true
	if p.Lang == Lua {
		r = ex.lua(i, p, []string{LockKey}, []string{token, ttl}, lost)
		var se *ScriptError
		if errors.As(r.err, &se) {
			if se.OverBudget {
				return label, se
			}
			// a Lua error is an error reply to EVAL, as Redis sends it
			r.err = ErrorReply("ERR " + se.Error())
		}
	} else {
		ln := p.lines[c.line]
		label += ": " + strings.ToUpper(ln.Args[0])
		r = ex.cmd(i, p, c.line, expand(ln.Args, LockKey, token, pol.TTL.Milliseconds()), lost)
		c.line++
		if !lost && c.line < len(p.lines) && matches(p.lines[c.line].If, r, token) {
			finished = false
			c.last = r
		}
	}
	if !finished {
		return label, nil
	}
	c.line, c.last = 0, reply{}
	switch c.phase {
	case phAcquire:
		ok, fence := granted(r, p.Lang)
		switch {
		case ok && !lost:
			*grants++
			c.holds, c.fence, c.grant = true, fence, *grants
			c.phase = phWrite
			if pr.extend != nil {
				c.phase = phExtend
			}
		case c.tries < pol.Retries:
			c.tries++
			c.wait = true
		default:
			c.phase = phDone
		}
	case phExtend:
		if done(r) && !lost {
			c.phase = phWrite
		} else {
			// it learns it lost the lock: no write, nothing to release
			c.holds = false
			c.phase = phDone
		}
	case phRelease:
		c.holds = false
		c.phase = phDone
	}
	return label, nil
}

// LockKey is the lock's key, KEYS[1] of every part.
const LockKey = "resource:lock"

// searchExec runs a search's commands on the adversary's server.
type searchExec struct {
	ctx  context.Context
	srv  *Server
	host *Host
	w    *world
	sent reply // the server's reply to the step's command, heard or not
	errs *[]*ScriptError
}

// maxErrors is how many distinct runtime errors a search keeps.
const maxErrors = 3

func (x *searchExec) lua(i int, p *part, keys, argv []string, lost bool) reply {
	v, err := x.host.Eval(x.ctx, p.script, keys, argv)
	x.sent = reply{v, err}
	var rt *ScriptError
	if errors.As(err, &rt) && !rt.OverBudget && x.errs != nil && len(*x.errs) < maxErrors &&
		!slices.ContainsFunc(*x.errs, func(e *ScriptError) bool { return e.Error() == rt.Error() }) {
		*x.errs = append(*x.errs, rt)
	}
	var se *ScriptError
	if lost && !(errors.As(err, &se) && se.OverBudget) {
		return reply{err: errLost}
	}
	return reply{v, err}
}

func (x *searchExec) cmd(i int, p *part, n int, args []string, lost bool) reply {
	var v any
	var err error
	if blocked[strings.ToUpper(args[0])] {
		err = ErrorReply("ERR the lab does not run " + strings.ToUpper(args[0]))
	} else {
		v, err = x.srv.Do(args...)
	}
	x.sent = reply{v, err}
	if lost {
		return reply{err: errLost}
	}
	return reply{v, err}
}

func (x *searchExec) write(i int, fence int64) bool {
	w := x.w
	// the replies of sim's resource scripts: the count of accepted writes,
	// or the stale token refused
	if fence > 0 && fence < w.hiFence {
		x.sent = reply{err: ErrorReply(fmt.Sprintf("STALE token %d, seen %d", fence, w.hiFence))}
		return false
	}
	w.accepted++
	x.sent = reply{val: int64(w.accepted)}
	if fence > w.hiFence {
		w.hiFence = fence
	}
	g := w.c[i].grant
	if g < w.maxGrant {
		w.breakNow(ResourceSafety, fmt.Sprintf("the resource accepted %s's write after a write from a later grant: %s wrote as a stale holder", clientNames[i], clientNames[i]))
	}
	w.maxGrant = max(w.maxGrant, g)
	return true
}

func (x *searchExec) wait(i int, d time.Duration) { x.srv.Advance(d) }

// Compile checks every part of l: a Lua syntax error or a line of a
// Commands part that does not parse is a *ScriptError with its line, for
// the editor to show in place.
func (l *Lock) Compile() error {
	_, err := compileLock(l)
	return err
}
