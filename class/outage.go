package class

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Store is the class store's state as one seat's writes found it: Down
// from the first write (or beat) it refused or timed out, until one goes
// through. While it is down the seat keeps the instructor's last step and
// the row (with every answer) and tries them again every Beat, so the
// class is at the leader's place within 2 Beats of the store's return.
type Store struct {
	Down bool `json:"down"`
	// Cause is the first failure's error, one line.
	Cause string `json:"cause,omitempty"`
}

// unreachable reports that err, answered to a call made with ctx, means
// the store did not answer: not an answer about the class (no such
// class, closed) and not the caller's own ctx ending.
func unreachable(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil &&
		!errors.Is(err, ErrNoClass) && !errors.Is(err, ErrClassClosed) &&
		!errors.Is(err, context.Canceled)
}

// OutageLog wraps a hub so that the server says, in one line through
// logf, when its class store stops answering, with the cause: once per
// outage however many sessions' writes fail, and once more only after a
// call has gone through again.
func OutageLog(h Hub, logf func(format string, args ...any)) Hub {
	return &outageLog{Hub: h, logf: logf}
}

type outageLog struct {
	Hub
	logf func(format string, args ...any)

	mu   sync.Mutex
	down bool
	// outages counts the outages logged: a call's answer is news of the
	// store only if no outage began after the call did
	outages int
}

// began is taken as a call starts, for note.
func (o *outageLog) began() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.outages
}

// note takes the answer err to a call made with ctx, begun at at: a
// call that went through but began before the outage now logged (its
// answer came before the store went away, and reached here after a
// failure) says nothing of the store now.
func (o *outageLog) note(ctx context.Context, at int, err error) {
	switch {
	case err == nil:
		o.mu.Lock()
		if at == o.outages {
			o.down = false
		}
		o.mu.Unlock()
	case unreachable(ctx, err):
		o.mu.Lock()
		first := !o.down
		if first {
			o.outages++
		}
		o.down = true
		o.mu.Unlock()
		if first && o.logf != nil {
			o.logf("class store unreachable (%v): instructors' steps and students' answers are kept and sent when it returns", err)
		}
	}
}

func (o *outageLog) Open(ctx context.Context, lead string) (Info, error) {
	n := o.began()
	i, err := o.Hub.Open(ctx, lead)
	o.note(ctx, n, err)
	return i, err
}

func (o *outageLog) OpenNamed(ctx context.Context, lead, name string) (Info, error) {
	n := o.began()
	i, err := o.Hub.OpenNamed(ctx, lead, name)
	o.note(ctx, n, err)
	return i, err
}

func (o *outageLog) CloseClass(ctx context.Context, code string) error {
	n := o.began()
	err := o.Hub.CloseClass(ctx, code)
	o.note(ctx, n, err)
	return err
}

func (o *outageLog) ClearRoster(ctx context.Context, code string) error {
	n := o.began()
	err := o.Hub.ClearRoster(ctx, code)
	o.note(ctx, n, err)
	return err
}

func (o *outageLog) Find(ctx context.Context, code string) (Info, error) {
	n := o.began()
	i, err := o.Hub.Find(ctx, code)
	o.note(ctx, n, err)
	return i, err
}

func (o *outageLog) Put(ctx context.Context, code string, m Member) error {
	n := o.began()
	err := o.Hub.Put(ctx, code, m)
	o.note(ctx, n, err)
	return err
}

func (o *outageLog) SwapLead(ctx context.Context, code string, prev int64, l Lead) (Lead, bool, error) {
	n := o.began()
	cur, won, err := o.Hub.SwapLead(ctx, code, prev, l)
	o.note(ctx, n, err)
	return cur, won, err
}

func (o *outageLog) Roster(ctx context.Context, code string) ([]Member, error) {
	n := o.began()
	ms, err := o.Hub.Roster(ctx, code)
	o.note(ctx, n, err)
	return ms, err
}

func (o *outageLog) Beat(ctx context.Context, code, id string, role Role, at time.Time) error {
	n := o.began()
	err := o.Hub.Beat(ctx, code, id, role, at)
	o.note(ctx, n, err)
	return err
}

func (o *outageLog) LastBeat(ctx context.Context, code, id string, role Role) (time.Time, error) {
	n := o.began()
	t, err := o.Hub.LastBeat(ctx, code, id, role)
	o.note(ctx, n, err)
	return t, err
}

func (o *outageLog) LeadOf(ctx context.Context, code string) (Lead, bool, error) {
	n := o.began()
	l, ok, err := o.Hub.LeadOf(ctx, code)
	o.note(ctx, n, err)
	return l, ok, err
}

func (o *outageLog) Watch(ctx context.Context, code string) (*Watch, error) {
	n := o.began()
	w, err := o.Hub.Watch(ctx, code)
	o.note(ctx, n, err)
	return w, err
}

func (o *outageLog) Match(ctx context.Context, code, id, ref string) error {
	n := o.began()
	err := o.Hub.Match(ctx, code, id, ref)
	o.note(ctx, n, err)
	return err
}

func (o *outageLog) Leading(ctx context.Context) (map[string]Lead, error) {
	n := o.began()
	ls, err := o.Hub.Leading(ctx)
	if !errors.Is(err, ErrTooManyLeading) {
		o.note(ctx, n, err)
	}
	return ls, err
}
