package progress

import (
	"path/filepath"
	"testing"
)

// TestScoresRoundTripAndMerge: a quiz's score is saved and read back, a
// newer attempt replaces it, and a score another run saved for another
// quiz is kept.
func TestScoresRoundTripAndMerge(t *testing.T) {
	s := &Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	first, _ := s.Load()
	second, _ := s.Load()
	second.Scores["other-quiz"] = Score{Right: 2, Of: 5}
	if err := s.Save(second); err != nil {
		t.Fatal(err)
	}
	first.Scores["choose"] = Score{Right: 6, Of: 8}
	if err := s.Save(first); err != nil {
		t.Fatal(err)
	}
	p, err := s.Load()
	if err != nil || p.Scores["choose"] != (Score{6, 8}) || p.Scores["other-quiz"] != (Score{2, 5}) {
		t.Fatalf("both runs' scores should be kept: %+v %v", p.Scores, err)
	}
	p.Scores["choose"] = Score{Right: 8, Of: 8}
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	if q, _ := s.Load(); q.Scores["choose"] != (Score{8, 8}) {
		t.Errorf("the latest attempt's score replaces the last: %+v", q.Scores)
	}
	// a file written before scores existed reads as no score
	old := &Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	var none Progress
	none.Done = map[string]bool{"race": true}
	if err := old.Save(none); err != nil {
		t.Fatal(err)
	}
	if q, err := old.Load(); err != nil || q.Scores == nil || len(q.Scores) != 0 || !q.Done["race"] {
		t.Errorf("an old file: %+v %v", q, err)
	}
}
