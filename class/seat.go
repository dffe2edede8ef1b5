package class

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"sync"
	"time"

	"locksim/scenes/progress"
)

// Seat is one session's place in a class. It puts the session's roster
// row and, for the instructor, the class's leading place, from a
// goroutine of its own, the newest of each only: a screen hands it what
// changed and never waits on the hub. It puts the row again every
// Refresh, and puts it offline when the session leaves.
type Seat struct {
	hub  Hub
	info Info
	id   string
	ctx  context.Context
	stop context.CancelFunc
	done chan struct{}
	kick chan struct{}

	// before is the member's row in the class before this seat, nil for none
	before *Member

	mu     sync.Mutex
	row    Member
	rowDue bool
	lead   *Lead
	// seen is the version the pending move was made from; won the version
	// of this seat's last move that went in
	seen, won int64
	// prior is the progress the class kept of this member before the
	// seat: what the session's own does not hold is kept in its row
	prior   progress.Progress
	watches []*Watch
	err     error
	// down is set from a write or beat the store refused or timed out
	// until one goes through (see Store)
	down bool
	now  func() time.Time
	// sat is when the seat sat; spent the member's time in the class
	// before it (see Member.Spent)
	sat   time.Time
	spent time.Duration
	// keyPut is the KeyAt of the row last put
	keyPut time.Time
	// matches are the instructor's matches by hand still to put (Match)
	matches map[string]string
	// beats, if not nil, beat the seat in place of a ticker every Beat
	// (see sit)
	beats <-chan time.Time
}

// Sit puts m online in the class with code and returns its seat; ctx
// ends it (as Leave does). now tells the time (nil for time.Now).
func Sit(ctx context.Context, hub Hub, code string, m Member, now func() time.Time) (*Seat, error) {
	return sit(ctx, hub, code, m, now, nil)
}

// sit is Sit with the seat beating at each time beats brings (a test's,
// which sends one when it means the seat to beat), or every Beat when
// beats is nil.
func sit(ctx context.Context, hub Hub, code string, m Member, now func() time.Time, beats <-chan time.Time) (*Seat, error) {
	info, err := hub.Find(ctx, code)
	if err != nil {
		return nil, err
	}
	if !info.Closed.IsZero() {
		return nil, ErrClassClosed
	}
	if now == nil {
		now = time.Now
	}
	// the class's row of this member from before (another server, a
	// restart): its answers stay in the roster, the poll and the report
	// whatever the session's own progress holds
	var prior progress.Progress
	var before *Member
	if roster, err := hub.Roster(ctx, code); err == nil {
		for _, r := range roster {
			if r.ID == m.ID && r.Role == m.Role {
				prior, before = r.Prog, &r
			}
		}
	}
	m = m.Clone() // the caller's progress maps are the caller's
	m.Prog = progress.Merge(prior, m.Prog)
	m.Online, m.Seen = true, now()
	m.V = RowVersion
	if before != nil {
		m.Answers = mergeAnswers(before.Answers, m.Answers)
		m.Watches = before.Watches
	}
	m.Answers = record(m.Answers, m, m.Seen, !m.Following)
	// joining is a key, and the place the session opens on a new step
	m.StepAt, m.KeyAt = m.Seen, m.Seen
	var spent time.Duration
	if before != nil {
		spent = before.Spent
	}
	m.Spent = spent
	if m.Actual == 0 && !m.Revealed {
		m.Actual = -1
	}
	if err := hub.Put(ctx, code, m); err != nil {
		return nil, err
	}
	sctx, stop := context.WithCancel(ctx)
	s := &Seat{hub: hub, info: info, id: newSeatID(), prior: prior, before: before, ctx: sctx, stop: stop, done: make(chan struct{}), kick: make(chan struct{}, 1), row: m, now: now, sat: m.Seen, spent: spent, keyPut: m.KeyAt, beats: beats}
	go s.loop()
	return s, nil
}

// newSeatID names one seat: 16 random hex digits.
func newSeatID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ID names the seat: the By of the places it puts.
func (s *Seat) ID() string { return s.id }

// Info is the class the seat is in.
func (s *Seat) Info() Info { return s.info }

// Before is the class's row of this member from before the seat (a
// session on another server, or before a restart): where they stood and
// whether they followed; ok is false for a member new to the class.
func (s *Seat) Before() (Member, bool) {
	if s.before == nil {
		return Member{}, false
	}
	return *s.before, true
}

// Member is the seat's row as last reported.
func (s *Seat) Member() Member {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.row
}

// Err is the last error the hub answered, nil once a put went through.
func (s *Seat) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Report replaces the row's place, answers, following and progress with
// m's (its id, name and role stay the seat's). It copies m at once: the
// caller may go on changing its progress. An answer at m's place is
// blind unless m follows (see ReportAs).
func (s *Seat) Report(m Member) { s.ReportAs(m, !m.Following) }

