package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"locksim/play"
	"locksim/scenes/progress"
)

// students keeps each student key's progress and display name for the
// server's life, and, with a directory, in dir/<key hash>/ (progress.json
// as the local course writes it, name.json).
type students struct {
	dir   string
	mu    sync.Mutex
	byKey map[string]*student
}

// student is one key's record; keyless sessions have one per reconnect
// token, in memory only.
type student struct {
	store play.Store
	dir   string // "" in memory

	mu    sync.Mutex
	name  string
	asked bool
}

// get returns id's record, read from the directory the first time (a
// keyless one, by its reconnect token, is kept in memory only: a token
// names no one on disk).
func (st *students) get(id Identity) *student {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s, ok := st.byKey[id.ID]; ok {
		return s
	}
	s := &student{store: &play.Memory{}}
	if st.dir != "" && !id.Keyless() {
		s.dir = filepath.Join(st.dir, id.KeyHash)
		s.store = &progress.Store{Path: filepath.Join(s.dir, "progress.json")}
		var n nameFile
		if data, err := os.ReadFile(filepath.Join(s.dir, "name.json")); err == nil && json.Unmarshal(data, &n) == nil {
			// as the prompt keeps a name (an older locksim kept it raw,
			// or the file was written by hand)
			s.name, s.asked = CleanName(n.Name), true
		}
	}
	st.byKey[id.ID] = s
	return s
}

// nameFile is name.json.
type nameFile struct {
	Name string `json:"name"`
}

// Name returns the display name and whether it was asked already.
func (s *student) Name() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name, s.asked
}

// SetName keeps the display name ("" when the student skipped it), and
// writes it next to the progress when there is a directory.
func (s *student) SetName(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.name, s.asked = name, true
	if s.dir == "" {
		return nil
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	data, _ := json.Marshal(nameFile{Name: name})
	tmp := filepath.Join(s.dir, "name.json.tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(s.dir, "name.json"))
}

// place is where the student left the course, nil for the contents: read
// as the course reads it (play.SavedPlace), so an older file's story of
// the lab is the lab's place, which the lab opens, not the course's.
func (s *student) place() *play.Position {
	p, err := s.store.Load()
	if err != nil {
		return nil
	}
	pos, ok := play.SavedPlace(p)
	if !ok {
		return nil
	}
	return &pos
}
