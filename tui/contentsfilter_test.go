package tui

import (
	"slices"
	"testing"

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
