package views

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// courseTexts is every paragraph of the course's texts (content/text and
// content/lab) with its lines joined as the screens show it, and a
// quarter of them also as written.
func courseTexts(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{"../content/text", "../content/lab"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no texts in %s: %v", dir, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range strings.Split(string(b), "\n\n") {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, strings.ReplaceAll(p, "\n", " "))
					if len(out)%4 == 0 { // a quarter as written, rows and all
						out = append(out, p)
					}
				}
			}
		}
	}
	return out
}

// lipglossWrap is what the callers of Wrapped, Rows and Wrap did before:
// the unstyled style of the width renders text, and each row is trimmed.
func lipglossWrap(st Styles, text string, width int) (string, int) {
	r := st.Plain.Width(width).Render(text)
	lines := strings.Split(r, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n"), len(lines)
}

// checkStylesWrap fails unless st.Wrap(text, width, rows) is rows rows:
// the rows lipgloss wraps text to (its lines joined as Join joins them,
// unjoined after), each trimmed, then blank rows; or, when lipgloss
// takes more, its first rows-1 and the start of the next that fits
// width-1 columns, with "…".
func checkStylesWrap(t *testing.T, st Styles, text string, width, rows int) {
	t.Helper()
	full := strings.Split(unjoin(st.Plain.Width(max(width, 1)).Render(Join(text))), "\n")
	for i := range full {
		full[i] = strings.TrimRight(full[i], " ")
	}
	out := st.Wrap(text, width, rows)
	got := strings.Split(out, "\n")
	if len(got) != rows {
		t.Fatalf("Wrap(%q, %d, %d) is %d rows:\n%q", text, width, rows, len(got), out)
	}
	if len(full) <= rows {
		if want := append(full, make([]string, rows-len(full))...); !slices.Equal(got, want) {
			t.Fatalf("Wrap(%q, %d, %d) =\n%q\nthrough lipgloss\n%q", text, width, rows, out, want)
		}
		return
	}
	if !slices.Equal(got[:rows-1], full[:rows-1]) {
		t.Fatalf("Wrap(%q, %d, %d) =\n%q\nthrough lipgloss\n%q", text, width, rows, out, full)
	}
	cut, ok := strings.CutSuffix(got[rows-1], "…")
	if next := full[rows-1]; !ok || !strings.HasPrefix(next, cut) || Width(cut) > width-1 ||
		cut != next && Width(cut) < width-2 {
		t.Fatalf("Wrap(%q, %d, %d) ends %q: want the start of %q within %d columns, then …", text, width, rows, got[rows-1], next, width-1)
	}
}

func checkWrap(t *testing.T, st Styles, text string, width int) {
	t.Helper()
	want, rows := lipglossWrap(st, text, width)
	if got := Wrapped(text, width); got != want {
		t.Fatalf("Wrapped(%q, %d) =\n%q\nlipgloss wraps\n%q", text, width, got, want)
	}
	if got := Rows(text, width); got != rows {
		t.Fatalf("Rows(%q, %d) = %d, lipgloss wraps to %d", text, width, got, rows)
	}
	if n := max(rows-1, 1); width%2 == 0 { // cut (with "…") or not: half the texts
		checkStylesWrap(t, st, text, width, n)
	}
}

// TestWrappedIsLipgloss: Wrapped, Rows and Styles.Wrap wrap as an
// unstyled lipgloss style of the width renders, row for row: every
// paragraph of the course at widths 10-120 (each width for
// several paragraphs), and 400 random strings of words, hyphens, negative numbers,
// expiry options, wide runes, marks, tabs, "\r\n" and long words at
// widths 1-40.
func TestWrappedIsLipgloss(t *testing.T) {
	st := ASCII()
	for i, p := range courseTexts(t) {
		checkWrap(t, st, p, 10+i*7%111) // 7 and 111 are coprime: every width in turn
	}
	pieces := []string{"a", "word", " ", "  ", "holders", "-", "-1", "x-y", "PX 100", "EX 5", "界", "世界", "e\u0301",
		"\t", "\r\n", "\n", "…", "\u2764\ufe0f", "\u00a0", "\u2011", "lease-renewal-with-a-very-long-name", "(", "),", "—"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 400 {
		var b strings.Builder
		for range 1 + r.IntN(16) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkWrap(t, st, b.String(), 1+r.IntN(40))
	}
}
