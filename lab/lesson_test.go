package lab

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLessonOfALockThatGrantsNobody: a lock that never grants keeps
// mutual-exclusion (its judgement passes), and the faults' lesson under
// it says so, conditionally, rather than "no lease keeps
// mutual-exclusion" next to the ✓ (it did).
func TestLessonOfALockThatGrantsNobody(t *testing.T) {
	dir := t.TempDir()
	for f, src := range brokenLocks["zero acquire"] {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Policy.Bound.Faults, l.Policy.Bound.Depth = 1, 10
	rep, err := Check(context.Background(), l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := rep.Judgement(MutualExclusion); v.Status != Pass || rep.Grants {
		t.Fatalf("zero acquire: mutual-exclusion %v, grants %v", v.Status, rep.Grants)
	}
	if strings.Contains(rep.Lesson, "no lease keeps mutual-exclusion,") || strings.Contains(rep.Lesson, "not a bug in your lock") ||
		!strings.Contains(rep.Lesson, "grants nobody, so it keeps mutual-exclusion trivially") {
		t.Errorf("the lesson contradicts the passing mutual-exclusion: %q", rep.Lesson)
	}
}
