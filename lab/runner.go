// The seam between the adversary's search and where it runs: Check in
// this process (the lab on one's own terminal, the tests), or Child, the
// same search in a process of its own under OS limits (the lab served
// over SSH, where one session's lock must not hold the cores or the
// memory every other session shares).

package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"locksim/runner"
)

// Runner runs the adversary's search of a lock, as Check does and with
// its results: Check itself, or a Child's Run.
type Runner func(ctx context.Context, l *Lock, o Options) (*Report, error)

// ErrLimit is wrapped by the error of a search a Child's limit ended: its
// wall time, its resident memory or its CPU time.
var ErrLimit = errors.New("the search was stopped")

// The limits of a search in a child process by default: two minutes of
// wall time (the largest bound is about a minute of searching on a quiet
// core, and the child runs at the lowest priority), and 1 GB of resident
// memory (a script may make 64 MB a run; a -race build's shadow memory
// takes several times a plain one's).
const (
	DefaultChildWall   = 2 * time.Minute
	DefaultChildMemory = 1024
)

// Child runs searches in a process of their own: Start's process, which
// must call runner.Enter and then serve ServeChild on its stdin and
// stdout (locksim's hidden verb -lab-child). It runs under runner's
// limits (Limits): killed at Wall (0: DefaultChildWall), at MemoryMB of
// resident memory (0: DefaultChildMemory) and when the search's context
// ends, with a CPU rlimit of twice Wall and a second, at nice Nice (0:
// unchanged), and dying with the parent, each where the OS allows.
type Child struct {
	Start    func() *exec.Cmd
	Wall     time.Duration
	MemoryMB int
	Nice     int
}

// Limits are the runner's limits c's searches run under.
func (c Child) Limits() runner.Limits {
	l := runner.Limits{Wall: c.Wall, MemoryMB: c.MemoryMB, Nice: c.Nice}
	if l.Wall <= 0 {
		l.Wall = DefaultChildWall
	}
	if l.MemoryMB <= 0 {
		l.MemoryMB = DefaultChildMemory
	}
	// the backstop for a parent that cannot kill it: twice the wall time,
	// so that the collector's work on a second core does not end a search
	// the wall limit would have let finish
	l.CPU = 2*int((l.Wall+time.Second-1)/time.Second) + 1
	return l
}

// childRequest is what the parent writes on the child's stdin: the lock
// (the policy as its fields, not as lab.json, so nothing is lost or
// defaulted on the way) and the scripts' budget.
type childRequest struct {
	Acquire, Release, Extend Part
	Policy                   wirePolicy
	Budget                   Budget
}

// wirePolicy is Policy without its lab.json form: every field as it is.
type wirePolicy Policy

// childMsg is one line the child writes on stdout: a progress count, and
// last the report, or the script error or other error that ended the
// search.
type childMsg struct {
	Progress *Progress    `json:",omitempty"`
	Report   *Report      `json:",omitempty"`
	Script   *ScriptError `json:",omitempty"`
	Err      string       `json:",omitempty"`
}

// maxChildOutput bounds what the parent reads of a child's stdout: a
// report is a few kB; more is a fault, and the child is killed.
const maxChildOutput = 16 << 20

// Run is a Runner: l searched in the child under c's limits, its progress
// passed on to o.Progress as it comes. Its error is ctx's once ctx ended
// (the child killed), one wrapping ErrLimit when a limit ended it, a
// *ScriptError or the search's own error as Check gives them, or why the
// child could not run.
func (c Child) Run(ctx context.Context, l *Lock, o Options) (*Report, error) {
	req, err := json.Marshal(childRequest{Acquire: l.Acquire, Release: l.Release, Extend: l.Extend,
		Policy: wirePolicy(l.Policy), Budget: o.Budget})
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := c.Start()
	cmd.Stdin = bytes.NewReader(req)
	stderr := &tail{max: 4 << 10}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p, err := runner.Start(ctx, cmd, c.Limits())
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("the search's process cannot start: %w", err)
	}

	var last childMsg
	dec := json.NewDecoder(bufio.NewReader(io.LimitReader(out, maxChildOutput)))
	var readErr error
	for {
		var m childMsg
		if readErr = dec.Decode(&m); readErr != nil {
			break
		}
		if m.Progress != nil {
			if o.Progress != nil {
				o.Progress(*m.Progress)
			}
			continue
		}
		last = m
	}
	if !errors.Is(readErr, io.EOF) {
		// garbage or too much: the child is not the search it should be
		p.Kill()
	}
	_, _ = io.Copy(io.Discard, out)
	werr := p.Wait()
	var limit *runner.LimitError
	switch {
	case errors.As(werr, &limit):
		return nil, fmt.Errorf("%w: %v", ErrLimit, limit)
	case ctx.Err() != nil && errors.Is(werr, ctx.Err()):
		return nil, werr
	}
	switch {
	case last.Report != nil:
		for i := range last.Report.Judgements {
			if b := last.Report.Judgements[i].Break; b != nil {
				b.Lock = *l // the child sent none: the parent has it
			}
		}
		return last.Report, nil
	case last.Script != nil:
		return nil, last.Script
	case last.Err != "":
		return nil, errors.New(last.Err)
	case !errors.Is(readErr, io.EOF):
		return nil, fmt.Errorf("the search's process sent what is not a report: %v", readErr)
	}
	line := strings.TrimSpace(stderr.String())
	if line == "" {
		line = fmt.Sprint(werr)
	}
	return nil, fmt.Errorf("the search's process ended without a report: %s", line)
}

// ServeChild is the child's side of Child.Run: it reads the request on
// in, runs Check and writes the progress and the outcome on out, one
// JSON value a line. It returns an error only when the request cannot be
// read; the search's own errors go to out.
func ServeChild(ctx context.Context, in io.Reader, out io.Writer) error {
	var req childRequest
	data, err := io.ReadAll(io.LimitReader(in, 4<<20))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return fmt.Errorf("the search's request cannot be read: %v", err)
	}
	l := &Lock{Acquire: req.Acquire, Release: req.Release, Extend: req.Extend, Policy: Policy(req.Policy)}
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	send := func(m childMsg) {
		_ = enc.Encode(m)
		_ = w.Flush()
	}
	rep, err := func() (rep *Report, err error) {
		// a fault in locksim ends the search with its word, as it does in
		// a session's own process (play.Search), not with a stack trace
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("the search stopped on a fault in locksim: %v", r)
			}
		}()
		return Check(ctx, l, Options{Budget: req.Budget, Progress: func(p Progress) { send(childMsg{Progress: &p}) }})
	}()
	var se *ScriptError
	switch {
	case errors.As(err, &se):
		send(childMsg{Script: se})
	case err != nil:
		send(childMsg{Err: err.Error()})
	default:
		for i := range rep.Judgements {
			if b := rep.Judgements[i].Break; b != nil {
				b.Lock = Lock{} // the parent has it
			}
		}
		send(childMsg{Report: rep})
	}
	return nil
}

// tail keeps the last max bytes written to it: a child's stderr, for the
// line that says why it failed.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
