package class

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Memory is a Hub kept in this process: one server serves the class.
// Its zero value is not ready; use NewMemory.
type Memory struct {
	mu      sync.Mutex
	classes map[string]*room
	now     func() time.Time
	// led is each class's instructor's last beat, by code: the index
	// Leading reads (a class whose instructor left or stopped beating
	// drops out of it)
	led map[string]time.Time

	// kept on disk (OpenDir): the directory, the classes changed since
	// the last save, the saver's stop and end, its last error
	dir       string
	dirty     map[string]bool
	stop      chan struct{}
	saved     chan struct{}
	closeOnce sync.Once
	err       error
}

// room is one class in memory.
type room struct {
	info     Info
	lead     *Lead
	members  map[string]Member
	beats    map[string]time.Time // by beatField
	watchers map[*Watch]struct{}
	// matches are the instructor's matches by hand: member id → the
	// school roster's row (Hub.Match)
	matches map[string]string
}

// NewMemory is an empty hub in memory; now tells the time (nil for time.Now).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{classes: map[string]*room{}, now: now, led: map[string]time.Time{}}
}

// FindNamed is the open class named name that lead leads, or ErrNoClass.
func (h *Memory) FindNamed(_ context.Context, lead, name string) (Info, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if info, ok := h.named(lead, name); ok {
		return info, nil
	}
	return Info{}, ErrNoClass
}

// named is the open class named name that lead leads; h.mu is held.
func (h *Memory) named(lead, name string) (Info, bool) {
	for _, r := range h.classes {
		if r.info.Lead == lead && r.info.Name == name && r.info.Closed.IsZero() {
			return r.info, true
		}
	}
	return Info{}, false
}

// Open is OpenNamed with no name.
func (h *Memory) Open(ctx context.Context, lead string) (Info, error) {
	return h.OpenNamed(ctx, lead, "")
}

// OpenNamed opens the class named name that lead leads, or a new one
// under a code no class has.
func (h *Memory) OpenNamed(_ context.Context, lead, name string) (Info, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if info, ok := h.named(lead, name); ok {
		return info, nil
	}
	for range 100 {
		code := newCode()
		if _, taken := h.classes[code]; taken {
			continue
		}
		info := Info{Code: code, Name: name, Lead: lead, Opened: h.now()}
		h.changed(code)
		h.classes[code] = &room{info: info, members: map[string]Member{}, beats: map[string]time.Time{}, watchers: map[*Watch]struct{}{}}
		return info, nil
	}
	return Info{}, fmt.Errorf("no free class code after 100 draws")
}

func (h *Memory) room(code string) (*room, error) {
	r, ok := h.classes[code]
	if !ok {
		return nil, ErrNoClass
	}
	return r, nil
}

// CloseClass closes class code.
func (h *Memory) CloseClass(_ context.Context, code string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return err
	}
	if r.info.Closed.IsZero() {
		r.info.Closed = h.now()
	}
	delete(h.led, code) // a closed class is led no more
	h.changed(code)
	return nil
}

// ClearRoster deletes every row of class code.
func (h *Memory) ClearRoster(_ context.Context, code string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return err
	}
	r.members, r.beats, r.matches = map[string]Member{}, map[string]time.Time{}, nil
	h.changed(code)
	return nil
}

// Find is the class with code.
func (h *Memory) Find(_ context.Context, code string) (Info, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return Info{}, err
	}
	return r.info, nil
}

// storable is the error a Redis hub meets writing row (json.Marshal's):
// the memory hub refuses what it refuses.
func storable(row any) error {
	_, err := json.Marshal(row)
	return err
}

// Put records m's row and tells the watchers.
func (h *Memory) Put(_ context.Context, code string, m Member) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return err
	}
	// refused as a Redis hub refuses it: a row JSON cannot hold (an
	// invalid raw place in its progress) would be kept here, and a class
	// kept on disk could write its file no more
	if err := storable(m); err != nil {
		return err
	}
	// a copy of its own, as a Redis hub keeps: the caller's progress maps
	// go on changing
	m = m.Clone()
	m.Row = "" // the class's matches keep it (Match)
	r.members[m.ID] = m
	h.changed(code)
	for w := range r.watchers {
		c := m
		w.put(Event{Kind: KindMember, Member: &c})
	}
	return nil
}

