package tui

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/list"
)

// wordFilter is the contents' filter (a list.FilterFunc over each
// entry's FilterValue, its id and then its title): an entry is listed
// when every word of the term starts a word of it, case aside. A
// hyphenated name is a word, and so is each of its parts: "gc" and
// "pause" find gc-pause, "key-n" finds key-naming. The list's own filter
// took any letters in order, anywhere ("gc" found key-naming: its g, then
// the c of "lock"). The matches come in the course's order, those whose
// id starts with the term first, then those where a word of the id does,
// then the rest; a target with no word (a part's heading) never matches.
func wordFilter(term string, targets []string) []list.Rank {
	var want []string
	for _, w := range strings.Fields(term) {
		if w = strings.TrimFunc(strings.ToLower(w), notWordRune); w != "" {
			want = append(want, w)
		}
	}
	type ranked struct {
		list.Rank
		score int
	}
	var out []ranked
	for i, target := range targets {
		words := wordsOf(target)
		if len(words) == 0 {
			continue
		}
		r := ranked{Rank: list.Rank{Index: i}}
		ok := true
		for _, w := range want {
			best := -1
			for j, x := range words {
				if strings.HasPrefix(x.text, w) && (best < 0 || x.tier < words[best].tier) {
					best = j
				}
			}
			if best < 0 {
				ok = false
				break
			}
			r.score += words[best].tier
			for k := range len([]rune(w)) {
				r.MatchedIndexes = append(r.MatchedIndexes, words[best].at+k)
			}
		}
		if !ok {
			continue
		}
		slices.Sort(r.MatchedIndexes)
		r.MatchedIndexes = slices.Compact(r.MatchedIndexes)
		out = append(out, r)
	}
	// sort.SliceStable, not slices.SortStableFunc: shared code, not a
	// stable sort compiled for this struct alone (5 KB of binary)
	sort.SliceStable(out, func(i, j int) bool { return out[i].score < out[j].score })
	ranks := make([]list.Rank, len(out))
	for i, r := range out {
		ranks[i] = r.Rank
	}
	return ranks
}

// filterWord is a word of a filter's target, lower-cased: where it starts
// (in runes) and its tier, 0 for the target's first word (an entry's id),
// 1 for a part of that one's hyphenated name, 2 for any other.
type filterWord struct {
	text     string
	at, tier int
}

// wordsOf is the words of target: each run of letters, digits and
// hyphens, and each hyphenated part of one.
func wordsOf(target string) []filterWord {
	var out []filterWord
	runes := []rune(target)
	for i := 0; i < len(runes); {
		if notWordRune(runes[i]) {
			i++
			continue
		}
		j := i
		for j < len(runes) && !notWordRune(runes[j]) {
			j++
		}
		tier := 2
		if len(out) == 0 {
			tier = 0
		}
		word := lowerRunes(runes[i:j])
		out = append(out, filterWord{text: word, at: i, tier: tier})
		if parts := strings.Split(word, "-"); len(parts) > 1 {
			at := i
			for _, p := range parts {
				if p != "" {
					out = append(out, filterWord{text: p, at: at, tier: max(tier, 1)})
				}
				at += len([]rune(p)) + 1
			}
		}
		i = j
	}
	return out
}

// notWordRune reports whether r is no part of a word: neither a letter,
// a digit nor a hyphen.
func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
}

// lowerRunes is rs lower-cased rune by rune, so that a word's runes stay
// where they were.
func lowerRunes(rs []rune) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
