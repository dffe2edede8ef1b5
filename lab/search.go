package lab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"locksim/sim"
)

// Progress is a running search's count, reported every few hundred
// schedules.
type Progress struct {
	Explored, Broke int
	Max             int // the bound's MaxSchedules
	// Done estimates the share of the search behind it, 0 to 1, from where
	// the search stands in the tree (each branch weighs the same): for a
	// progress bar; it reaches 1 at the end.
	Done float64
	// Waiting is, for a search that waits for one of a server's Slots
	// search processes to be free, its place in the queue (1: next); 0
	// once it runs, and for a search that never waits.
	Waiting, Slots int
}

// Options tune a search.
type Options struct {
	// Progress, if set, is called from the searching goroutine every 256
	// schedules and once at the end.
	Progress func(Progress)
	// Budget is each script run's budget; zero means DefaultBudget.
	Budget Budget
	// Replay explores by replaying every schedule's prefix from an empty
	// server instead of restoring saved state: slower, for the benchmark
	// that measures what restoring saves.
	Replay bool
}

func bit(p Property) uint8 { return 1 << slices.Index(AllProperties(), p) }

// world is a search's state besides the server's keys: copied at every
// branch.
type world struct {
	c        [3]client
	n        int
	grants   int
	owner    int   // the client whose acquire wrote the lock key's value, -1 for none
	hiFence  int64 // the largest fencing token the resource accepted
	maxGrant int   // the latest grant whose write the resource accepted
	accepted int   // writes the resource accepted
	faults   int
	// pausedHalf: a client has paused for half the TTL on this path
	pausedHalf bool
	breaks     uint8 // properties broken on this path
	// why says, for each property this path broke, what the breaking
	// move did, in one sentence
	why [5]string
}

// breakNow marks p broken on this path, with what did it.
func (w *world) breakNow(p Property, why string) {
	if w.breaks&bit(p) == 0 {
		w.breaks |= bit(p)
		w.why[slices.Index(AllProperties(), p)] = why
	}
}

