package serve

import (
	"context"
	"fmt"
	"time"
)

// A claim is what a client asks the server for, as admit weighs it: a
// terminal session (over SSH or in a tab) or a command without one (ssh
// HOST NAME, a web page).
type claim struct {
	id Identity
	// command is set for a command without a terminal
	command bool
	// holder is whose share the claim takes: a key's hash, "web:" and a
	// browser's id, "addr:" and a keyless client's address; "" is counted
	// in the total only (a keyless terminal session: a class behind one
	// NAT shares an address)
	holder string
	// whose names the holder in a refusal: "key", "browser", "address"
	whose string
	// remote is the client's address (its host)
	remote string
	// fresh is set for a client with an identity made for it now: a
	// cookie minted for a tab, a fresh reconnect token for a keyless SSH
	// session. It takes one of its address's new identities (Config.NewPerAddress)
	fresh bool
	// class is the class the session joins (Seater), "" for none; wrong
	// is set when it named a code no class has
	class string
	wrong bool
	// projector is the class whose projector tab this is (/p/TOKEN): it
	// takes one of the class's ProjectorsPerClass, never a student's or
	// an instructor's slot
	projector string
	// open are the classes seated here that the Seater still finds open,
	// asked for a session in no class only (the one that seats are kept
	// from); nil when there is no Seater, and then every class is open
	open map[string]bool
}

// seatWait bounds the Seater's answer.
const seatWait = 5 * time.Second

// ClassSeats is the most sessions one class may have on a server of
// maxSessions terminal sessions, and -class-size's default: every one but
// the slots kept for instructors (62 of 64), so a class alone on the
// server fills it and its instructor still gets in.
func ClassSeats(maxSessions int) int {
	return maxSessions - reservedFor(maxSessions)
}

// CheckClassSize refuses a class size the server cannot seat (more than
// ClassSeats), in one line naming what to change: a class told it has 80
// seats on a server of 64 would fill every student slot and still wait
// for more.
func CheckClassSize(classSize, maxSessions int) error {
	if seats := ClassSeats(maxSessions); classSize > seats {
		return fmt.Errorf("-class-size %d is more than the server can seat: -max-sessions %d keeps %d for instructors, so a class has at most %d (lower -class-size, or raise -max-sessions)",
			classSize, maxSessions, reservedFor(maxSessions), seats)
	}
	return nil
}

// GuessBurst wrong class codes an address may try at once (a class
// mistyping its code), then one each GuessEvery: 28.6 million codes are
// not walked through at 10 a minute.
const (
	GuessBurst = 10
	GuessEvery = 6 * time.Second
)

// guess counts a try of a class code from addr: a wrong one takes one of
// its guesses; with none left, every try (right or wrong) is refused
// until one comes back, and the address is logged, once. s.mu is held.
func (s *Server) guess(addr string, wrong bool) string {
	now := s.clock.Now()
	if !wrong {
		if s.guesses.left(addr, now) >= 1 {
			return ""
		}
	} else if ok, _ := s.guesses.take(addr, now); ok {
		return ""
	}
	if !s.guessers[addr] {
		if len(s.guessers) >= maxAddresses {
			clear(s.guessers)
		}
		s.guessers[addr] = true
		s.cfg.Log.Printf("address %s: %d wrong class codes at once; held to one each %s", addr, GuessBurst, span(GuessEvery))
	}
	wait := s.guesses.wait(addr, now)
	return fmt.Sprintf("locksim: too many wrong class codes from your address; try again in %s, and check the code with the instructor", span(max(wait, time.Second)))
}

// ProjectorsPerClass is how many projector tabs one class may have open
// at once on a server: a room's screen, and one to spare.
const ProjectorsPerClass = 2

