package play

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"locksim/lab"
	"locksim/scenes"
	"locksim/scenes/progress"
)

// LabPlace is what a position in the lab carries besides the usual: a
// lab story (scene lab.SceneID) is no scene of the registry, so the lock
// it runs and its schedule come with the position, and opening it builds
// the scene again. Moves is the adversary's shrunk break; none for a lock
// the learner breaks by hand (the learner's moves are the position's Own).
type LabPlace struct {
	// Level is the lab's level ("break:<id>", "fix:<id>"); "" for the
	// learner's own lock.
	Level string    `json:"level,omitempty"`
	Parts []LabPart `json:"parts"`
	// Policy is lab.json's text (lab.Policy's JSON, read back by
	// lab.ParsePolicy): the TTL, the retries and the watchdog shape the
	// story.
	Policy  json.RawMessage `json:"policy"`
	Clients int             `json:"clients"`
	Moves   []LabMove       `json:"moves,omitempty"`
	// Property is the property the break breaks, Why what its last move
	// did to it, Probe set when a new client comes twice the TTL later
	// (a deadlock-freedom break).
	Property string `json:"property,omitempty"`
	Why      string `json:"why,omitempty"`
	Probe    bool   `json:"probe,omitempty"`

	// built is the scene Scene built last, shared by the place's copies
	// (a Position is passed by value, its Lab by pointer) and its clones:
	// a position is checked, coded, opened and disclosed, each asking for
	// its scene, and building one plays the break twice.
	built *labBuilt
}

// labBuilt is the scene a lab place built and what it was built from (the
// place as JSON): a place changed since builds afresh.
type labBuilt struct {
	mu  sync.Mutex
	key string
	sc  *scenes.Scene
	// played is sc's story as the play that found its question ended
	// (lab.Break.VetStory), nil for a lock played by hand
	played *scenes.Played
	err    error
	// fp is the fingerprint Fingerprint made of sc, once fpDone
	fp     [4]byte
	fpErr  error
	fpDone bool
}

// LabPart is one part of the lock: its name (acquire, release, extend),
// its language ("lua" or "redis", as its file's extension) and source.
type LabPart struct {
	Name string `json:"name"`
	Lang string `json:"lang"`
	Src  string `json:"src"`
}

// LabMove is one move of a break's schedule (lab.Move).
type LabMove struct {
	Client string `json:"client,omitempty"`
	Fault  string `json:"fault,omitempty"`
	Label  string `json:"label,omitempty"`
}

// LabBreak is the place of break b, found in level (see LabPlace.Level).
func LabBreak(b *lab.Break, level string) *LabPlace {
	lp := labPlaceOf(&b.Lock, b.Clients, level)
	for _, m := range b.Moves {
		lp.Moves = append(lp.Moves, LabMove{Client: m.Client, Fault: string(m.Fault), Label: m.Label})
	}
	lp.Property, lp.Why, lp.Probe = string(b.Property), b.Why, b.Probe
	return lp
}

// LabHand is the place of lock l played by hand with the given clients,
// in level.
func LabHand(l *lab.Lock, clients int, level string) *LabPlace {
	return labPlaceOf(l, clients, level)
}

func labPlaceOf(l *lab.Lock, clients int, level string) *LabPlace {
	lp := &LabPlace{Level: level, Clients: clients, built: &labBuilt{}}
	for _, p := range []lab.Part{l.Acquire, l.Release, l.Extend} {
		if p.Empty() {
			continue
		}
		lp.Parts = append(lp.Parts, LabPart{Name: p.Name, Lang: p.Lang.Ext()[1:], Src: p.Src})
	}
	lp.Policy, _ = l.Policy.MarshalJSON() // plain fields: it cannot fail
	return lp
}

