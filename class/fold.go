package class

import (
	"unicode"
	"unicode/utf8"
)

//go:generate go test -run ^TestFoldTable$ -update-fold

// foldCase is Unicode's full case folding of s, rune by rune, as
// golang.org/x/text/cases.Fold() folds it: each rune in foldRunes or
// foldStrings becomes its folding there, every other rune its lower case
// (unicode.ToLower), and each byte that is not UTF-8 stays as it is. It reads a table go generate writes from x/text
// (fold_table.go; TestFoldTable checks it against every rune), so that
// the binary does not carry x/text's cases and language packages for the
// odd roster name that is not ASCII (a tenth of a megabyte of code).
func foldCase(s string) string {
	// one pass with the range loop's own decoding and appends to one
	// buffer: TestFoldTable folds every rune, and under -race each call
	// per rune (a decode, a builder's write, a search's comparison
	// function) was most of its time
	b := make([]byte, 0, len(s))
	lastRune, lastString := foldRunes[len(foldRunes)-1][0], foldStrings[len(foldStrings)-1].r
	for i, r := range s {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b = append(b, byte(r))
		case r == utf8.RuneError && !validAt(s, i):
			// a byte that is not UTF-8 stays as it is
			b = append(b, s[i])
		case r > lastRune && r > lastString:
			// above every rune of the tables (most of Unicode)
			b = utf8.AppendRune(b, unicode.ToLower(r))
		default:
			if j, ok := searchRunes(r); ok {
				b = utf8.AppendRune(b, foldRunes[j][1])
			} else if j, ok := searchStrings(r); ok {
				b = append(b, foldStrings[j].to...)
			} else {
				b = utf8.AppendRune(b, unicode.ToLower(r))
			}
		}
	}
	return string(b)
}

// validAt reports whether s holds a valid encoding of utf8.RuneError at i
// (which the range loop decodes alike from a byte that is not UTF-8).
func validAt(s string, i int) bool {
	_, n := utf8.DecodeRuneInString(s[i:])
	return n > 1
}

// searchRunes is the index of r in foldRunes, by binary search.
func searchRunes(r rune) (int, bool) {
	lo, hi := 0, len(foldRunes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if foldRunes[m][0] < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(foldRunes) && foldRunes[lo][0] == r
}

// searchStrings is the index of r in foldStrings, by binary search.
func searchStrings(r rune) (int, bool) {
	lo, hi := 0, len(foldStrings)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if foldStrings[m].r < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(foldStrings) && foldStrings[lo].r == r
}

// folding is a rune that folds to more than one (foldStrings); a rune
// that folds to one rune other than its lower case is a pair in
// foldRunes.
type folding struct {
	r  rune
	to string
}
