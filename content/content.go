// Package content holds the course text of every scene, in the project's
// own words, embedded with go:embed.
//
// A scene's file is content/text/<id>.txt: sections opened by a line
// "# name", each a paragraph of text. Readout sections may carry fmt verbs
// that the scene fills from what it observed.
package content

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed text/*.txt
var files embed.FS

// Text is one scene's sections by name.
type Text map[string]string

// Load reads the scene's text. It fails only if the file is missing.
func Load(id string) (Text, error) {
	b, err := files.ReadFile("text/" + id + ".txt")
	if err != nil {
		return nil, fmt.Errorf("no course text for scene %q", id)
	}
	return Parse(string(b)), nil
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

// Get returns the section filled with args (fmt verbs). A missing section
// comes back as "[no text: name]" so the gap shows on screen and in tests.
func (t Text) Get(name string, args ...any) string {
	s, ok := t[name]
	if !ok {
		return "[no text: " + name + "]"
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}
