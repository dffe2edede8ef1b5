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
//
// Text that only makes sense on the interactive screen (a key to press, "Step
// with → or n", "(k)") is written between [[ and ]]. The screen's form (Load,
// Parse) keeps it and drops the brackets; the handout's form (LoadHandout,
// ParseHandout), for a printed transcript with no keys to press, drops the
// whole span and the space before it. A span may carry the handout's own
// wording after a "|": "the policy [[m shows|of this story]]" reads "the
// policy m shows" on screen and "the policy of this story" on paper. A
// paragraph left empty goes too. Spans do not nest.
package content

import (
	"embed"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"
)

//go:embed text/*.txt
var files embed.FS

// Text is one scene's sections by name.
type Text map[string]string

// Shared is the name of the file of sentences every scene shares.
const Shared = "ledger"

// Form is which reader a text is for: the screen or the handout.
type Form int

const (
	// Screen keeps every [[...]] span's screen text, without the brackets.
	Screen Form = iota
	// Handout drops every [[...]] span, or puts its "|" wording in its place.
	Handout
	// Raw keeps the markers as written, for checking them.
	Raw
)

// Load reads the scene's text, in the screen's form, over the shared
// sentences. It fails only if the scene's file is missing.
func Load(id string) (Text, error) {
	return LoadForm(id, Screen)
}

// LoadHandout is Load in the handout's form: no span that names a key of
// the screen.
func LoadHandout(id string) (Text, error) {
	return LoadForm(id, Handout)
}

// LoadForm is Load in the given form. Each (id, form) is parsed once per
// process (see parsed); the caller gets a copy of its own to keep or change.
func LoadForm(id string, f Form) (Text, error) {
	k := textKey{id, f}
	if t, ok := parsed.Load(k); ok {
		return maps.Clone(t.(Text)), nil
	}
	t, err := loadForm(id, f)
	if err != nil {
		return nil, err
	}
	parsed.Store(k, t)
	return maps.Clone(t), nil
}

// parsed holds each text LoadForm has parsed, by scene and form. The texts
// are embedded and never change, so a text parsed once is the text for the
// life of the process; a play opens its scene's text for every story (a
// transcript's variants, the fingerprint's default stories), and parsing it
// again each time was a tenth of a -plain run. Entries are never changed
// after they are stored: LoadForm hands out copies.
var parsed sync.Map // textKey → Text

type textKey struct {
	id string
	f  Form
}