// Check runs the adversary on l: every schedule of l.Policy.Bound.Clients
// clients, each running acquire, extend (if any), a write to the protected
// resource and release, with up to Bound.Faults faults from
// l.Policy.Faults, up to Bound.Depth moves, depth first, restoring the
// server's state at every branch. It returns a judgement per property in
// l.Policy.Properties. err is a *ScriptError for a lock that cannot run
// (a syntax error, a script over its budget), or ctx's error when
// cancelled; a refused bound is a Report with Refused set.
func Check(ctx context.Context, l *Lock, o Options) (*Report, error) {
	if err := l.Policy.Check(); err != nil {
		return nil, err
	}
	srv, err := NewServer()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	if o.Budget == (Budget{}) {
		o.Budget = DefaultBudget()
	}
	host := NewHost(srv, o.Budget)
	defer host.Close()
	// the runs that read the lock (is it reentrant, does it hand out
	// fencing tokens) share the search's server, emptied after each
	pr, err := compileOn(ctx, l, srv, host)
	if err != nil {
		return nil, err
	}
	fenced := pr.handsOutFences(ctx, srv, host)
	srv.Restore(State{})
	s := &search{ctx: ctx, pr: pr, srv: srv, host: host, o: o, bound: l.Policy.Bound, pol: l.Policy}
	for _, p := range l.Policy.Properties {
		s.judged |= bit(p)
	}
	for k, p := range AllProperties() {
		s.lessons[k] = LessonFaults(p, fenced)
	}
	start := time.Now()
	rep := &Report{Bound: s.bound, Faults: l.Policy.Faults, Moves: pr.moveKinds()}
	if rep.Grants, err = s.grantsWhenFree(); err != nil {
		return nil, err
	}
	if !rep.Grants && s.refusal != nil {
		rep.NoGrant = s.refusal.String() + ": " + s.refusal.Why
	}
	s.initial, err = srv.Save()
	if err != nil {
		return nil, err
	}
	w := world{n: s.bound.Clients, owner: -1}
	_, err = s.dfs(&w, nil)
	rep.Elapsed = time.Since(start)
	switch {
	case errors.Is(err, errRefused):
		rep.Refused = true
	case err != nil:
		return nil, err
	}
	rep.Explored, rep.Broke, rep.Errors = s.explored, s.broke, s.errs
	if o.Progress != nil {
		o.Progress(Progress{Explored: s.explored, Broke: s.broke, Max: s.bound.MaxSchedules, Done: 1})
	}
	var be *sim.Backend // the stories' server, opened for the first break
	defer func() {
		if be != nil {
			_ = be.Close(context.Background())
		}
	}()
	// story plays b's schedule as a story on be: whether its ledger
	// confirms the break, and whether the story asks (confirm)
	story := func(b *Break) (bool, bool, error) {
		// the story runs the lock as the search compiled it, reading b's
		// copy of the lock
		bpr := *pr
		bpr.lock = &b.Lock
		if be == nil {
			var err error
			if be, err = sim.OpenEmbedded(); err != nil {
				return false, false, err
			}
		}
		return confirm(ctx, be, b, &bpr)
	}
	for _, p := range AllProperties() {
		if s.judged&bit(p) == 0 {
			continue
		}
		k := slices.Index(AllProperties(), p)
		v := Judgement{Property: p, Broke: s.brokeBy[k]}
		b := s.best[k]
		v.Lesson = b != nil && !s.own[k] && len(s.lessons[k]) > 0
		switch {
		case rep.Refused:
			v.Status, v.Message = Error, rep.Summary()
		case p == DeadlockFreedom && !rep.Grants && s.refusal != nil:
			b := s.refusal
			b.Lock, b.Clients = *l, s.bound.Clients
			v.Status, v.Break = Fail, b
			v.Message = "broken: " + b.String() + ": " + b.Why
			if v.Ledger, v.Asks, err = story(b); err != nil {
				return nil, err
			}
		case b != nil:
			b.Lock = *l
			b.Clients = s.bound.Clients
			v.Status, v.Break = Fail, b
			v.Message = "broken: " + b.String() + ": " + b.Why
			if len(s.errs) > 0 {
				v.Message += "; and a script raised an error: " + errorsLine(s.errs)
			}
			if v.Ledger, v.Asks, err = story(b); err != nil {
				return nil, err
			}
		case len(s.errs) > 0:
			// a lock whose script fails in some schedule does not keep
			// the property there: it answers an error where the client
			// expected a grant or a release
			v.Status, v.Message = Fail, "a script raised an error: "+errorsLine(s.errs)
		default:
			v.Status, v.Message = Pass, fmt.Sprintf("no break within the bound: all schedules of %d clients with up to %d %s, depth %d%s: %s explored, none broke it",
				rep.Bound.Clients, rep.Bound.Faults, plural(rep.Bound.Faults, "fault", "faults"), rep.Bound.Depth, rep.depthNote(), Thousands(rep.Explored))
		}
		rep.Judgements = append(rep.Judgements, v)
	}
	meBroke := slices.ContainsFunc(rep.Judgements, func(v Judgement) bool { return v.Property == MutualExclusion && v.Status != Pass })
	rep.Lesson = lesson(l.Policy, s.best[0] != nil && s.own[0], meBroke, rep.Grants)
	return rep, nil
}

var errRefused = errors.New("bound refused")

type search struct {
	ctx     context.Context
	pr      *program
	srv     *Server
	host    *Host
	o       Options
	bound   Bound
	pol     Policy
	judged  uint8 // the properties the policy asks about, as bits
	initial State

	explored, broke int
	brokeBy         [5]int
	best            [5]*Break
	// lessons are each property's lesson faults (LessonFaults); own is
	// set once a schedule with none of them broke the property
	lessons [5][]Fault
	own     [5]bool
	// at is where the search stands: at each depth, the branch taken and
	// how many there are
	at [][2]int
	// errs are the first distinct runtime errors of the lock's scripts
	errs []*ScriptError
	// refusal is the schedule that shows a lock that does not grant when
	// free (see grantsWhenFree)
	refusal *Break
	// probed is each server state's probe, by State.key
	probed map[string]bool
	// memo is the tally of each node explored, by nodeKey (not kept when
	// replaying, whose search the tests hold this one's to), at most
	// maxMemo of them
	memo map[[32]byte]*tally
}

