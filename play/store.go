package play

import (
	"maps"
	"slices"
	"sync"

	"locksim/scenes/progress"
)

// Store keeps one learner's progress between sessions: a file locally
// (*progress.Store), memory in tests and headless runs (Memory), a shared
// server later. Load of a store that has nothing yet returns empty
// progress and no error.
type Store interface {
	Load() (progress.Progress, error)
	Save(progress.Progress) error
}

// Memory is a Store that keeps progress in memory only; its zero value is
// empty and ready. Safe for use by several goroutines.
type Memory struct {
	mu sync.Mutex
	p  progress.Progress
}

// Load returns a copy of what was saved last, or empty progress.
func (m *Memory) Load() (progress.Progress, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return clone(m.p), nil
}

// Save keeps a copy of p.
func (m *Memory) Save(p progress.Progress) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.p = clone(p)
	return nil
}

func clone(p progress.Progress) progress.Progress {
	q := p
	q.Done, q.Answers, q.Scores = maps.Clone(p.Done), maps.Clone(p.Answers), maps.Clone(p.Scores)
	q.Levels = maps.Clone(p.Levels)
	q.Places = maps.Clone(p.Places)
	q.Place, q.Lab = slices.Clone(p.Place), slices.Clone(p.Lab)
	if q.Done == nil {
		q.Done = map[string]bool{}
	}
	if q.Answers == nil {
		q.Answers = map[string]progress.Answer{}
	}
	if q.Scores == nil {
		q.Scores = map[string]progress.Score{}
	}
	q.Moment.Settings = maps.Clone(p.Moment.Settings)
	return q
}

var _ Store = (*progress.Store)(nil)

// NoStore keeps nothing and touches no disk (-no-save): Load is always empty.
type NoStore struct{}

// Load returns empty progress.
func (NoStore) Load() (progress.Progress, error) { return clone(progress.Progress{}), nil }

// Save forgets p.
func (NoStore) Save(progress.Progress) error { return nil }
