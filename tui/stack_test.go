package tui

import (
	"fmt"
	"strings"
	"testing"

	"locksim/views"
)

// pageNames names the pages on the stack, the bottom first.
func pageNames(a *App) string {
	var out []string
	for _, c := range a.pages {
		name := fmt.Sprintf("%T", c)
		out = append(out, strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "*"), "tui."), "Page"))
	}
	return strings.Join(out, " ")
}

// TestPagesStack: opening a page puts it on the stack, over the scene, and
// closing it takes it off; a quiz's scene is the quiz's page; esc from a
// scene of the course opens the contents over it, and enter there opens a
// scene with nothing over it.
func TestPagesStack(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	for _, s := range []struct{ presses, want string }{
		{"", "scene Contents"},
		{"[enter]", "scene"},
		{"[esc]", "scene Contents"},
	} {
		drive(t, a, keys(s.presses)...)
		if got := pageNames(a); got != s.want {
			t.Fatalf("in the course, after %q the stack is %q, want %q", s.presses, got, s.want)
		}
	}
	g := openScene(t, embedded(t), "gc-pause", 1, 80, 24, "n")
	for _, s := range []struct{ presses, want string }{
		{"?", "scene help"},
		{"v", "scene history"},
		{"?", "scene help"},
		{"?", "scene history"},
		{"i", "scene about"},
		{"n", "scene about"},
		{"[esc]", "scene"},
	} {
		drive(t, g, keys(s.presses)...)
		if got := pageNames(g); got != s.want {
			t.Fatalf("in gc-pause, after %q the stack is %q, want %q", s.presses, got, s.want)
		}
	}
	if g.pl.Snap.Pos != 2 {
		t.Errorf("n on the story page did not step the scene under it: at %d", g.pl.Snap.Pos)
	}
	q := openScene(t, embedded(t), "choose", 1, 80, 24, "")
	if got := pageNames(q); got != "quiz" {
		t.Errorf("a quiz's stack is %q", got)
	}
	r := openScene(t, embedded(t), "race", 1, 80, 24, "")
	openTrials(r, trialsWithExample(t, r))
	if got := pageNames(r); got != "scene trials" {
		t.Errorf("the trials put %q on the stack", got)
	}
	drive(t, r, keys("[esc]")...)
	if got := pageNames(r); got != "scene" {
		t.Errorf("esc on the trials left %q", got)
	}
}

// TestHelpLineFromKeyMap: the help line under a page is its key map's short
// help, so a key added to a page's map shows in its line.
func TestHelpLineFromKeyMap(t *testing.T) {
	lastLine := func(a *App) string {
		lines := strings.Split(views.Strip(a.View()), "\n")
		return lines[len(lines)-1]
	}
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	for _, presses := range []string{"", "[down][down][enter]", "?", "[esc][esc]", "l"} {
		drive(t, a, keys(presses)...)
		top := a.pages.top()
		want := views.HelpLine(top.KeyMap().ShortHelp())
		if isScene(top) {
			want = views.Strip(a.help.ShortHelpView(top.KeyMap().ShortHelp()))
		}
		items := strings.Split(want, views.KeySep)
		if got := lastLine(a); len(items) < 2 || !strings.Contains(got, items[0]) || !strings.Contains(got, items[1]) {
			t.Errorf("after %q the help line %q is not drawn from the key map's %q", presses, got, want)
		}
	}
}
