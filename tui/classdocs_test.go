package tui

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/class"
	"locksim/views"
)

// TestClassroomGuideJoinNotes: docs/classroom.md's step 7 (students
// join) quotes what a student reads on joining: "you joined class CODE"
// (serve/classroom's note, TestPlaces), and, in a class already asked to
// follow, the ask's note, which takes its place; the screen of a student
// who joins such a class shows that note, word for word.
func TestClassroomGuideJoinNotes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "classroom.md"))
	if err != nil {
		t.Fatal(err)
	}
	step := regexp.MustCompile(`(?s)\n7\. \*\*Students join\*\*(.*?)\n8\. `).FindStringSubmatch(string(b))
	if step == nil {
		t.Fatal("docs/classroom.md has no step 7, Students join")
	}
	var quoted []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(step[1], -1) {
		quoted = append(quoted, strings.Join(strings.Fields(m[1]), " "))
	}
	const asked = "the instructor asks the class to follow · F follows"
	if !strings.Contains(strings.Join(quoted, "\n"), "you joined class 5rxx7") || !strings.Contains(strings.Join(quoted, "\n"), asked) {
		t.Fatalf("step 7 should quote the join note and, for a class asked to follow, %q: %q", asked, quoted)
	}
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 80, 24)
	drive(t, teacher.a, keys("F")...)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2}, 80, 24)
	hear(t, ann, "the ask to follow", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Follow })
	if v := rowsJoined(views.Strip(ann.a.View())); !strings.Contains(v, asked) {
		t.Errorf("docs/classroom.md quotes %q for a student who joins a class asked to follow; the screen shows:\n%s", asked, ann.a.View())
	}
}