// Lock is the lock the place runs; an error names what does not read
// (a part of no known name or language, a policy lab.json refuses, a
// script that does not compile).
func (lp *LabPlace) Lock() (*lab.Lock, error) {
	l := &lab.Lock{Extend: lab.Part{Name: lab.PartExtend}}
	for _, p := range lp.Parts {
		part := lab.Part{Name: p.Name, Src: p.Src}
		switch p.Lang {
		case "lua":
			part.Lang = lab.Lua
		case "redis":
			part.Lang = lab.Commands
		default:
			return nil, fmt.Errorf("position: the lab's %s part is in %q, not lua or redis", p.Name, p.Lang)
		}
		switch p.Name {
		case lab.PartAcquire:
			l.Acquire = part
		case lab.PartRelease:
			l.Release = part
		case lab.PartExtend:
			l.Extend = part
		default:
			return nil, fmt.Errorf("position: the lab's lock has no part %q", p.Name)
		}
	}
	if l.Acquire.Empty() || l.Release.Empty() {
		return nil, fmt.Errorf("position: the lab's lock needs an acquire and a release")
	}
	pol, err := lab.ParsePolicy(lp.Policy)
	if err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	l.Policy = pol
	if err := l.Compile(); err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	return l, nil
}

// Scene is the place's story as a scene: the break's, with its
// prediction before the breaking move, or the lock to break by hand. It
// is built once for what the place holds (see LabPlace.built), and each
// call has a copy of its own.
func (lp *LabPlace) Scene() (*scenes.Scene, error) {
	m := lp.built
	if m == nil {
		// a place made by hand, not by LabBreak, LabHand or JSON
		sc, _, err := lp.scene()
		return sc, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fresh(lp); err != nil {
		return nil, err
	}
	c := *m.sc
	return &c, nil
}

// Fingerprint is what of makes of the place's scene and its story as
// played already (a story code's fingerprint, which plays the story only
// if played is nil), made once for what the place holds, as its scene is.
func (lp *LabPlace) Fingerprint(of func(*scenes.Scene, *scenes.Played) ([4]byte, error)) ([4]byte, error) {
	m := lp.built
	if m == nil {
		sc, played, err := lp.scene()
		if err != nil {
			return [4]byte{}, err
		}
		return of(sc, played)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fresh(lp); err != nil {
		return [4]byte{}, err
	}
	if !m.fpDone {
		c := *m.sc
		m.fp, m.fpErr = of(&c, m.played)
		m.fpDone = true
	}
	return m.fp, m.fpErr
}

// fresh builds lp's scene into m unless m holds one built from what lp
// holds now, and returns the error of its build. m.mu is held.
func (m *labBuilt) fresh(lp *LabPlace) error {
	key, err := json.Marshal(lp)
	if err != nil {
		return err
	}
	if m.key != string(key) || m.sc == nil && m.err == nil {
		m.key, m.fp, m.fpErr, m.fpDone = string(key), [4]byte{}, nil, false
		m.sc, m.played, m.err = lp.scene()
	}
	return m.err
}

// scene is Scene, built afresh, and its story as the play that found its
// question ended (nil for a lock played by hand).
func (lp *LabPlace) scene() (*scenes.Scene, *scenes.Played, error) {
	l, err := lp.Lock()
	if err != nil {
		return nil, nil, err
	}
	if lp.Clients < 2 || lp.Clients > 3 {
		return nil, nil, fmt.Errorf("position: a lab story has 2 or 3 clients, not %d", lp.Clients)
	}
	if len(lp.Moves) == 0 {
		// a lock played by hand is a level's, as shipped: the learner's
		// own moves could reach a state no search vetted, and the story
		// runs its scripts with no budget
		id, ok := strings.CutPrefix(lp.Level, "break:")
		lv, found := lab.FindLevel(id)
		if !ok || !found || !sameLock(l, &lv.Lock) {
			return nil, nil, fmt.Errorf("position: a lab story played by hand runs one of the lab's levels as shipped")
		}
		return lab.HandScene(l, lp.Clients), nil, nil
	}
	b := &lab.Break{Property: lab.Property(lp.Property), Lock: *l, Clients: lp.Clients, Probe: lp.Probe, Why: lp.Why}
	if !slices.Contains(lab.AllProperties(), b.Property) {
		return nil, nil, fmt.Errorf("position: the lab's break names no property %q", lp.Property)
	}
	for _, m := range lp.Moves {
		f := lab.Fault(m.Fault)
		if f != "" && !slices.Contains(lab.AllFaults(), f) {
			return nil, nil, fmt.Errorf("position: the lab's break has a fault %q", m.Fault)
		}
		b.Moves = append(b.Moves, lab.Move{Client: m.Client, Fault: f, Label: m.Label})
	}
	sc, played, err := b.VetStory(context.Background())
	if err != nil {
		return nil, nil, fmt.Errorf("position: the lab story does not play within the lab's budget: %v", err)
	}
	return sc, played, nil
}

// UnmarshalJSON reads a place as encoding/json does; the place builds its
// scene once for what it holds (see LabPlace.built).
func (lp *LabPlace) UnmarshalJSON(data []byte) error {
	type plain LabPlace // no UnmarshalJSON of its own
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*lp = LabPlace(p)
	lp.built = &labBuilt{}
	return nil
}

// sameLock reports whether a and b have the same parts, in the same
// languages.
func sameLock(a, b *lab.Lock) bool {
	for _, p := range [][2]lab.Part{{a.Acquire, b.Acquire}, {a.Release, b.Release}, {a.Extend, b.Extend}} {
		if p[0].Empty() != p[1].Empty() || !p[0].Empty() && (p[0].Lang != p[1].Lang || p[0].Src != p[1].Src) {
			return false
		}
	}
	return true
}

// clone is a copy of lp that shares nothing with it; nil for nil.
func (lp *LabPlace) clone() *LabPlace {
	if lp == nil {
		return nil
	}
	c := *lp
	c.Parts, c.Moves = slices.Clone(lp.Parts), slices.Clone(lp.Moves)
	c.Policy = slices.Clone(lp.Policy)
	return &c
}

// Title names the level the story plays, for the story's title line:
// "break this lock: " or "fix this lock: " and the level's title; "" for
// the learner's own lock or a level the lab does not have.
func (lp *LabPlace) Title() string {
	mode, id, ok := strings.Cut(lp.Level, ":")
	lv, found := lab.FindLevel(id)
	if !ok || !found || mode != "break" && mode != "fix" {
		return ""
	}
	return mode + " this lock: " + lv.Title
}

// LabPlace is the lab story the session plays, nil for a scene of the
// course.
func (p *Session) LabPlace() *LabPlace {
	if k, ok := p.kind.(*storyKind); ok {
		return k.lab.clone()
	}
	return nil
}

// LabClosed says that the story of the lab on screen was closed, back to
// the lab: the course's session under it is on screen again, as it was
// (nobody's place if Browse opened it), and the lab's place is forgotten,
// so the lab opens on its page next time, where the learner left it.
func (c *Course) LabClosed() {
	if !c.inLab {
		return
	}
	c.inLab = false
	if len(c.Prog.Lab) > 0 {
		c.Prog.Lab = nil
		c.unsaved = true
	}
}

// KeepLab records s, a story of the learner's own lab, as the lab's place
// (progress.Progress.Lab), which the lab opens again next time; it never
// takes the place of the course's (SaveMoment). A visit, or a session of
// no lab story, is not kept.
func (c *Course) KeepLab(s *Session) {
	if s == nil || c.visit != NotVisiting {
		return
	}
	pos := s.Position()
	if pos.Lab == nil {
		return
	}
	b, err := json.Marshal(pos)
	if err != nil || bytes.Equal(b, c.Prog.Lab) {
		return
	}
	c.Prog.Lab = b
	c.unsaved = true
}

// LabPlace is where the learner left a story of the lab, as saved
// (KeepLab); ok is false for none, or one that no longer reads.
func (c *Course) LabPlace() (Position, bool) {
	if len(c.Prog.Lab) == 0 {
		return Position{}, false
	}
	pos, err := ParsePosition(c.Prog.Lab)
	if err != nil || pos.Lab == nil || pos.Scene != lab.SceneID {
		return Position{}, false
	}
	return pos, true
}

// labApart is p with the lab's place apart from the course's: an older
// locksim saved a story of the lab as the course's place (Moment's scene
// "lab"), which the contents then offered as the last scene. It moves to
// Lab, and the course has no last place (it was not kept).
func labApart(p progress.Progress) progress.Progress {
	if p.Moment.Scene != lab.SceneID {
		return p
	}
	if len(p.Lab) == 0 {
		p.Lab = p.Place
	}
	p.Moment, p.Place = progress.Moment{}, nil
	return p
}
