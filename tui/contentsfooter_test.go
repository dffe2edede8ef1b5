package tui

import (
	"strings"
	"testing"

	"locksim/scenes"

	"github.com/charmbracelet/bubbles/cursor"
)

// TestContentsFilterFooter: while a filter is typed the footer offers
// only keys that act there: g, ? and q are letters of the filter, so the
// footer does not offer them, and g typed goes into the filter.
func TestContentsFilterFooter(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	a.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic) // no blink: drive runs no timers
	drive(t, a, keys("/")...)
	rows := strings.Split(a.View(), "\n")
	foot := rows[len(rows)-1]
	for _, gone := range []string{"g glossary", "? keys", "q quit", "/ filter"} {
		if strings.Contains(foot, gone) {
			t.Errorf("typing a filter, the footer offers %q, a letter of the filter there: %q", gone, foot)
		}
	}
	for _, want := range []string{"enter open the first match", "esc cancel", "ctrl+c quit"} {
		if !strings.Contains(foot, want) {
			t.Errorf("typing a filter, the footer lacks %q: %q", want, foot)
		}
	}
	drive(t, a, keys("g")...)
	if !a.onContents() || !a.toc.typing() || a.toc.list().FilterInput.Value() != "g" {
		t.Fatalf("g in the filter should be typed into it:\n%s", a.View())
	}
	drive(t, a, keys("[esc]")...)
	rows = strings.Split(a.View(), "\n")
	if foot = rows[len(rows)-1]; !strings.Contains(foot, "g glossary") || !strings.Contains(foot, "q quit") {
		t.Errorf("the filter cancelled, the footer should offer g and q again: %q", foot)
	}
}

// TestContentsFooterKeepsKeys: with "last time" on the footer at 80
// columns (a row of its own, above the keys), ? keys and q quit stay on it.
func TestContentsFooterKeepsKeys(t *testing.T) {
	for _, o := range []Options{
		{Seed: 1, Scene: "race", Step: 1},
		{Seed: 1, Scene: "crash-gap", Step: 7},
		{Seed: 1, Scene: "gc-pause", Settings: scenes.Params{"pause": 1, "TTL": 2}, Step: 4},
	} {
		a, store := openCourse(t, o, "")
		a.SaveProgress()
		b, _ := openCourse(t, Options{Seed: 1, Store: store}, "")
		foot := contentsFoot(b.View())
		if !strings.Contains(foot, "last time: "+o.Scene) || !strings.Contains(foot, "? keys") ||
			!strings.HasSuffix(strings.TrimRight(foot, " "), "q quit") || strings.Contains(foot, "…") {
			t.Errorf("%s: the footer should say last time, ? keys and q quit, uncut: %q", o.Scene, foot)
		}
	}
}