// done estimates the share of the tree already searched.
func (s *search) done() float64 {
	f, w := 0.0, 1.0
	for _, a := range s.at {
		w /= float64(a[1])
		f += float64(a[0]) * w
	}
	return f
}

// token is client i's token in a search: fixed per client, as a lock
// handle keeps its value across retries.
func token(i int) string { return "token-" + clientNames[i] }

// canStep reports whether client i may take a step: it is active, and
// (clients being alike) the client before it has started.
func (w *world) canStep(i int) bool {
	return w.c[i].active() && (i == 0 || w.c[i-1].started)
}

func (w *world) anyStep() bool {
	for i := range w.n {
		if w.canStep(i) {
			return true
		}
	}
	return false
}

// children lists the moves possible from w, in the order they are tried:
// steps, then the faults in AllFaults order: pauses of a client that has
// started (the holder, or one between the halves of a release), crashes,
// steps whose reply is lost, the server's clock jump and restart. A fault is tried only if a step can still follow it.
func (s *search) children(w *world, depth int) []Move {
	var out []Move
	for i := range w.n {
		if w.canStep(i) {
			out = append(out, Move{Client: clientNames[i]})
		}
	}
	if w.faults >= s.bound.Faults || depth+2 > s.bound.Depth || len(out) == 0 {
		return out
	}
	for _, f := range []Fault{PauseHalf, PausePast} {
		if !s.pol.Has(f) {
			continue
		}
		for i := range w.n {
			// a second pause of half the TTL, of any client, would let
			// the clock run a whole TTL under a holder: that is
			// PausePast's break, not a new one
			if w.c[i].started && w.c[i].active() && !(f == PauseHalf && w.pausedHalf) {
				out = append(out, Move{Client: clientNames[i], Fault: f})
			}
		}
	}
	if s.pol.Has(Crash) {
		for i := range w.n {
			if w.c[i].started && w.c[i].active() {
				out = append(out, Move{Client: clientNames[i], Fault: Crash})
			}
		}
	}
	if s.pol.Has(LostReply) {
		for i := range w.n {
			if w.canStep(i) && w.c[i].phase != phWrite {
				out = append(out, Move{Client: clientNames[i], Fault: LostReply})
			}
		}
	}
	for _, f := range []Fault{ClockJump, Restart} {
		if s.pol.Has(f) {
			out = append(out, Move{Fault: f})
		}
	}
	return out
}

func (s *search) dfs(w *world, path []Move) (*tally, error) {
	kids := s.children(w, len(path))
	if len(kids) == 0 || len(path) >= s.bound.Depth {
		return s.leaf(w, path)
	}
	var st State
	var err error
	var key [32]byte
	keyed := false
	if !s.o.Replay {
		// the state is saved for the restores between the moves, and
		// names the node for the memo
		if st, err = s.srv.Save(); err != nil {
			if len(kids) > 1 {
				return nil, err
			}
		} else {
			key, keyed = nodeKey(w, len(path), st), true
			if t, ok := s.memo[key]; ok && s.explored+t.explored <= s.bound.MaxSchedules {
				return t, s.reuse(t, path)
			}
		}
	}
	s.at = append(s.at, [2]int{0, len(kids)})
	defer func() { s.at = s.at[:len(s.at)-1] }()
	t := &tally{}
	for k, m := range kids {
		s.at[len(s.at)-1][0] = k
		if k > 0 {
			if s.o.Replay {
				if err := s.replay(path); err != nil {
					return nil, err
				}
			} else {
				s.srv.Restore(st)
			}
		}
		next := *w
		nerr := len(s.errs)
		m, err := s.apply(&next, m)
		if err != nil {
			// a script stopped at its budget ends the search: the error
			// names the schedule that ran into it, so it can be played again
			var se *ScriptError
			if errors.As(err, &se) && se.OverBudget && se.Schedule == nil {
				se.Schedule = append(slices.Clone(path), m)
			}
			return nil, err
		}
		p := append(path[:len(path):len(path)], m)
		for _, e := range s.errs[nerr:] {
			e.Schedule = slices.Clone(p)
		}
		if next.breaks&^w.breaks != 0 {
			s.record(&next, w.breaks, p, false)
			t.found(s, &next, w.breaks, p[len(path):], false)
		}
		sub, err := s.dfs(&next, p)
		if err != nil {
			return nil, err
		}
		t.add(s, m, sub)
	}
	if keyed && len(s.memo) < maxMemo {
		if s.memo == nil {
			s.memo = map[[32]byte]*tally{}
		}
		s.memo[key] = t
	}
	return t, nil
}

