package content

import (
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
)

// parseJoined is how sections were parsed before one pass read them: each
// section's lines trimmed and joined with "\n", the whole trimmed, each
// "\n\n" then a paragraph break and each other "\n" a space. sections
// must read every text as it does.
func parseJoined(src string, f Form) Text {
	t := Text{}
	name := ""
	var body []string
	flush := func() {
		if name != "" {
			v := strings.TrimSpace(strings.ReplaceAll(strings.Join(body, "\n"), "\n\n", "\x00"))
			t[name] = render(strings.ReplaceAll(strings.ReplaceAll(v, "\n", " "), "\x00", "\n"), f)
		}
	}
	for _, line := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			flush()
			name, body = strings.TrimSpace(rest), nil
			continue
		}
		body = append(body, strings.TrimSpace(line))
	}
	flush()
	return t
}

// TestParseAsJoined: ParseForm reads every embedded text, in every form,
// and texts made of the odd lines a file could hold (runs of blank lines,
// blank lines at a section's ends, spaces and tabs, CRLF, a NUL, text
// before the first section, a section named twice or left empty), as the
// reference does.
func TestParseAsJoined(t *testing.T) {
	var srcs []string
	for _, dir := range []string{"text", "lab"} {
		fs := files
		if dir == "lab" {
			fs = labFiles
		}
		entries, err := fs.ReadDir(dir)
		if err != nil || len(entries) == 0 {
			t.Fatalf("no texts in %s: %v", dir, err)
		}
		for _, e := range entries {
			b, err := fs.ReadFile(dir + "/" + e.Name())
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, string(b))
		}
	}
	srcs = append(srcs, "", "\n", "# a", "# a\n", "preamble\n# a\nx", "# a\n\n\nx\n\n\n", "# a\nx\n# a\ny",
		"# a\n# b\nz", "#a\n# b\n #c\nd", "# a \t\r\nx\r\n\r\ny\r\n", "# a\nx\x00y\n\n\x00\n")
	// lines drawn from a small alphabet of what a file could hold
	pieces := []string{"# s", "# t", "", "", "", " ", "\t", "word", "  two words  ", "[[k|paper]] said", "a [[key]].", "\r", "\x00", "\u00a0", "# ", "#x"}
	r := rand.New(rand.NewPCG(55, 5))
	for range 2000 {
		lines := make([]string, r.IntN(14))
		for i := range lines {
			lines[i] = pieces[r.IntN(len(pieces))]
		}
		srcs = append(srcs, strings.Join(lines, "\n"))
	}
	for _, src := range srcs {
		for _, f := range []Form{Screen, Handout, Raw} {
			if got, want := ParseForm(src, f), parseJoined(src, f); !maps.Equal(got, want) {
				t.Fatalf("form %d of %q:\n got %q\nwant %q", f, src, got, want)
			}
		}
	}
}