// loadForm reads and parses the scene's text over the shared sentences,
// which are parsed once for every scene (LoadForm of Shared). A form other
// than Raw is rendered from the Raw text, section by section, so that a
// file is split into sections once whatever forms a run reads it in (the
// screen's and the handout's of the shared sentences were a tenth of
// -plain -scene race).
func loadForm(id string, f Form) (Text, error) {
	if f != Raw {
		t, err := LoadForm(id, Raw)
		if err != nil {
			return nil, err
		}
		for k, v := range t {
			t[k] = render(v, f)
		}
		return t, nil
	}
	b, err := files.ReadFile("text/" + id + ".txt")
	if err != nil {
		return nil, fmt.Errorf("no course text for scene %q", id)
	}
	t := Text{}
	if id != Shared {
		if common, err := LoadForm(Shared, f); err == nil {
			t = common
		}
	}
	for k, v := range ParseForm(string(b), f) {
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

// Parse splits a scene file into its sections, in the screen's form. Lines
// inside a section are joined with spaces; a blank line starts a new
// paragraph.
func Parse(src string) Text {
	return ParseForm(src, Screen)
}

// ParseHandout is Parse in the handout's form.
func ParseHandout(src string) Text {
	return ParseForm(src, Handout)
}

// ParseForm is Parse in the given form.
func ParseForm(src string, f Form) Text {
	t := Text{}
	name := ""
	var body []string
	flush := func() {
		if name != "" {
			t[name] = strings.TrimSpace(strings.ReplaceAll(strings.Join(body, "\n"), "\n\n", "\x00"))
			t[name] = strings.ReplaceAll(strings.ReplaceAll(t[name], "\n", " "), "\x00", "\n")
			t[name] = render(t[name], f)
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

// The markers of a span that only the screen shows, and of its handout
// wording.
const (
	openMark  = "[["
	closeMark = "]]"
	altMark   = "|"
)

// render turns a parsed section into the form f.
func render(s string, f Form) string {
	if f == Raw || !strings.Contains(s, openMark) {
		return s
	}
	var paras []string
	for _, p := range strings.Split(s, "\n") {
		if !strings.Contains(p, openMark) {
			paras = append(paras, p)
			continue
		}
		if p = renderPara(p, f); p != "" {
			paras = append(paras, p)
		}
	}
	return strings.Join(paras, "\n")
}

// renderPara renders one paragraph's spans. In the handout's form a
// dropped span takes the space before it along, or the space after it
// when it opens the paragraph, so no double space or " ." is left.
func renderPara(p string, f Form) string {
	var out strings.Builder
	for {
		i := strings.Index(p, openMark)
		if i < 0 {
			break
		}
		j := strings.Index(p[i:], closeMark)
		if j < 0 {
			break // unbalanced: CheckMarkers reports it
		}
		span := p[i+len(openMark) : i+j]
		out.WriteString(p[:i])
		p = p[i+j+len(closeMark):]
		screen, paper, hasAlt := strings.Cut(span, altMark)
		if f == Screen {
			out.WriteString(screen)
			continue
		}
		if hasAlt {
			out.WriteString(paper)
			continue
		}
		kept := strings.TrimRight(out.String(), " ")
		switch {
		case kept == "":
			p = strings.TrimLeft(p, " ")
		case p == "" || strings.ContainsAny(p[:1], " .,;:)?!"):
			out.Reset()
			out.WriteString(kept)
		}
	}
	out.WriteString(p)
	if f == Handout {
		return strings.TrimSpace(out.String())
	}
	return out.String()
}

// CheckMarkers reports the first [[...]] span of a section that does not
// close, nests, or holds more than one "|".
func CheckMarkers(s string) error {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], openMark):
			if depth > 0 {
				return fmt.Errorf("a span opens inside another at %q", excerpt(s, i))
			}
			depth, start = 1, i
			i++
		case strings.HasPrefix(s[i:], closeMark):
			if depth == 0 {
				return fmt.Errorf("a span closes that never opened at %q", excerpt(s, i))
			}
			if strings.Count(s[start:i], altMark) > 1 {
				return fmt.Errorf("a span has more than one %q at %q", altMark, excerpt(s, start))
			}
			if strings.Contains(s[start:i], "\n") {
				return fmt.Errorf("a span crosses a paragraph at %q", excerpt(s, start))
			}
			depth = 0
			i++
		}
	}
	if depth > 0 {
		return fmt.Errorf("a span never closes at %q", excerpt(s, start))
	}
	return nil
}

// excerpt is up to 40 bytes of s from i, for an error message.
func excerpt(s string, i int) string {
	return s[i:min(len(s), i+40)]
}

// ScreenSpans returns the screen's wording of every [[...]] span in every
// scene's file and the shared one, whitespace collapsed, slots left as
// written: what a handout must never say.
func ScreenSpans() ([]string, error) {
	entries, err := files.ReadDir("text")
	if err != nil {
		return nil, err
	}
	var spans []string
	for _, e := range entries {
		b, err := files.ReadFile("text/" + e.Name())
		if err != nil {
			return nil, err
		}
		rest := strings.Join(strings.Fields(string(b)), " ")
		for {
			_, after, ok := strings.Cut(rest, openMark)
			if !ok {
				break
			}
			span, tail, ok := strings.Cut(after, closeMark)
			if !ok {
				break
			}
			screen, _, _ := strings.Cut(span, altMark)
			spans = append(spans, screen)
			rest = tail
		}
	}
	return spans, nil
}

// Glossary is the text of the glossary: a list of terms, not a scene.
const Glossary = "glossary"

// Ordered is the course text id's sections in the order written, each as
// the screen shows it, without the shared text Load adds: for a list read
// in its own order, such as the glossary.
func Ordered(id string) (names []string, t Text, err error) {
	b, err := files.ReadFile("text/" + id + ".txt")
	if err != nil {
		return nil, nil, fmt.Errorf("no course text %q", id)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			names = append(names, strings.TrimSpace(rest))
		}
	}
	return names, ParseForm(string(b), Screen), nil
}