// admit is the one door of the server, which both transports call before
// any session work: it counts c in, or returns the one line that refuses
// it (logged here). A terminal session takes a slot of -max-sessions
// (InstructorSlots of them kept for instructors) and one of its holder's
// (-max-sessions-per-key), one of its address's when
// -max-sessions-per-address is set, and, when its identity is new, one
// of its address's new identities (Config.NewPerAddress, NewEvery); a
// projector tab takes one of its class's ProjectorsPerClass instead; a
// command takes one of the commands' own budget and one of its holder's.
// The seats a class on this server may still fill (-class-size less its
// sessions) are kept for it: a session in no class (not an
// instructor's) gets only the rest. No session is ever closed to make
// room. release gives the slots back.
func (s *Server) admit(c claim) (refusal string, release func()) {
	if seater, ok := s.cfg.Class.(Seater); ok && !c.command && c.projector == "" && c.id.User != "" {
		// asked outside the lock: a class kept in Redis is a round trip
		ctx, cancel := context.WithTimeout(s.ctx, seatWait)
		code, wrong, err := seater.Seat(ctx, c.id)
		cancel()
		if err != nil {
			s.cfg.Log.Printf("session %s: class: %v", c.id.ID, err)
		}
		c.class, c.wrong = code, wrong
		if c.class == "" && !c.id.Instructor {
			c.open = s.openClasses(seater)
		}
	}
	line, release := s.take(c)
	if line != "" {
		s.cfg.Log.Printf("session %s refused: %s", c.id.ID, line)
	}
	return line, release
}

func (s *Server) take(c claim) (string, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		// after Close no session is counted in: Close is waiting for them
		return "locksim: the server is shutting down", nil
	}
	if c.projector != "" {
		return s.takeProjector(c.projector)
	}
	if c.wrong || c.class != "" {
		// a wrong code spends one of the address's guesses; with none
		// left, no code is tried from there until the wait is over
		if line := s.guess(c.remote, c.wrong); line != "" {
			return line, nil
		}
	}
	if c.class != "" && s.seated[c.class] >= s.cfg.ClassSize {
		return fmt.Sprintf("locksim: class %s is full (%d sessions at once); ask the instructor", c.class, s.cfg.ClassSize), nil
	}
	if !c.command && s.cfg.SessionsPerAddress > 0 && s.byAddress[c.remote] >= s.cfg.SessionsPerAddress {
		return fmt.Sprintf("locksim: an address may have %d sessions open at once and yours has %d; try again as sessions close", s.cfg.SessionsPerAddress, s.cfg.SessionsPerAddress), nil
	}
	p := &s.terms
	if c.command {
		p = &s.cmds
	}
	if !c.command && c.class == "" && !c.id.Instructor {
		// a session outside a class takes only the seats no class here
		// still expects: a class's students are not locked out of the
		// class they came for by tabs opened elsewhere
		if kept, whom := s.keptForClasses(c.open); kept > 0 && p.others()+kept >= p.open() {
			return fmt.Sprintf("locksim: the server's free sessions are kept for %s; join with a class code, or try again as sessions close", whom), nil
		}
	}

	ok, perKey := p.take(c.holder, c.id.Instructor)
	switch {
	case c.command && perKey:
		return fmt.Sprintf("locksim: one %s may run %d commands at once and yours runs %d; try again in %s, when one has ended or been stopped", c.whose, p.perKey, p.perKey, span(s.cfg.CommandTime)), nil
	case c.command && !ok:
		return fmt.Sprintf("locksim: the server runs its most commands at once (%d); try again in %s, when one has ended or been stopped", p.total, span(s.cfg.CommandTime)), nil
	case perKey && c.whose == "browser":
		return fmt.Sprintf("locksim: a browser may have %d sessions open at once and yours has %d: close a tab, then try again", p.perKey, p.perKey), nil
	case perKey:
		return fmt.Sprintf("locksim: a key may have %d sessions open at once and yours has %d: close one, then try again", p.perKey, p.perKey), nil
	case !ok && p.reserved > 0 && !c.id.Instructor:
		return fmt.Sprintf("locksim: the server is full (%d sessions at once, %d of them kept for instructors); try again in a few minutes, as sessions close", p.total, p.reserved), nil
	case !ok:
		return fmt.Sprintf("locksim: the server is full (%d sessions at once); try again in a few minutes, as sessions close", p.total), nil
	}
	if c.fresh && !c.command {
		// counted last, so that a session refused for another reason
		// takes none of its address's new identities
		if line := s.newIdentity(c.remote); line != "" {
			p.give(c.holder, c.id.Instructor)
			return line, nil
		}
	}
	s.sessions++
	if !c.command {
		s.byAddress[c.remote]++
	}
	if c.class != "" {
		s.seated[c.class]++
	}
	s.wg.Add(1)
	return "", func() {
		s.mu.Lock()
		p.give(c.holder, c.id.Instructor)
		s.sessions--
		if c.class != "" {
			if s.seated[c.class]--; s.seated[c.class] <= 0 {
				delete(s.seated, c.class)
			}
		}
		if !c.command {
			if s.byAddress[c.remote]--; s.byAddress[c.remote] <= 0 {
				delete(s.byAddress, c.remote)
			}
		}
		s.mu.Unlock()
		s.wg.Done()
	}
}

