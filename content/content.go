// Package content holds the course text of every scene, in the project's
// own words, embedded with go:embed.
//
// A scene's file is content/text/<id>.txt: sections opened by a line
// "# name", each a paragraph of text. A section is either plain (Get) or
// carries named slots such as {actor} (Fill) that the scene fills from what
// the ledger read in the replies; numbers come in as decimal strings. No
// section uses fmt verbs: a "%" in the text is a literal percent sign.
//
// content/text/ledger.txt holds the sentences every scene shares: one per
// reading of an event (granted, refused, released, ...). A scene's own file
// overrides any of them by using the same section name.
package content

import (
	"embed"
	"fmt"
	"sort"
	"strings"
)

//go:embed text/*.txt
var files embed.FS

// Text is one scene's sections by name.
type Text map[string]string

// Shared is the name of the file of sentences every scene shares.
const Shared = "ledger"

// Load reads the scene's text over the shared sentences. It fails only if
// the scene's file is missing.
func Load(id string) (Text, error) {
	b, err := files.ReadFile("text/" + id + ".txt")
	if err != nil {
		return nil, fmt.Errorf("no course text for scene %q", id)
	}
	t := Text{}
	if common, err := files.ReadFile("text/" + Shared + ".txt"); err == nil && id != Shared {
		for k, v := range Parse(string(common)) {
			t[k] = v
		}
	}
	for k, v := range Parse(string(b)) {
		t[k] = v
	}
	return t, nil
}

// Has reports whether the section exists.
func (t Text) Has(name string) bool {
	_, ok := t[name]
	return ok
}

// Fill returns the section with every {slot} replaced by vars[slot]. A
// slot with no value is left as it is, so the gap shows on screen and in
// tests.
func (t Text) Fill(name string, vars map[string]string) string {
	s, ok := t[name]
	if !ok {
		return "[no text: " + name + "]"
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pairs := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		pairs = append(pairs, "{"+k+"}", vars[k])
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// Parse splits a scene file into its sections. Lines inside a section are
// joined with spaces; a blank line starts a new paragraph.
func Parse(src string) Text {
	t := Text{}
	name := ""
	var body []string
	flush := func() {
		if name != "" {
			t[name] = strings.TrimSpace(strings.ReplaceAll(strings.Join(body, "\n"), "\n\n", "\x00"))
			t[name] = strings.ReplaceAll(strings.ReplaceAll(t[name], "\n", " "), "\x00", "\n")
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

// Get returns the section as written, with no slots filled. A missing
// section comes back as "[no text: name]" so the gap shows on screen and in
// tests.
func (t Text) Get(name string) string {
	s, ok := t[name]
	if !ok {
		return "[no text: " + name + "]"
	}
	return s
}
