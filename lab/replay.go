package lab

import (
	"context"
	"fmt"
	"slices"
)

// Vet plays b's moves once in the lab's own Lua host, under its budget,
// and returns the error that stops them: a script over its budget (a
// *ScriptError), a move its client cannot make. A story of b runs the
// scripts through the embedded server's EVAL, which answers them in the
// same host (see storyHost); a break that came in a story code is still
// vetted here before it opens, so a pasted code that cannot be played is
// refused rather than shown half. The moves take the labels their play
// gives them, so a story never trusts a label a code carried (a stretch
// of work's label sets how far its story's clock moves).
func (b *Break) Vet(ctx context.Context) error {
	_, err := b.vet(ctx)
	return err
}

// vet is Vet, and b's lock as its play compiled it for running.
func (b *Break) vet(ctx context.Context) (*program, error) {
	out, _, pr, err := playOf(ctx, &b.Lock, b.Clients, b.Moves)
	if err != nil {
		return nil, err
	}
	for i := range b.Moves {
		b.Moves[i].Label, b.Moves[i].Reply = out[i].Label, out[i].Reply
	}
	// the program reads b's own copy of the lock
	c := *pr
	c.lock = &b.Lock
	return &c, nil
}

// play applies moves to a fresh server with clients clients and returns
// them labelled, with their replies, and the properties they broke. A
// move its client cannot make is an error.
func play(ctx context.Context, l *Lock, clients int, moves []Move) ([]Move, []Property, error) {
	out, broken, _, err := playOf(ctx, l, clients, moves)
	return out, broken, err
}

// playOf is play, and l compiled for running, when the moves play.
func playOf(ctx context.Context, l *Lock, clients int, moves []Move) ([]Move, []Property, *program, error) {
	srv, err := NewServer()
	if err != nil {
		return nil, nil, nil, err
	}
	defer srv.Close()
	host := NewHost(srv, DefaultBudget())
	defer host.Close()
	pr, err := compileOn(ctx, l, srv, host)
	if err != nil {
		return nil, nil, nil, err
	}
	s := &search{ctx: ctx, pr: pr, srv: srv, host: host, pol: l.Policy, bound: l.Policy.Bound}
	w := world{n: clients, owner: -1}
	var out []Move
	for _, m := range moves {
		if i := slices.Index(clientNames[:], m.Client); m.IsStep() && (i < 0 || i >= clients || !w.c[i].active()) {
			return out, nil, nil, fmt.Errorf("%s cannot step", m.Client)
		}
		m, err := s.apply(&w, m)
		if err != nil {
			return out, nil, nil, err
		}
		out = append(out, m)
	}
	var broken []Property
	for _, p := range AllProperties() {
		if w.breaks&bit(p) != 0 {
			broken = append(broken, p)
		}
	}
	return out, broken, pr, nil
}

// HandsOutFences reports whether l's acquire hands out fencing tokens
// as the search reads them: on an empty server, A's acquire returns an
// integer above 0 (a Lua acquire), and once A has released, B's acquire
// returns a larger one. An acquire that returns 1 for every grant (a
// reentrant lock's count) is no fencing token. False when it cannot run.
func HandsOutFences(ctx context.Context, l *Lock) bool {
	if l.Acquire.Lang != Lua {
		return false
	}
	srv, err := NewServer()
	if err != nil {
		return false
	}
	defer srv.Close()
	host := NewHost(srv, DefaultBudget())
	defer host.Close()
	pr, err := compileOn(ctx, l, srv, host)
	if err != nil {
		return false
	}
	return pr.handsOutFences(ctx, srv, host)
}

// handsOutFences is HandsOutFences's run on srv, empty at time 0, and
// host, under the default budget whatever host's own.
func (pr *program) handsOutFences(ctx context.Context, srv *Server, host *Host) bool {
	if pr.lock.Acquire.Lang != Lua {
		return false
	}
	defer func(b Budget) { host.budget = b }(host.budget)
	host.budget = DefaultBudget()
	w := world{n: 2, owner: -1}
	var errs []*ScriptError
	x := &searchExec{ctx: ctx, srv: srv, host: host, w: &w, errs: &errs}
	for i := range 2 {
		c := &w.c[i]
		for c.active() {
			if _, err := pr.step(c, i, token(i), &w.grants, false, x); err != nil {
				return false
			}
			if i == 1 && c.phase != phAcquire {
				break
			}
		}
	}
	return len(errs) == 0 && w.c[0].fence > 0 && w.c[1].fence > w.c[0].fence
}
