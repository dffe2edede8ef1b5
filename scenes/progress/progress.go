// Package progress keeps a learner's progress through the course between
// runs: scenes finished, prediction answers, quiz scores, and the moment
// the learner left (scene, settings, seed, step). It is a small JSON file under os.UserConfigDir()/locksim/, written
// atomically (a temporary file, then a rename).
package progress

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Answer is a learner's prediction at a scene's decisive point.
type Answer struct {
	Chosen int  `json:"chosen"` // 0-based choice
	Right  bool `json:"right"`
}

// Score is a learner's latest whole attempt at a quiz scene.
type Score struct {
	Right int `json:"right"` // situations sorted right
	Of    int `json:"of"`    // situations in the quiz
}

// Progress is what is saved.
type Progress struct {
	Done    map[string]bool   `json:"done"`    // scene id → played to the end (or answered)
	Answers map[string]Answer `json:"answers"` // scene id → its prediction
	Scores  map[string]Score  `json:"scores"`  // quiz scene id → its latest score
	Moment  Moment            `json:"moment"`  // where the learner left: scene, settings, seed, step
	// Place is where the learner left as the core's position (JSON of
	// play.Position: own moves and prediction too); Moment says the same
	// for an older locksim, and is what a file without Place is read by.
	Place json.RawMessage `json:"place,omitempty"`
	// Places are where the learner left each scene they played (scene id
	// → JSON of play.Position), so every scene reopens where it was left,
	// not only the last one. A file without them reads Place as its
	// scene's.
	Places map[string]json.RawMessage `json:"places,omitempty"`
	// Lab is where the learner left a story of the lab (JSON of
	// play.Position: its lock and schedule come with it), kept apart from
	// Moment and Place, which are the course's: a session in the lab never
	// takes the place of the course's last scene. An older locksim kept it
	// in Place, with Moment's scene "lab".
	Lab json.RawMessage `json:"lab,omitempty"`
	// Levels are the lab's levels passed: a break level once the learner's
	// schedule broke its property, a fix level once the adversary found no
	// break of its properties within the bound (level id → passed).
	Levels map[string]bool `json:"levels,omitempty"`
}

// Moment is one point of the course, everything needed to show it again:
// the scene, its settings (knob name → index of its value, as the scene's
// knobs list them), the seed the tokens are drawn from, and the step (how
// many moves of the story have run). The zero Moment is "nowhere yet".
// It is the value resume, -scene/-step/-set and -seed all land in.
type Moment struct {
	Scene    string         `json:"scene"`
	Settings map[string]int `json:"settings,omitempty"`
	Seed     uint64         `json:"seed,omitempty"`
	Step     int            `json:"step"`
}

// legacy is the place an earlier locksim kept: the scene and step only.
type legacy struct {
	Last string `json:"last"`
	Step int    `json:"step"`
}

// Store reads and writes Progress at Path; a nil *Store (from -no-save)
// keeps nothing and touches no disk.
type Store struct {
	Path string
}

// DefaultPath is os.UserConfigDir()/locksim/progress.json.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config directory to keep progress in: %w", err)
	}
	return filepath.Join(dir, "locksim", "progress.json"), nil
}

// Load reads the progress. A missing file is an empty progress. A file that
// cannot be read or parsed is renamed aside (progress.json.bad-<time>) so
// that nothing newer is lost later, and the error says where it went.
func (s *Store) Load() (Progress, error) {
	p := Progress{Done: map[string]bool{}, Answers: map[string]Answer{}, Scores: map[string]Score{}}
	if s == nil {
		return p, nil
	}
	b, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	var old legacy
	if err == nil && p.Moment.Scene == "" && json.Unmarshal(b, &old) == nil {
		p.Moment = Moment{Scene: old.Last, Step: old.Step}
	}
	if err != nil {
		aside := s.Path + ".bad-" + time.Now().Format("20060102-150405")
		if rerr := os.Rename(s.Path, aside); rerr != nil {
			return Progress{Done: map[string]bool{}, Answers: map[string]Answer{}, Scores: map[string]Score{}},
				fmt.Errorf("cannot read the saved progress %s (%v), and cannot move it aside: %v; progress will not be saved", s.Path, err, rerr)
		}
		return Progress{Done: map[string]bool{}, Answers: map[string]Answer{}, Scores: map[string]Score{}},
			fmt.Errorf("the saved progress could not be read (%v); it was moved to %s and a new one starts", err, aside)
	}
	if p.Done == nil {
		p.Done = map[string]bool{}
	}
	if p.Answers == nil {
		p.Answers = map[string]Answer{}
	}
	if p.Scores == nil {
		p.Scores = map[string]Score{}
	}
	return p, nil
}

// Save writes p atomically: a temporary file beside the target, then a
// rename, so a crash never leaves half a file. What another locksim saved
// meanwhile is kept: scenes it marked done stay done, and its answers and
// scores for scenes p has none for stay.
func (s *Store) Save(p Progress) error {
	if s == nil {
		return nil
	}
	if b, err := os.ReadFile(s.Path); err == nil {
		var disk Progress
		if json.Unmarshal(b, &disk) == nil {
			p = Merge(disk, p)
		}
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), ".progress-*.json")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), s.Path)
}

// Reset removes the saved progress.
func (s *Store) Reset() error {
	if s == nil {
		return nil
	}
	err := os.Remove(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Merge is own with what other holds that own does not: a scene done or a
// lab level passed (either's counts), an answer, a quiz score, a scene's
// place (own's entries win). Where the learner left, the course's
// (Moment, Place) and the lab's (Lab), is own's. It writes into own's
// maps, made when nil.
func Merge(other, own Progress) Progress {
	for id, done := range other.Done {
		if done && !own.Done[id] {
			own.Done = set(own.Done, id, true)
		}
	}
	for id, passed := range other.Levels {
		if passed && !own.Levels[id] {
			own.Levels = set(own.Levels, id, true)
		}
	}
	for id, a := range other.Answers {
		if _, ok := own.Answers[id]; !ok {
			own.Answers = set(own.Answers, id, a)
		}
	}
	for id, sc := range other.Scores {
		if _, ok := own.Scores[id]; !ok {
			own.Scores = set(own.Scores, id, sc)
		}
	}
	for id, place := range other.Places {
		if _, ok := own.Places[id]; !ok {
			own.Places = set(own.Places, id, place)
		}
	}
	return own
}

// set is m with m[k] = v, m made when nil.
func set[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}
