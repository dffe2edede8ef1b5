package gradebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"locksim/scenes"
)

// Scoring is what a class's work is worth, as the teacher sets it
// (-scoring FILE, JSON with these field names). Every weight is points,
// 0 or more; a weight of 0 scores nothing of its kind.
type Scoring struct {
	// SceneFinished is the points for each scored scene played to the
	// end (default 1).
	SceneFinished float64 `json:"scene_finished"`
	// PredictionGiven is the points for each scored scene's prediction
	// given, PredictionRight for each one the student's own run made
	// true (default 1 each); a scene that asks no prediction scores
	// neither.
	PredictionGiven float64 `json:"prediction_given"`
	PredictionRight float64 `json:"prediction_right"`
	// Quiz is the points of a whole quiz scene all right; a score of 6/8
	// earns 6/8 of it (default 5).
	Quiz float64 `json:"quiz"`
	// LabLevel is the points for each of the lab's levels passed (each
	// level's break and its fix count apart; default 3).
	LabLevel float64 `json:"lab_level"`
	// Scenes are the scenes scored, by id (locksim -list), in the
	// gradebook's order (default: every scene of the course).
	Scenes []string `json:"scenes"`
}

// DefaultScoring is the scoring without -scoring, and what a file's
// missing field keeps.
func DefaultScoring() Scoring {
	s := Scoring{SceneFinished: 1, PredictionGiven: 1, PredictionRight: 1, Quiz: 5, LabLevel: 3}
	for _, sc := range scenes.All() {
		s.Scenes = append(s.Scenes, sc.ID)
	}
	return s
}

// maxWeight bounds a weight, so that no sum of them overflows what a
// gradebook shows.
const maxWeight = 10000

// ReadScoring reads a scoring file: a JSON object of Scoring's fields,
// each one optional (a missing one keeps DefaultScoring's). Its error is
// one line: a field it does not know (by its name), a weight that is
// negative or over 10000, a scene that is not the course's or named
// twice, an empty scene list, or JSON that does not parse.
func ReadScoring(r io.Reader) (Scoring, error) {
	s := DefaultScoring()
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return s, fmt.Errorf("scoring: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return s, fmt.Errorf("scoring: unknown field %s (scene_finished, prediction_given, prediction_right, quiz, lab_level, scenes)", f)
		}
		return s, fmt.Errorf("scoring: %v", err)
	}
	if dec.More() {
		return s, errors.New("scoring: more than one JSON value; the file is one object")
	}
	for _, w := range []struct {
		name string
		v    float64
	}{{"scene_finished", s.SceneFinished}, {"prediction_given", s.PredictionGiven}, {"prediction_right", s.PredictionRight},
		{"quiz", s.Quiz}, {"lab_level", s.LabLevel}} {
		if w.v < 0 || w.v > maxWeight {
			return s, fmt.Errorf("scoring: %s is %v: a weight is from 0 to %d points", w.name, w.v, maxWeight)
		}
	}
	if len(s.Scenes) == 0 {
		return s, errors.New("scoring: scenes is empty: name the scenes scored, or leave it out for all")
	}
	seen := map[string]bool{}
	for _, id := range s.Scenes {
		if scenes.Find(id) == nil {
			return s, fmt.Errorf("scoring: scenes: unknown scene %q (locksim -list shows them)", id)
		}
		if seen[id] {
			return s, fmt.Errorf("scoring: scenes: %q is named twice", id)
		}
		seen[id] = true
	}
	return s, nil
}