// replay puts the server back to the end of path from an empty one.
func (s *search) replay(path []Move) error {
	s.srv.Restore(s.initial)
	w := world{n: s.bound.Clients, owner: -1}
	for _, m := range path {
		if _, err := s.apply(&w, m); err != nil {
			return err
		}
	}
	return nil
}

// apply makes move m on w and the server, judges what it broke, and
// returns m with its label.
func (s *search) apply(w *world, m Move) (Move, error) {
	i := slices.Index(clientNames[:], m.Client)
	ttl := s.pol.TTL
	switch m.Fault {
	case "", LostReply:
		if m.Fault == LostReply {
			w.faults++ // within the bound's faults, as every fault
		}
		c := &w.c[i]
		ph := c.phase
		before, beforeEnds, had := s.lockKey()
		x := &searchExec{ctx: s.ctx, srv: s.srv, host: s.host, w: w, errs: &s.errs}
		// a retry's delay passes within its step: the key as the command
		// finds it is the key after the delay (one that ran out meanwhile
		// was not deleted by the command)
		x.waited = func() { before, beforeEnds, had = s.lockKey() }
		label, err := s.pr.step(c, i, token(i), &w.grants, m.Fault == LostReply, x)
		if err != nil {
			m.Label = label // the move that ran into it, named
			return m, err
		}
		m.Label = label
		m.Reply = replyText(x.sent)
		after, afterEnds, has := s.lockKey()
		changed := had != has || before != after || beforeEnds != afterEnds
		if (ph == phRelease || ph == phExtend) && changed && had && w.owner >= 0 && w.owner != i {
			did := "changed the TTL of"
			switch {
			case !has:
				did = "deleted"
			case before != after:
				did = "overwrote"
			}
			w.breakNow(NoForeignRelease, fmt.Sprintf("%s's %s %s %s's lock", m.Client, label, did, clientNames[w.owner]))
		}
		holders := []string{}
		switch {
		case !has:
			w.owner = -1
		case !had || before != after:
			w.owner = i // it wrote the key's value: the lock is now its own
		}
		if ph == phAcquire && c.phase == phDone && c.grant == 0 && !c.crashed && has && w.owner == i {
			w.breakNow(NoLeaseWasted, wastedWhy(m.Client))
		}
		for k := range w.n {
			if w.c[k].holds && !w.c[k].crashed {
				holders = append(holders, clientNames[k])
			}
		}
		if len(holders) > 1 {
			w.breakNow(MutualExclusion, strings.Join(holders, " and ")+" act as holder at the same time")
		}
		return m, nil
	case PauseHalf:
		w.pausedHalf = true
		s.srv.Advance(ttl / 2)
		m.Label = "pause for half the TTL"
	case PausePast, ClockJump:
		s.srv.Advance(ttl + time.Millisecond)
		m.Label = "past the TTL"
	case Crash:
		w.c[i].crashed = true
		w.c[i].holds = false
		m.Label = "crash"
	case Restart:
		s.srv.Flush()
		m.Label = "restart without persistence"
	}
	w.faults++
	if _, _, has := s.lockKey(); !has {
		w.owner = -1
	}
	return m, nil
}

