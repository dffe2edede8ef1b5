package progress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	s := &Store{Path: filepath.Join(t.TempDir(), "locksim", "progress.json")}
	p, err := s.Load()
	if err != nil || len(p.Done) != 0 {
		t.Fatalf("a missing file is an empty progress: %+v %v", p, err)
	}
	p.Done["race"] = true
	p.Answers["race"] = Answer{Chosen: 1, Right: true}
	p.Moment = Moment{Scene: "gc-pause", Settings: map[string]int{"pause": 1}, Seed: 7, Step: 4}
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	q, err := s.Load()
	m := q.Moment
	if err != nil || !q.Done["race"] || q.Answers["race"] != (Answer{1, true}) || m.Scene != "gc-pause" || m.Step != 4 || m.Seed != 7 || m.Settings["pause"] != 1 {
		t.Fatalf("round trip: %+v %v", q, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(s.Path))
	if len(entries) != 1 {
		t.Errorf("the atomic write left %d files", len(entries))
	}
}

func TestCorruptFileIsSetAside(t *testing.T) {
	dir := t.TempDir()
	s := &Store{Path: filepath.Join(dir, "progress.json")}
	os.WriteFile(s.Path, []byte("{not json"), 0o644)
	p, err := s.Load()
	if err == nil || !strings.Contains(err.Error(), "moved to") || len(p.Done) != 0 {
		t.Fatalf("a corrupt file: %+v %v", p, err)
	}
	if strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("the error should be one line: %q", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "progress.json.bad-") {
		t.Errorf("the corrupt file should be kept aside: %v", entries)
	}
}

func TestNoSaveTouchesNothing(t *testing.T) {
	var s *Store
	p, _ := s.Load()
	p.Done["race"] = true
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
}

// TestSaveKeepsAnotherRunsProgress: two runs at once; the one that quits
// last does not wipe what the other saved.
func TestSaveKeepsAnotherRunsProgress(t *testing.T) {
	s := &Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	first, _ := s.Load()
	second, _ := s.Load()
	second.Done["fencing"] = true
	second.Answers["fencing"] = Answer{Chosen: 1, Right: true}
	if err := s.Save(second); err != nil {
		t.Fatal(err)
	}
	first.Done["race"] = true
	if err := s.Save(first); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Load()
	if !p.Done["race"] || !p.Done["fencing"] || !p.Answers["fencing"].Right {
		t.Fatalf("both runs' progress should be kept: %+v", p)
	}
}

// TestLegacyPlace: a progress file from before the moment (scene and step
// only) resumes at that scene and step.
func TestLegacyPlace(t *testing.T) {
	s := &Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	if err := os.WriteFile(s.Path, []byte(`{"done":{},"last":"fencing","step":3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := s.Load()
	if err != nil || p.Moment.Scene != "fencing" || p.Moment.Step != 3 {
		t.Fatalf("an older file's place: %+v %v", p.Moment, err)
	}
}
