package scenes

import (
	"strings"
	"testing"

	"locksim/content"
)

// chooseSituations are the situations of content/text/choose.txt.
func chooseSituations(t *testing.T) []Situation {
	t.Helper()
	text, err := content.Load("choose")
	if err != nil {
		t.Fatal(err)
	}
	items, err := Situations(text)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// TestChooseKey: the answer key read from content/text/choose.txt, each
// situation's class and tool, and the grade of sets of answers.
func TestChooseKey(t *testing.T) {
	items := chooseSituations(t)
	key := []struct {
		name  string
		class Class
		tool  string
	}{
		{"recomputing a cache entry", Efficiency, "setnx"},
		{"sending a reminder email", Efficiency, "setnx"},
		{"charging a card", Correctness, "database"},
		{"issuing an invoice number", Correctness, "database"},
		{"a nightly report", Efficiency, "setnx"},
		{"moving money between accounts", Correctness, "database"},
		{"rate-limiting a scraper", Efficiency, "setnx"},
		{"electing a cron leader", Correctness, "fencing"},
	}
	if len(items) != len(key) {
		t.Fatalf("%d situations, want %d", len(items), len(key))
	}
	for i, k := range key {
		s := items[i]
		if s.Name != k.name || s.Class != k.class || s.Tool != k.tool {
			t.Errorf("situation %d: %q %s %s, want %q %s %s", i+1, s.Name, s.Class, s.Tool, k.name, k.class, k.tool)
		}
		if len(s.Assumption) < 40 || len(s.Why) < 80 {
			t.Errorf("situation %d: the assumption that decides it and the why must be said: %q / %q", i+1, s.Assumption, s.Why)
		}
	}
	const E, C, none = int(Efficiency), int(Correctness), -1
	grades := []struct {
		name            string
		answers         []int
		right, answered int
	}{
		{"nothing answered", []int{none, none, none, none, none, none, none, none}, 0, 0},
		{"all right", []int{E, E, C, C, E, C, E, C}, 8, 8},
		{"all wrong", []int{C, C, E, E, C, E, C, E}, 0, 8},
		{"everything efficiency", []int{E, E, E, E, E, E, E, E}, 4, 8},
		{"everything correctness", []int{C, C, C, C, C, C, C, C}, 4, 8},
		{"half answered, one wrong", []int{E, C, C, C, none, none, none, none}, 3, 4},
	}
	for _, g := range grades {
		if right, answered := Grade(items, g.answers); right != g.right || answered != g.answered {
			t.Errorf("%s: %d right of %d answered, want %d of %d", g.name, right, answered, g.right, g.answered)
		}
	}
}

// TestSituationsRefuseABadKey: a class or a tool the quiz does not know is
// an error, not a silent efficiency lock.
func TestSituationsRefuseABadKey(t *testing.T) {
	base := "# situation-1\ns\n# name-1\nn\n# assume-1\na\n# why-1\nw\n# tool-setnx\nt\n# short-setnx\nt\n"
	for _, c := range []struct{ src, want string }{
		{base + "# class-1\nefficient\n# tool-1\nsetnx\n", "neither efficiency nor correctness"},
		{base + "# class-1\ncorrectness\n# tool-1\nredlock\n", "not one of"},
		{base + "# class-1\ncorrectness\n", "no tool-1"},
		{"# title\nx\n", "no situation-1"},
	} {
		if _, err := Situations(content.Parse(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error saying %q, got %v", c.want, err)
		}
	}
	if s, err := Situations(content.Parse(base + "# class-1\ncorrectness\n# tool-1\nsetnx\n")); err != nil || s[0].Class != Correctness {
		t.Errorf("a whole situation: %+v %v", s, err)
	}
}

// TestChooseAssumptionsDoNotAnswer: the assumption line is on screen with
// the question "waste or harm?", so it states facts of the situation and
// leaves what a second holder does to the learner: no class, no "waste"
// or "harm" (the choices' own words), no cost and nothing done twice or
// by a second one, and no "would" telling what two holders bring about.
func TestChooseAssumptionsDoNotAnswer(t *testing.T) {
	items := chooseSituations(t)
	giveaway := []string{"efficien", "correctness", "waste", "harm", "nuisance", "cost", "twice", "second", "duplicate", "same value", "same file", "would", "real "}
	for i, s := range items {
		a := strings.ToLower(s.Assumption)
		for _, w := range giveaway {
			if strings.Contains(a, w) {
				t.Errorf("assume-%d says %q, which tells what a second holder does (the question's answer): %q", i+1, w, s.Assumption)
			}
		}
	}
}