// lockKey reads the lock key's value and when it expires (server time; 0
// for no TTL) straight from the server. The deadline, not the TTL left,
// so that time passing within a step (a retry's delay) changes nothing.
func (s *search) lockKey() (string, time.Duration, bool) {
	db := s.srv.mr.DB(0)
	if db.Type(LockKey) == "" {
		return "", 0, false
	}
	v := valueIn(db, LockKey)
	ttl := db.TTL(LockKey)
	if ttl <= 0 {
		return v, 0, true
	}
	// to the millisecond: Advance's nanosecond for Redis's expiry
	// boundary is not a change of the key
	return v, (s.srv.Now() + ttl).Truncate(time.Millisecond), true
}

// leaf counts a schedule; a complete one (every client finished or
// crashed) is probed for deadlock freedom.
func (s *search) leaf(w *world, path []Move) (*tally, error) {
	t := &tally{explored: 1}
	if s.judged&bit(DeadlockFreedom) != 0 && !w.anyStep() {
		nerr := len(s.errs)
		ok, err := s.probe()
		if err != nil {
			var se *ScriptError
			if errors.As(err, &se) && se.OverBudget && se.Schedule == nil {
				se.Schedule, se.Probe = slices.Clone(path), true
			}
			return nil, err
		}
		for _, e := range s.errs[nerr:] {
			e.Schedule, e.Probe = slices.Clone(path), true
		}
		if !ok {
			before := w.breaks
			why := "every client is done, yet a new client is still refused twice the TTL later"
			if _, ends, has := s.lockKey(); has && ends == 0 {
				why = "every client is done and the lock key is left with no TTL: nobody can ever take the lock"
			}
			w.breakNow(DeadlockFreedom, why)
			if before&bit(DeadlockFreedom) == 0 {
				s.record(w, before, path, true)
				t.found(s, w, before, nil, true)
			}
		}
	}
	s.explored++
	if w.breaks&s.judged != 0 {
		s.broke++
		t.broke++
	}
	for k, p := range AllProperties() {
		if w.breaks&bit(p) != 0 {
			s.brokeBy[k]++
			t.brokeBy[k]++
		}
	}
	if s.explored > s.bound.MaxSchedules {
		return nil, errRefused
	}
	if s.explored%256 == 0 {
		if s.o.Progress != nil {
			s.o.Progress(Progress{Explored: s.explored, Broke: s.broke, Max: s.bound.MaxSchedules, Done: s.done()})
		}
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// probe: twice the TTL later, can a new client take the lock? Its answer
// depends on the server's keys and clock alone (a fresh client, the same
// scripts), and many schedules end in the same state: each state is probed
// once per search, unless its probe raised an error (which is reported
// with the schedule that ran into it).
func (s *search) probe() (bool, error) {
	st, err := s.srv.Save()
	if err != nil {
		return false, err
	}
	key := st.key()
	if ok, seen := s.probed[key]; seen {
		return ok, nil
	}
	defer s.srv.Restore(st)
	nerr := len(s.errs)
	ok, err := s.probeFrom()
	if err == nil && len(s.errs) == nerr {
		if s.probed == nil {
			s.probed = map[string]bool{}
		}
		s.probed[key] = ok
	}
	return ok, err
}

// probeFrom runs the probe on the server as it is.
func (s *search) probeFrom() (bool, error) {
	s.srv.Advance(2 * s.pol.TTL)
	w := world{n: 1, owner: -1}
	x := &searchExec{ctx: s.ctx, srv: s.srv, host: s.host, w: &w, errs: &s.errs}
	c := &w.c[0]
	for c.phase == phAcquire && !c.wait {
		if _, err := s.pr.step(c, 0, "token-probe", &w.grants, false, x); err != nil {
			return false, err
		}
	}
	return c.holds, nil
}

// wastedWhy is what broke no-lease-wasted: name gave up acquiring while
// the lock key holds what its own acquire wrote.
func wastedWhy(name string) string {
	return name + " gave up acquiring, yet the lock key holds the value " + name + "'s own acquire wrote: a lease nobody uses until its TTL runs out"
}
