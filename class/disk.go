package class

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// saveEvery is how often a class kept on disk is written while it
// changes: a class of sixty stepping students changes many times a
// second, and one write a second keeps it.
const saveEvery = time.Second

// stored is one class as its file holds it.
type stored struct {
	Info    Info              `json:"info"`
	Lead    *Lead             `json:"lead,omitempty"`
	Members map[string]Member `json:"members"`
	// Matches are the instructor's matches by hand (Hub.Match).
	Matches map[string]string `json:"matches,omitempty"`
}

// OpenDir is a Memory hub kept in dir as well (-serve-dir), one file per
// class (<code>.json), so a class outlives a restart of its server: the
// same code, roster, answers, leading place and report. The classes in
// dir are read now; one whose file has not changed for retention (0: TTL)
// is removed. A class's file is written at most every saveEvery while it
// changes, and once more by Close. now tells the time (nil: time.Now).
func OpenDir(dir string, retention time.Duration, now func() time.Time) (*Memory, error) {
	if retention <= 0 {
		retention = TTL
	}
	h := NewMemory(now)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("classes: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("classes: %w", err)
	}
	var old []string // the classes an older locksim saved
	for _, e := range entries {
		code, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !ValidCode(code) {
			continue // not a class's file: left alone
		}
		path := filepath.Join(dir, e.Name())
		fi, err := e.Info()
		if err != nil {
			continue
		}
		if h.now().Sub(fi.ModTime()) > retention {
			_ = os.Remove(path) // its retention is over
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("classes: %w", err)
		}
		var st stored
		if err := json.Unmarshal(data, &st); err != nil || st.Info.Code != code {
			return nil, fmt.Errorf("classes: %s does not read as a class", path)
		}
		if st.Members == nil {
			st.Members = map[string]Member{}
		}
		for id, m := range st.Members {
			if m.V < RowVersion {
				migrate(&m) // a class an older locksim saved: written back in this form
				st.Members[id] = m
				old = append(old, code)
			}
		}
		h.classes[code] = &room{info: st.Info, lead: st.Lead, members: st.Members, matches: st.Matches,
			beats: map[string]time.Time{}, watchers: map[*Watch]struct{}{}}
	}
	h.dir, h.dirty, h.stop, h.saved = dir, map[string]bool{}, make(chan struct{}), make(chan struct{})
	for _, code := range old {
		h.dirty[code] = true
	}
	go h.saving()
	return h, nil
}

// changed marks class code to be written; h.mu is held.
func (h *Memory) changed(code string) {
	if h.dirty != nil {
		h.dirty[code] = true
	}
}

// saving writes the changed classes every saveEvery until Close.
func (h *Memory) saving() {
	defer close(h.saved)
	t := time.NewTicker(saveEvery)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			h.save()
			return
		case <-t.C:
			h.save()
		}
	}
}

// save writes every changed class, each to a new file renamed over the
// old, so a crash leaves the old file or the new, never half of one.
func (h *Memory) save() {
	h.mu.Lock()
	var out []stored
	for code := range h.dirty {
		r, ok := h.classes[code]
		if !ok {
			continue
		}
		st := stored{Info: r.info, Members: map[string]Member{}, Matches: maps.Clone(r.matches)}
		if r.lead != nil {
			l := *r.lead
			st.Lead = &l
		}
		for id, m := range r.members {
			st.Members[id] = m // put whole by Put, never changed in place
		}
		out = append(out, st)
	}
	clear(h.dirty)
	h.mu.Unlock()
	for _, st := range out {
		if err := writeClass(h.dir, st); err != nil {
			h.mu.Lock()
			h.dirty[st.Info.Code] = true // tried again at the next save
			h.err = err
			h.mu.Unlock()
		}
	}
}

func writeClass(dir string, st stored) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, st.Info.Code+".json")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Close writes what has changed, for a hub kept on disk; a memory hub
// holds nothing to release.
func (h *Memory) Close() error {
	if h.stop == nil {
		return nil
	}
	h.closeOnce.Do(func() { close(h.stop) })
	<-h.saved
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return errors.New("classes: " + h.err.Error())
	}
	return nil
}
