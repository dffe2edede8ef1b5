package class

import (
	"slices"
	"strings"
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
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			if r > foldRunes[len(foldRunes)-1][0] && r > foldStrings[len(foldStrings)-1].r {
				// above every rune of the tables (most of Unicode)
				b.WriteRune(unicode.ToLower(r))
			} else if j, ok := slices.BinarySearchFunc(foldRunes[:], r, func(f [2]rune, r rune) int { return int(f[0] - r) }); ok {
				b.WriteRune(foldRunes[j][1])
			} else if j, ok := slices.BinarySearchFunc(foldStrings[:], r, func(f folding, r rune) int { return int(f.r - r) }); ok {
				b.WriteString(foldStrings[j].to)
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
			i += n
			continue
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// folding is a rune that folds to more than one (foldStrings); a rune
// that folds to one rune other than its lower case is a pair in
// foldRunes.
type folding struct {
	r  rune
	to string
}