// ReportAs is Report with blind the Blind of an answer given at m's
// place (see Answer.Blind and Part.PollHolds).
func (s *Seat) ReportAs(m Member, blind bool) {
	c := m.Clone()
	s.mu.Lock()
	c.Prog = progress.Merge(s.prior, c.Prog)
	c.ID, c.Name, c.Role, c.Online = s.row.ID, s.row.Name, s.row.Role, true
	c.KeyAt, c.StepAt = s.row.KeyAt, s.row.StepAt
	if !samePlace(c, s.row) {
		c.StepAt = s.now()
	}
	c.V = RowVersion
	c.Answers = record(mergeAnswers(c.Answers, s.row.Answers), c, s.now(), blind)
	c.Watches = s.row.Watches // the server's to add (Visited), never the screen's
	s.row, s.rowDue = c, true
	s.mu.Unlock()
	s.poke()
}

// Lead moves the class's leading place to l, made from the place of
// l.Version the session last saw (0 for none): a compare-and-set on that
// version, or on the version of this seat's own last move if that is
// newer (its echo may not have come back yet). A move that loses the race
// is dropped, and the seat's watches get the winning place with Lost
// set.
func (s *Seat) Lead(l Lead) {
	c := l.Clone()
	s.mu.Lock()
	c.By = s.id
	s.seen = l.Version
	s.lead = &c
	s.mu.Unlock()
	s.poke()
}

// Key says the session's learner pressed a key now (by the seat's
// clock): the row's KeyAt, put at once when the hub's is KeyGrain old,
// else with the row's next put.
func (s *Seat) Key() {
	s.mu.Lock()
	now := s.now()
	s.row.KeyAt = now
	due := now.Sub(s.keyPut) >= KeyGrain
	s.rowDue = s.rowDue || due
	s.mu.Unlock()
	if due {
		s.poke()
	}
}

// spentAt is the member's time in the class at now (see Member.Spent).
func (s *Seat) spentAt(now time.Time) time.Duration {
	return s.spent + max(now.Sub(s.sat), 0)
}

func (s *Seat) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Watch subscribes to the class's events (see Hub.Watch) until the seat
// leaves or the watch is closed; it hears too when this seat's move lost
// the race (Event.Lost).
func (s *Seat) Watch() (*Watch, error) {
	w, err := s.hub.Watch(s.ctx, s.info.Code)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.watches = append(s.watches, w)
	s.mu.Unlock()
	return w, nil
}

// Leave puts the row offline and ends the seat's goroutine; it waits for
// that at most until ctx ends.
func (s *Seat) Leave(ctx context.Context) {
	s.stop()
	select {
	case <-s.done:
	case <-ctx.Done():
	}
}

// Left is closed once the seat has left.
func (s *Seat) Left() <-chan struct{} { return s.done }

func (s *Seat) loop() {
	defer close(s.done)
	defer func() {
		// a failure here ends the seat, never the server
		_ = recover()
	}()
	t := time.NewTicker(Refresh)
	defer t.Stop()
	beats := s.beats
	if beats == nil {
		beat := time.NewTicker(Beat)
		defer beat.Stop()
		beats = beat.C
	}
	s.beat()
	for {
		select {
		case <-s.ctx.Done():
			s.mu.Lock()
			row := s.row
			s.mu.Unlock()
			row.Online, row.Seen = false, s.now()
			row.Spent = s.spentAt(row.Seen)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = s.hub.Put(ctx, s.info.Code, row)
			// offline at once, not Gone later
			_ = s.hub.Beat(ctx, s.info.Code, row.ID, row.Role, time.Time{})
			cancel()
			return
		case <-t.C:
			s.mu.Lock()
			s.rowDue = true
			s.mu.Unlock()
		case <-beats:
			s.beat()
			s.mu.Lock()
			// a move or row a failed write left is tried again every
			// beat: when the store returns, the class is at the leader's
			// place within two beats, with no key pressed
			retry := s.lead != nil || s.rowDue && s.err != nil || len(s.matches) > 0
			s.mu.Unlock()
			if !retry {
				continue
			}
		case <-s.kick:
		}
		s.flush()
	}
}

// beat says in the hub that the session is there (see Beat).
func (s *Seat) beat() {
	s.mu.Lock()
	id, role := s.row.ID, s.row.Role
	s.mu.Unlock()
	err := s.hub.Beat(s.ctx, s.info.Code, id, role, s.now())
	s.mu.Lock()
	if err != nil && s.ctx.Err() == nil {
		s.err = err
	}
	s.mu.Unlock()
	s.found(err)
}