// SwapLead puts l if the place there is of version prev (or there is
// none), and tells the watchers.
func (h *Memory) SwapLead(_ context.Context, code string, prev int64, l Lead) (Lead, bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return Lead{}, false, err
	}
	if err := storable(l); err != nil {
		return Lead{}, false, err // as a Redis hub refuses it (Put)
	}
	// with no place there (none yet, or one the hub lost) any move wins
	if r.lead != nil && r.lead.Version != prev {
		return r.lead.Clone(), false, nil
	}
	l.Version, l.Seq = prev+1, prev+1
	l = l.Clone()
	r.lead = &l
	h.changed(code)
	for w := range r.watchers {
		c := l
		w.put(Event{Kind: KindLead, Lead: &c})
	}
	return l, true, nil
}

// Roster is every row, by name.
func (h *Memory) Roster(_ context.Context, code string) ([]Member, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return nil, err
	}
	// the rows are never changed in place (Put replaces them), but their
	// maps are shared: a reader gets copies
	var out []Member
	for _, m := range r.members {
		c := m.Clone()
		migrate(&c)
		out = append(out, c)
	}
	withBeats(out, r.beats, h.now())
	withMatches(out, r.matches)
	sortRoster(out)
	return out, nil
}

// Match keeps member id's match by hand and tells the watchers.
func (h *Memory) Match(_ context.Context, code, id, ref string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return err
	}
	if ref == "" {
		delete(r.matches, id)
	} else {
		if r.matches == nil {
			r.matches = map[string]string{}
		}
		r.matches[id] = ref
	}
	h.changed(code)
	for w := range r.watchers {
		w.put(Event{Kind: KindMatch, Match: &Matched{ID: id, Ref: ref}})
	}
	return nil
}

// Beat keeps member id's last beat.
func (h *Memory) Beat(_ context.Context, code, id string, role Role, at time.Time) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return err
	}
	if at.IsZero() {
		delete(r.beats, beatField(id, role))
	} else {
		r.beats[beatField(id, role)] = at
	}
	if role == Instructor && !at.IsZero() {
		// the index Leading reads; a session that leaves takes nothing
		// from it: another of the instructor's (one beat field) may go on
		// beating, and the class leaves it Gone after the last beat
		h.led[code] = at
	}
	return nil
}

// Leading is the place of every open class whose instructor beats now,
// from the index their beats keep (led); one whose beat is Gone old
// leaves the index here.
func (h *Memory) Leading(context.Context) (map[string]Lead, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	out := map[string]Lead{}
	for code, at := range h.led {
		r, ok := h.classes[code]
		if !ok || now.Sub(at) >= Gone {
			delete(h.led, code)
			continue
		}
		if !r.info.Closed.IsZero() || r.lead == nil {
			continue
		}
		if len(out) == MaxLeading {
			return nil, ErrTooManyLeading
		}
		out[code] = r.lead.Clone()
	}
	return out, nil
}

// LastBeat is member id's last beat.
func (h *Memory) LastBeat(_ context.Context, code, id string, role Role) (time.Time, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return time.Time{}, err
	}
	return r.beats[beatField(id, role)], nil
}

// LeadOf is the instructor's place.
func (h *Memory) LeadOf(_ context.Context, code string) (Lead, bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil || r.lead == nil {
		return Lead{}, false, err
	}
	return r.lead.Clone(), true, nil
}

// Watch subscribes to the class's events; the instructor's place, if
// any, is the first.
func (h *Memory) Watch(ctx context.Context, code string) (*Watch, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.room(code)
	if err != nil {
		return nil, err
	}
	var w *Watch
	w = newWatch(func() {
		h.mu.Lock()
		delete(r.watchers, w)
		h.mu.Unlock()
	})
	r.watchers[w] = struct{}{}
	if r.lead != nil {
		l := r.lead.Clone()
		w.put(Event{Kind: KindLead, Lead: &l})
	}
	go func() {
		select {
		case <-ctx.Done():
			w.Close()
		case <-w.done:
		}
	}()
	return w, nil
}
