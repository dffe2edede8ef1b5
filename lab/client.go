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
	phWork // a stretch of the holder's work (Policy.Work), its clock running
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
	wait    bool // its next acquire or release is a retry: the retry delay passes first
	holds   bool // it acts as holder
	fence   int64
	grant   int // the number of its grant in the run (1 for the first), 0 if none
	crashed bool
	started bool
	// nest is how many of its acquires it holds: 2 inside a nested
	// acquire of a reentrant lock
	nest int8
	// workLeft is the work still to do before its write
	workLeft time.Duration
	// renewed: its extend ran since the last stretch of work (the
	// watchdog's renewal, or the one extend of a lock without one)
	renewed bool
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

// renewedGet reads a renewal written SET key token IFEQ token GET PX ttl
// (Redis 8.4, Valkey 8.1): its reply is the value the key held, whether or
// not the SET happened (t_string.c setGenericCommand), so it renewed only
// when that value is the one it compared with, ifeq; nil or another
// client's value set nothing. ifeq is "" for any other command.
func renewedGet(r reply, ifeq string) bool {
	s, isStr := r.val.(string)
	return ifeq != "" && r.err == nil && isStr && s == ifeq
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
	// reentrant: the lock grants its holder a nested acquire (see
	// detectReentrant); its clients then acquire twice and release twice
	reentrant bool
}

// compileRun compiles l for running: compileLock, and whether the lock
// is reentrant, read off a run on a scratch server.
func compileRun(ctx context.Context, l *Lock) (*program, error) {
	pr, err := compileLock(l)
	if err != nil {
		return nil, err
	}
	pr.reentrant = pr.detectReentrant(ctx)
	return pr, nil
}

// compileOn is compileRun with the reentrant run made on srv and host, a
// caller's own, left empty at time 0 after it.
func compileOn(ctx context.Context, l *Lock, srv *Server, host *Host) (*program, error) {
	pr, err := compileLock(l)
	if err != nil {
		return nil, err
	}
	pr.reentrant = pr.reentrantOn(ctx, srv, host)
	srv.Restore(State{})
	return pr, nil
}

// detectReentrant reports a lock whose holder is granted a second,
// nested acquire and still holds the lock after one release: on an empty
// server A acquires twice, releases once, and B's acquire is refused. A
// lock that grants whatever the key holds (SET without NX) fails the
// last: its one release frees it, or B is granted.
func (pr *program) detectReentrant(ctx context.Context) bool {
	srv, err := NewServer()
	if err != nil {
		return false
	}
	defer srv.Close()
	host := NewHost(srv, DefaultBudget())
	defer host.Close()
	return pr.reentrantOn(ctx, srv, host)
}

// reentrantOn is detectReentrant's run on srv, empty at time 0, and host,
// under the default budget whatever host's own.
func (pr *program) reentrantOn(ctx context.Context, srv *Server, host *Host) bool {
	defer func(b Budget) { host.budget = b }(host.budget)
	host.budget = DefaultBudget()
	var errs []*ScriptError
	w := world{n: 2, owner: -1}
	x := &searchExec{ctx: ctx, srv: srv, host: host, w: &w, errs: &errs}
	// run runs client i's part of phase ph as a client starting there,
	// and reports whether it came out of it still going (an acquire
	// granted)
	run := func(i int, ph phase) bool {
		c := client{phase: ph}
		for c.phase == ph && c.active() {
			if _, err := pr.step(&c, i, token(i), &w.grants, false, x); err != nil || c.wait || len(errs) > 0 {
				return false
			}
		}
		return c.phase != phDone
	}
	if !run(0, phAcquire) || !run(0, phAcquire) {
		return false
	}
	run(0, phRelease)
	return len(errs) == 0 && srv.mr.Exists(LockKey) && !run(1, phAcquire)
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
	// work lets d pass while client i works as holder.
	work(i int, d time.Duration)
}