// keptForClasses is how many terminal sessions are kept for the classes
// that have a session on this server, each class's ClassSize less its
// sessions open, and whom for, as a refusal says it ("class k7q2a, which
// has 3 seats left to fill"). A class is counted from its first session
// here to its last (its instructor's session is an instructor's, in no
// class), and only while it is open (open, when not nil: a closed
// class's students stay on the course alone, and its seats are no
// longer kept). s.mu is held.
func (s *Server) keptForClasses(open map[string]bool) (int, string) {
	kept, classes, one := 0, 0, ""
	for code, n := range s.seated {
		if open != nil && !open[code] {
			continue
		}
		if free := s.cfg.ClassSize - n; free > 0 {
			kept += free
			classes++
			one = code
		}
	}
	seats := "seats"
	if kept == 1 {
		seats = "seat"
	}
	if classes == 1 {
		return kept, fmt.Sprintf("class %s, which has %d %s left to fill", one, kept, seats)
	}
	return kept, fmt.Sprintf("%d classes, which have %d %s left to fill", classes, kept, seats)
}

// takeProjector counts a projector tab of class code in, outside the
// terminal sessions' budget; s.mu is held.
func (s *Server) takeProjector(code string) (string, func()) {
	if s.projecting[code] >= ProjectorsPerClass {
		return fmt.Sprintf("locksim: class %s has %d projector tabs open, the most it may have: close one, then try again", code, ProjectorsPerClass), nil
	}
	s.projecting[code]++
	s.sessions++
	s.wg.Add(1)
	return "", func() {
		s.mu.Lock()
		if s.projecting[code]--; s.projecting[code] <= 0 {
			delete(s.projecting, code)
		}
		s.sessions--
		s.mu.Unlock()
		s.wg.Done()
	}
}

// pool is one budget of slots: total in all, perKey for any one holder
// (0: no cap per holder), reserved of total for instructors alone.
// Instructors take the reserved slots first, so that an instructor in
// takes no student's slot while one of them is free.
type pool struct {
	total, perKey, reserved int

	n, instructors int
	by             map[string]int
}

// open is how many slots those who are not instructors may have: total
// less the reserved slots no instructor holds, and, with the instructors
// beyond them, less theirs.
func (p *pool) open() int {
	return p.total - max(p.reserved, p.instructors)
}

// others is how many slots those who are not instructors hold.
func (p *pool) others() int { return p.n - p.instructors }

// take counts holder in, or says why not. holder "" is a client with no
// key the pool can name: it is counted in the total only.
func (p *pool) take(holder string, instructor bool) (ok, perKey bool) {
	if p.perKey > 0 && holder != "" && p.by[holder] >= p.perKey {
		return false, true
	}
	if p.n >= p.total || !instructor && p.others() >= p.open() {
		return false, false
	}
	p.n++
	if instructor {
		p.instructors++
	}
	if holder != "" {
		p.by[holder]++
	}
	return true, false
}

func (p *pool) give(holder string, instructor bool) {
	p.n--
	if instructor {
		p.instructors--
	}
	if holder == "" {
		return
	}
	if p.by[holder]--; p.by[holder] <= 0 {
		delete(p.by, holder)
	}
}

// reservedFor is how many of total slots are kept for instructors: two,
// but never all of them, so a server of one or two sessions still takes
// a student.
func reservedFor(total int) int {
	return max(0, min(InstructorSlots, total-1))
}

// openClasses asks seater which of the classes seated here are still
// open: a closed class's code seats no one (Seat answers "" for it). It
// is asked outside s.mu, a round trip for a class kept in Redis, and
// only for a session in no class, the one kept seats are refused to. A
// class the Seater cannot answer for is taken as open.
func (s *Server) openClasses(seater Seater) map[string]bool {
	s.mu.Lock()
	codes := make([]string, 0, len(s.seated))
	for code := range s.seated {
		codes = append(codes, code)
	}
	s.mu.Unlock()
	open := make(map[string]bool, len(codes))
	for _, code := range codes {
		ctx, cancel := context.WithTimeout(s.ctx, seatWait)
		got, _, err := seater.Seat(ctx, Identity{User: code})
		cancel()
		open[code] = err != nil || got == code
	}
	return open
}
