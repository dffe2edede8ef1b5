package play

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"locksim/scenes"
)

// TestPartsCoverTheCourse: the parts hold every scene of the registry once,
// in the registry's order, and the lab stands right after LabAfter's part,
// as the contents place it.
func TestPartsCoverTheCourse(t *testing.T) {
	var ids []string
	lab := -1
	for i, p := range Parts() {
		if p.Lab {
			lab = i
			continue
		}
		if p.Title == "" || p.Minutes == "" || len(p.Scenes) == 0 {
			t.Errorf("part %d is incomplete: %+v", i, p)
		}
		ids = append(ids, p.Scenes...)
	}
	var want []string
	for _, sc := range scenes.All() {
		want = append(want, sc.ID)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("the parts' scenes %v, want the registry's %v", ids, want)
	}
	if lab < 1 || !slices.Contains(Parts()[lab-1].Scenes, LabAfter) || Parts()[lab-1].Scenes[len(Parts()[lab-1].Scenes)-1] != LabAfter {
		t.Errorf("the lab is part %d, want right after the part that ends with %s", lab, LabAfter)
	}
	if PartOf("redlock") != 4 || PartOf("nosuch") != -1 {
		t.Errorf("PartOf: redlock %d, nosuch %d", PartOf("redlock"), PartOf("nosuch"))
	}
}

// TestEnding: a scene's ending waits for the story's end and for its
// question's answer, then gives the recap, the libraries, the references
// with their addresses, and the next scene.
func TestEnding(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	c.Quiz = true
	s, err := c.Open(c.Index("release"), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Driver{S: s}
	d.Run(s.Start(nil))
	defer s.Close(ctx)
	if _, ok := c.SceneEnding(s, Learner); ok {
		t.Fatal("an ending at the story's start")
	}
	for !s.Asking {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.SceneEnding(s, Learner); ok {
		t.Fatal("an ending while the question is open")
	}
	if err := d.Do(DoN(Select, 0)); err != nil {
		t.Fatal(err)
	}
	for !c.StoryOver(s) {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	e, ok := c.SceneEnding(s, Learner)
	if !ok {
		t.Fatal("no ending once the story is over and answered")
	}
	if !strings.Contains(e.Recap, "comparing and deleting") || !strings.Contains(e.Library, "redsync") || e.Next != "gc-pause" {
		t.Errorf("ending: %+v", e)
	}
	if len(e.References) == 0 || e.References[0].URL != "https://redis.io/docs/latest/develop/use/patterns/distributed-locks/" || e.References[0].Title != "Distributed locks with Redis" {
		t.Errorf("references: %+v", e.References)
	}
}

// TestGlossary: the glossary reads in its own order, every term defined,
// and it defines the words the issue found unexplained on screen.
func TestGlossary(t *testing.T) {
	terms, err := Glossary()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for i, term := range terms {
		if term.Meaning == "" || strings.Contains(term.Meaning, "[no text") {
			t.Errorf("%q has no meaning", term.Word)
		}
		if i > 0 && strings.ToLower(terms[i-1].Word) > strings.ToLower(term.Word) {
			t.Errorf("%q comes after %q: not in alphabetical order", term.Word, terms[i-1].Word)
		}
		got[term.Word] = true
	}
	for _, w := range []string{"ledger", "lane", "holder", "validity time", "LP", "EchoMQ", "fencing token", "lease", "token", "TTL", "quorum", "watchdog", "linearizable", "R2.02.1", "Redlock", "PTTL", "compare-and-delete", "stop-the-world", "acts as holder"} {
		if !got[w] {
			t.Errorf("the glossary lacks %q", w)
		}
	}
}
