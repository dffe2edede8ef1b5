package tui

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/list"
)

// filtered is the ids of the contents' entries the filter q leaves, in
// the order listed, typed as a learner types it (/ then q).
func filtered(t *testing.T, q string) []string {
	t.Helper()
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	a.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic) // no blink: drive runs no timers
	drive(t, a, keys("/"+q)...)
	var ids []string
	for _, it := range a.toc.list().VisibleItems() {
		if e, ok := it.(entry); ok {
			ids = append(ids, e.id)
		}
	}
	return ids
}

// TestContentsFilterMatchesWords: the contents' filter lists a scene
// when each word typed starts a word of its id or title, case aside:
// gc and pause find gc-pause, and gc does not find key-naming (the
// list's fuzzy filter took its g and the c of "lock").
func TestContentsFilterMatchesWords(t *testing.T) {
	for _, c := range []struct {
		q        string
		want     []string // listed
		not      []string // not listed
		wantOnly bool
	}{
		{"gc", []string{"gc-pause"}, []string{"key-naming"}, true},
		{"pause", []string{"gc-pause"}, nil, true},
		{"GC", []string{"gc-pause"}, []string{"key-naming"}, true},
		{"key-n", []string{"key-naming"}, nil, true},
		{"naming", []string{"key-naming"}, nil, true},
		{"lea", []string{"claim-lease", "extend"}, nil, false},
		{"frozen lock", []string{"gc-pause"}, nil, true},
		{"lock frozen", []string{"gc-pause"}, nil, true},
		{"ock", nil, []string{"gc-pause", "key-naming", "release"}, true},
		{"qqq", nil, nil, true},
	} {
		got := filtered(t, c.q)
		for _, id := range c.want {
			if !slices.Contains(got, id) {
				t.Errorf("/%s lists %v, not %s", c.q, got, id)
			}
		}
		for _, id := range c.not {
			if slices.Contains(got, id) {
				t.Errorf("/%s lists %s: %v", c.q, id, got)
			}
		}
		if c.wantOnly && len(got) != len(c.want) {
			t.Errorf("/%s lists %v, want only %v", c.q, got, c.want)
		}
	}
}

// TestWordFilterRanks: a scene whose id the term starts comes first, then
// one with a word of its id so, then one with a word of its title, each
// group in the list's order; the matched letters are where the words
// start; a target of no word (a part's heading) never matches.
func TestWordFilterRanks(t *testing.T) {
	targets := []string{"", "extend Renewing a lease with a watchdog", "claim-lease A lease, not a lock", "lease-x Whatever", "x-y Lease"}
	got := wordFilter("lease", targets)
	var order []int
	for _, r := range got {
		order = append(order, r.Index)
	}
	if want := []int{3, 2, 1, 4}; !slices.Equal(order, want) {
		t.Errorf("lease ranks %v, want %v", order, want)
	}
	if want := (list.Rank{Index: 2, MatchedIndexes: []int{6, 7, 8, 9, 10}}); len(got) < 2 || !slices.Equal(got[1].MatchedIndexes, want.MatchedIndexes) {
		t.Errorf("lease in claim-lease is matched at %v, want %v", got, want.MatchedIndexes)
	}
	if got := wordFilter("a", []string{"", "· ·"}); len(got) != 0 {
		t.Errorf("a target of no word matched: %v", got)
	}
	if got := wordFilter("ÉTÉ", []string{"x Un été"}); len(got) != 1 || !slices.Equal(got[0].MatchedIndexes, []int{5, 6, 7}) {
		t.Errorf("ÉTÉ should match été at runes 5-7: %v", got)
	}
}

// TestFilterUnderlinesTheRowsLetters: the list underlines the matched
// letters at the rune positions the filter counted (lipgloss.StyleRunes
// on the entry's row, Title): they must be the letters typed in the row
// as drawn. They were counted in "id title", and "frozen" was underlined
// six letters to its left, in the mark, the number and the id. Checked on
// the contents as filtered at 80 columns, and on an entry of a wide title
// (two columns a rune, a rune of two bytes) in a narrow row.
func TestFilterUnderlinesTheRowsLetters(t *testing.T) {
	underlined := func(row string, at []int) string {
		rs := []rune(row)
		var b strings.Builder
		for _, i := range at {
			if i < len(rs) {
				b.WriteRune(unicode.ToLower(rs[i]))
			}
		}
		return b.String()
	}
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	a.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic)
	drive(t, a, keys("/lock fro")...)
	m := a.toc.list()
	for i, it := range m.VisibleItems() {
		if got := underlined(it.(entry).Title(), m.MatchesForItem(i)); got != "frolock" && got != "lockfro" {
			t.Errorf("/lock fro underlines %q of the row %q", got, it.(entry).Title())
		}
	}
	if len(m.VisibleItems()) == 0 {
		t.Fatal("/lock fro lists nothing")
	}
	wide := entry{n: 12, id: "été", title: "鍵の 排他 lock ça", dive: "essay", width: 30, done: true}
	r := wordFilter("ça 排", []string{wide.FilterValue()})
	if len(r) != 1 || underlined(wide.Title(), r[0].MatchedIndexes) != "排ça" {
		t.Errorf("ça 排 underlines %v of the row %q", r, wide.Title())
	}
}