// step runs client i's next step (one command, or one Lua part, or a
// stretch of work, or its write) through ex, updating c; lost: the
// command runs but its reply is lost. grants counts the run's grants. It
// returns the step's label and, for a Lua part that cannot run (over
// budget), its error.
//
// A client's steps: its acquire (again after each refusal, up to the
// policy's retries); for a reentrant lock, a nested acquire; its work,
// when the policy gives it a duration: in stretches of the watchdog's
// period, each followed by the extend (the watchdog's renewal), or in
// one stretch; the extend once, for a lock with one and no watchdog
// renewing it; its write; its release (first the nested acquire's, for
// a reentrant lock).
func (pr *program) step(c *client, i int, token string, grants *int, lost bool, ex executor) (string, error) {
	c.started = true
	pol := pr.lock.Policy
	ttl := strconv.FormatInt(pol.TTL.Milliseconds(), 10)
	switch c.phase {
	case phWrite:
		ex.write(i, c.fence)
		c.phase = phRelease
		return "write", nil
	case phWork:
		d := c.workLeft
		if pr.watchdog() {
			d = min(d, pol.Watchdog)
		}
		ex.work(i, d)
		c.workLeft -= d
		c.renewed = false
		c.phase = pr.afterWork(c)
		return workLabel(d), nil
	}
	p := pr.partOf(c.phase)
	label := p.Name
	if c.phase == phAcquire && c.nest > 0 {
		label = "nested " + label
	}
	if c.phase == phRelease && c.nest > 1 {
		label = "nested " + label
	}
	if c.phase == phExtend && pr.watchdog() && pol.Work > 0 {
		label = "watchdog " + label
	}
	if c.phase == phAcquire && c.wait {
		ex.wait(i, pol.RetryDelay)
		c.wait = false
		label = "retry"
	}
	if c.phase == phRelease && c.wait {
		// a release sent again after its reply was lost (retry_release)
		ex.wait(i, pol.RetryDelay)
		c.wait = false
		label = "retry " + label
	}
	if c.phase == phRelease && c.nest <= 1 && (p.Lang == Lua || !strings.EqualFold(p.lines[c.line].Args[0], "GET")) {
		// it sends its release: it no longer acts as holder (a GET that
		// checks the key first is not the release yet, as the ledger reads it)
		c.holds = false
	}
	var r reply
	finished := true
	// the value a SET … IFEQ … GET line compared with, "" for any other
	// last line: its reply is the old value, which says it renewed only
	// when it equals that value
	ifeqGet := ""
	if p.Lang == Lua {
		r = ex.lua(i, p, []string{LockKey}, []string{token, ttl}, lost)
		var se *ScriptError
		if errors.As(r.err, &se) {
			if se.OverBudget {
				return label, se
			}
			// a Lua error is an error reply to EVAL, as Redis sends it
			r.err = ErrorReply(se.Reply(""))
		}
	} else {
		ln := p.lines[c.line]
		label += ": " + strings.ToUpper(ln.Args[0])
		args := expand(ln.Args, LockKey, token, pol.TTL.Milliseconds())
		r = ex.cmd(i, p, c.line, args, lost)
		if strings.EqualFold(args[0], "SET") && slices.ContainsFunc(args[min(3, len(args)):], func(a string) bool { return strings.EqualFold(a, "GET") }) {
			ifeqGet = setIfeq(args)
		}
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
			c.nest++
			if c.nest > 1 {
				break // the nested acquire: the grant is the first one's
			}
			*grants++
			c.holds, c.fence, c.grant = true, fence, *grants
			c.workLeft = pol.Work
		case c.nest > 0:
			// a nested acquire refused: it learns it lost the lock
			c.holds = false
			c.phase = phDone
			return label, nil
		case c.tries < pol.Retries:
			c.tries++
			c.wait = true
			return label, nil
		default:
			c.phase = phDone
			return label, nil
		}
		if pr.reentrant && c.nest == 1 {
			return label, nil // its nested acquire comes next
		}
		c.phase = pr.afterWork(c)
	case phExtend:
		if (done(r) || renewedGet(r, ifeqGet)) && !lost {
			c.renewed = true
			c.phase = pr.afterWork(c)
		} else {
			// it learns it lost the lock: no write, nothing to release
			c.holds = false
			c.phase = phDone
		}
	case phRelease:
		if lost && pol.RetryRelease {
			// the client heard a timeout, not a reply: it sends the whole
			// release again, from its first command, as a client library
			// retries a command that timed out (retry_release)
			c.wait = true
			return label, nil
		}
		if c.nest > 1 {
			c.nest-- // the nested release: the outer one comes next
			return label, nil
		}
		c.holds = false
		c.phase = phDone
	}
	return label, nil
}

// moveKinds are the kinds of move a client of pr makes besides its
// parts' steps and its write, as the bound's sentence names them.
func (pr *program) moveKinds() []string {
	var out []string
	if pr.lock.Policy.Work > 0 {
		out = append(out, "stretches of work")
		if pr.watchdog() {
			out = append(out, "watchdog renewals")
		}
	}
	if pr.reentrant {
		out = append(out, "nested acquires and releases")
	}
	return out
}

// watchdog reports a lock whose watchdog renews it: a period and an
// extend to run.
func (pr *program) watchdog() bool { return pr.lock.Policy.Watchdog > 0 && pr.extend != nil }

// afterWork is what a holder does next, with c.workLeft of work left: a
// renewal when the watchdog's period has passed and work remains, more
// work, the one extend of a lock with no watchdog, then its write.
func (pr *program) afterWork(c *client) phase {
	switch {
	case c.workLeft > 0 && pr.watchdog() && !c.renewed && c.workLeft < pr.lock.Policy.Work:
		return phExtend
	case c.workLeft > 0:
		return phWork
	case pr.extend != nil && !c.renewed && !(pr.watchdog() && pr.lock.Policy.Work > 0):
		return phExtend
	}
	return phWrite
}

// workLabel is a stretch of work's step label: "work 500ms"; workOf
// reads it back.
func workLabel(d time.Duration) string {
	return "work " + strconv.FormatInt(d.Milliseconds(), 10) + "ms"
}

func workOf(label string) (time.Duration, bool) {
	n, ok := strings.CutPrefix(label, "work ")
	if !ok {
		return 0, false
	}
	ms, err := strconv.ParseInt(strings.TrimSuffix(n, "ms"), 10, 64)
	return time.Duration(ms) * time.Millisecond, err == nil
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
	// waited, if set, is called once a retry's delay has passed, before
	// the command runs
	waited func()
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

func (x *searchExec) wait(i int, d time.Duration) {
	x.srv.Advance(d)
	if x.waited != nil {
		x.waited()
	}
}

func (x *searchExec) work(i int, d time.Duration) { x.srv.Advance(d) }

// Compile checks every part of l: a Lua syntax error or a line of a
// Commands part that does not parse is a *ScriptError with its line, for
// the editor to show in place.
func (l *Lock) Compile() error {
	_, err := compileLock(l)
	return err
}
