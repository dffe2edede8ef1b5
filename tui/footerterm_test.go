package tui

import (
	"strings"
	"testing"

	"locksim/views"
)

// footerOf is the last row of screen v, plain.
func footerOf(v string) string {
	rows := strings.Split(views.Strip(v), "\n")
	return strings.TrimRight(rows[len(rows)-1], " ")
}

// keysTerm fails for a footer that names the keys page by another word
// than its title's, "keys" ("? help" on some pages, "? keys" on others);
// with want, for one that does not name it at all.
func keysTerm(t *testing.T, page, footer string, want bool) {
	t.Helper()
	named := false
	for _, item := range strings.Split(footer, views.KeySep) {
		k, desc, _ := strings.Cut(strings.TrimSpace(item), " ")
		if k != "?" && k != "ctrl+g" || strings.HasPrefix(desc, "then ") {
			continue // a key of its own ("?/esc back"), or "? then g glossary"
		}
		named = true
		if desc != "keys" {
			t.Errorf("%s: the footer calls the keys page %q, not \"keys\": %q", page, desc, footer)
		}
	}
	if want && !named {
		t.Errorf("%s: the footer does not name the keys page: %q", page, footer)
	}
}

// TestFootersSayKeys: every page's footer calls the keys page what the
// page itself is titled, "keys": the contents and its keys page, the
// glossary, a story (as it opens, at its question, in presenter mode),
// the race, a quiz, Redlock's nodes, the keys page, the story page, the
// history, the ending, the trials; the lab's levels, its editor, its keys
// page and a story of the lab; the class view and the pages standing in
// for it (the summary, its keys, the poll).
func TestFootersSayKeys(t *testing.T) {
	t.Parallel()
	type page struct {
		name, view string
		keys       bool // the footer names the keys page
	}
	var pages []page
	a, _ := openCourse(t, Options{Seed: 1}, "")
	pages = append(pages, page{"the contents", a.View(), true})
	drive(t, a, keys("?")...)
	pages = append(pages, page{"the contents' keys", a.View(), false})
	drive(t, a, keys("?g")...)
	pages = append(pages, page{"the glossary", a.View(), false})
	for _, sc := range []struct{ id, presses string }{{"race", ""}, {"crash-gap", ""}, {"redlock", ""}, {"choose", ""}} {
		s, _ := openCourse(t, Options{Seed: 1, Scene: sc.id}, "")
		pages = append(pages, page{sc.id, s.View(), true})
	}
	s, _ := openCourse(t, Options{Seed: 1, Scene: "gc-pause"}, "")
	pages = append(pages, page{"gc-pause", s.View(), true})
	for i := 0; i < 40 && !s.pl.Asking; i++ {
		drive(t, s, keys("n")...)
	}
	pages = append(pages, page{"gc-pause's question", s.View(), true})
	drive(t, s, keys("1")...)
	for _, p := range []struct{ name, open, close string }{{"the keys page", "?", "?"}, {"the story page", "i", "[esc]"}, {"the history", "v", "[esc]"}} {
		drive(t, s, keys(p.open)...)
		// over the scene, under its footer; the keys page's footer has its own keys
		pages = append(pages, page{p.name, s.View(), p.open != "?"})
		drive(t, s, keys(p.close)...)
	}
	if v := s.View(); !strings.Contains(views.Strip(s.newHelp(nil).View()), "── keys") {
		t.Errorf("the keys page is not titled keys:\n%s", v)
	}
	for i := 0; i < 40 && !s.storyOver(); i++ {
		drive(t, s, keys("n")...)
	}
	drive(t, s, keys("n")...)
	pages = append(pages, page{"the ending", s.View(), true})
	p, _ := openCourse(t, Options{Seed: 1, Scene: "gc-pause", Present: true}, "")
	pages = append(pages, page{"presenter mode", p.View(), true})

	l := openLab(t, Options{Seed: 1}, 80, 24, "")
	pages = append(pages, page{"the lab's levels", l.View(), true})
	drive(t, l, labPresses("[enter]")...)
	pages = append(pages, page{"a level of the lab", l.View(), true})
	drive(t, l, labPresses("[ctrl+g]")...)
	pages = append(pages, page{"the lab's keys", l.View(), false})
	drive(t, l, labPresses("[esc][ctrl+o]")...)
	if l.labStory {
		pages = append(pages, page{"a story of the lab", l.View(), true})
	}

	m := deskRoom(t, Classroom{}, Options{Seed: 4, Scene: "gc-pause"})
	pages = append(pages, page{"the class view", m.a.View(), true})
	for _, k := range []string{"S", "?", "V"} {
		drive(t, m.a, keys(k)...)
		pages = append(pages, page{"the class view's " + k, m.a.View(), false})
		drive(t, m.a, keys(k)...)
	}
	for _, p := range pages {
		f := footerOf(p.view)
		t.Logf("%s: %s", p.name, f)
		keysTerm(t, p.name, f, p.keys)
	}
}