// found takes the answer err to one of the seat's writes: the first the
// store refused or timed out, and the first that went through after, are
// news for the seat's watches (KindStore), so its session says the class
// is out of touch, and back.
func (s *Seat) found(err error) {
	s.mu.Lock()
	var e *Store
	switch {
	case err == nil && s.down:
		s.down = false
		e = &Store{}
	case err != nil && !s.down && unreachable(s.ctx, err):
		s.down = true
		e = &Store{Down: true, Cause: err.Error()}
	}
	watches := slices.Clone(s.watches)
	s.mu.Unlock()
	if e == nil {
		return
	}
	for _, w := range watches {
		c := *e
		w.put(Event{Kind: KindStore, Store: &c})
	}
}

// Down reports that the seat's last write or beat found the class store
// unreachable (see Store).
func (s *Seat) Down() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

// WatchRoster is Watch for the roster's viewer (the instructor): the
// roster is read again every Beat and each row whose presence or last
// beat changed is put in the watch, so a row whose session's server died
// goes offline within Gone, and a viewer never judges a row by an old put.
func (s *Seat) WatchRoster() (*Watch, error) {
	return s.watchRoster(nil)
}

// watchRoster is WatchRoster with the roster read at each time polls
// brings (a test's, which sends one when it means the roster read), or
// every Beat when polls is nil.
func (s *Seat) watchRoster(polls <-chan time.Time) (*Watch, error) {
	w, err := s.Watch()
	if err != nil {
		return nil, err
	}
	go func() {
		defer func() { _ = recover() }() // a failure here ends the poll, never the server
		if polls == nil {
			t := time.NewTicker(Beat)
			defer t.Stop()
			polls = t.C
		}
		last := map[string]Member{}
		for {
			select {
			case <-w.Done():
				return
			case <-s.ctx.Done():
				return
			case <-polls:
			}
			ms, err := s.hub.Roster(s.ctx, s.info.Code)
			if err != nil {
				continue // tried again at the next beat
			}
			for _, m := range ms {
				if old, ok := last[m.ID]; ok && old.Online == m.Online && old.Seen.Equal(m.Seen) {
					continue
				}
				last[m.ID] = m
				c := m
				w.put(Event{Kind: KindMember, Member: &c})
			}
		}
	}()
	return w, nil
}

// flush puts what is due: the instructor's place first (followers wait
// for it), then the row.
func (s *Seat) flush() {
	s.mu.Lock()
	// the base is read here, after the last move's answer: the loop puts
	// one move at a time
	lead, base, row, rowDue := s.lead, max(s.seen, s.won), s.row, s.rowDue
	s.lead, s.rowDue = nil, false
	matches := len(s.matches) > 0
	s.mu.Unlock()
	// only a write tried tells whether the store answers
	tried := lead != nil || rowDue || matches
	var err error
	if matches {
		err = s.flushMatches()
	}
	if lead != nil && err == nil {
		var cur Lead
		var won bool
		cur, won, err = s.hub.SwapLead(s.ctx, s.info.Code, base, *lead)
		if err == nil {
			s.mu.Lock()
			if won {
				s.won = max(s.won, cur.Version)
			}
			if !won && cur.By == s.id && cur.Version > base {
				// it lost to this seat's own move, one that went in on a
				// try whose answer was lost (the store went away after
				// the write): made again from there, at the next beat
				s.won = cur.Version
				if s.lead == nil {
					s.lead = lead
				}
				lead, won = nil, true
			}
			watches := slices.Clone(s.watches)
			s.mu.Unlock()
			if !won {
				// the move is dropped, never put again over the winner's
				lead = nil
				if base == 0 {
					// made before the session saw any place (it has just
					// joined): nothing to tell; its watch brings the place
					watches = nil
				}
				for _, w := range watches {
					c := cur
					w.put(Event{Kind: KindLead, Lead: &c, Lost: true})
				}
			}
		}
	}
	if rowDue && err == nil {
		row.Seen = s.now()
		row.Spent = s.spentAt(row.Seen)
		err = s.hub.Put(s.ctx, s.info.Code, row)
	}
	s.mu.Lock()
	if rowDue && err == nil {
		s.keyPut = row.KeyAt
	}
	s.err = err
	if err != nil && s.ctx.Err() == nil {
		// tried again at the next change or refresh
		if lead != nil && s.lead == nil {
			s.lead = lead
		}
		s.rowDue = s.rowDue || rowDue
	}
	s.mu.Unlock()
	if tried && s.ctx.Err() == nil {
		s.found(err)
	}
}

// Roster is every row of the seat's class (see Hub.Roster).
func (s *Seat) Roster(ctx context.Context) ([]Member, error) {
	return s.hub.Roster(ctx, s.info.Code)
}
