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
// reading of an event (granted, refused, released, ...); the files
// ledger-<kind>.txt beside it hold more of them, one kind each (Shared).
// A scene's own file overrides any of them by using the same section name.
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

	"locksim/shown"
)

//go:embed text/*.txt
var files embed.FS

// Text is one scene's sections by name.
type Text map[string]string

// Shared is the name of the sentences every scene shares: the text of
// the files ledger.txt and ledger-<kind>.txt (sharedFile), each section
// in one of them only.
const Shared = "ledger"

// sharedFile reports whether name, a file of text/, holds sentences every
// scene shares: ledger.txt or one of the ledger-<kind>.txt beside it.
func sharedFile(name string) bool {
	return name == Shared+".txt" || strings.HasPrefix(name, Shared+"-") && strings.HasSuffix(name, ".txt")
}

// sources are the files id's text is read from: text/<id>.txt, or, for
// the shared sentences, every shared file (sharedFile) in name order.
func sources(id string) ([]string, error) {
	if id != Shared {
		b, err := files.ReadFile("text/" + id + ".txt")
		if err != nil {
			return nil, err
		}
		return []string{string(b)}, nil
	}
	entries, err := files.ReadDir("text")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !sharedFile(e.Name()) {
			continue
		}
		b, err := files.ReadFile("text/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, string(b))
	}
	return out, nil
}

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

// LoadOwn reads id's own file in the screen's form, without the shared
// sentences Load lays it over: for a text that reads none of them (the
// checker's), which would otherwise copy and render every shared sentence.
func LoadOwn(id string) (Text, error) {
	srcs, err := sources(id)
	if err != nil {
		return nil, fmt.Errorf("no course text %q", id)
	}
	if len(srcs) == 1 {
		return ParseForm(srcs[0], Screen), nil
	}
	t := Text{}
	for _, src := range srcs {
		maps.Copy(t, ParseForm(src, Screen))
	}
	return t, nil
}

// LoadForm is Load in the given form. Each (id, form) is parsed once per
// process (see parsed); the caller gets a copy of its own to keep or change.
func LoadForm(id string, f Form) (Text, error) {
	t, err := cached(id, f)
	if err != nil {
		return nil, err
	}
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

// cached is the text of (id, f) as parsed stores it, parsed on first use:
// shared, so never to be changed (LoadForm copies it).
func cached(id string, f Form) (Text, error) {
	k := textKey{id, f}
	if t, ok := parsed.Load(k); ok {
		return t.(Text), nil
	}
	t, err := loadForm(id, f)
	if err != nil {
		return nil, err
	}
	got, _ := parsed.LoadOrStore(k, t)
	return got.(Text), nil
}

// loadForm reads and parses the scene's text over the shared sentences,
// which are parsed once for every scene (the Raw form of Shared), into a
// new Text. A form other than Raw is rendered from the Raw text, section
// by section, so that a file is split into sections once whatever forms a
// run reads it in (the screen's and the handout's of the shared sentences
// were a tenth of -plain -scene race).
func loadForm(id string, f Form) (Text, error) {
	if f != Raw {
		raw, err := cached(id, Raw)
		if err != nil {
			return nil, err
		}
		t := make(Text, len(raw))
		for k, v := range raw {
			t[k] = render(v, f)
		}
		return t, nil
	}
	srcs, err := sources(id)
	if err != nil {
		return nil, fmt.Errorf("no course text for scene %q", id)
	}
	var common Text
	if id != Shared {
		common, _ = cached(Shared, Raw)
	}
	t := make(Text, len(common))
	maps.Copy(t, common)
	for _, src := range srcs {
		all, spans := sections(src)
		for _, sp := range spans {
			t[sp.name] = all[sp.from:sp.to]
		}
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
// tests. A value cut short with "…" (a token, a command naming one)
// that ends a sentence ends it: the full stop after it goes, so no
// sentence ends in an ellipsis and a full stop. A control character in a
// value is shown, not obeyed (shown.Text).
func (t Text) Fill(name string, vars map[string]string) string {
	s, ok := t[name]
	if !ok {
		return "[no text: " + name + "]"
	}
	// a value may be a server's or a learner's text: a reply or its
	// error code comes escaped already (sim.Escape, unchanged here), but
	// not every value is a reply's (the outage's err is a live server's
	// connection error, and some sixty callers fill slots): the whole
	// sentence is shown, never obeyed, whatever made its values
	out := shown.Text(fill(s, vars))
	if strings.Contains(out, "….") {
		out = strings.ReplaceAll(out, "….", "…")
	}
	return out
}

// fill replaces each {slot} of s by vars[slot], left to right, a value
// never read again for slots: what a strings.Replacer of every "{slot}"
// does (TestFillAsReplacer), without building one for each sentence (a
// readout fills a dozen, each with a score of slots). A slot's name holds
// no brace, so at each "{" only the name up to the next "}" can match; a
// name with a brace in it goes to the Replacer.
func fill(s string, vars map[string]string) string {
	if len(vars) == 0 || strings.IndexByte(s, '{') < 0 {
		return s
	}
	for k := range vars {
		if strings.ContainsAny(k, "{}") {
			return replacerFill(s, vars)
		}
	}
	var out strings.Builder
	out.Grow(len(s))
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		out.WriteString(s[:i])
		s = s[i:]
		if j := strings.IndexByte(s, '}'); j > 0 {
			if v, ok := vars[s[1:j]]; ok {
				out.WriteString(v)
				s = s[j+1:]
				continue
			}
		}
		out.WriteByte('{')
		s = s[1:]
	}
	out.WriteString(s)
	return out.String()
}

// replacerFill is fill by a strings.Replacer of every "{slot}", in the
// order of the slots' names.
func replacerFill(s string, vars map[string]string) string {
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
	all, spans := sections(src)
	t := make(Text, len(spans))
	for _, sp := range spans {
		t[sp.name] = render(all[sp.from:sp.to], f)
	}
	return t
}

// span is a section of a file as sections finds it: its name, and where
// its text is in the buffer sections returns.
type span struct {
	name     string
	from, to int
}

// sections splits src into its sections, in the order written (a section
// named again takes the place of the one before once they are stored in
// that order), their text in all. It reads them as they were read
// when each section's lines were trimmed and joined with "\n", each "\n\n"
// then made a paragraph break, the whole trimmed, and each "\n" left made
// a space (TestParseAsJoined keeps that reading as its reference): lines
// are joined by spaces, a blank line between two starts a new paragraph,
// a second adds a space after the break, a third another break, and so
// on; blank lines at a section's ends count as the joining's trimming
// left them. Written in one pass over src, every section's text built in
// one buffer: parsing the shared sentences and its scene's text was a
// tenth of a -plain start (and counting the sections first, to size what
// holds them, a fiftieth).
func sections(src string) (all string, spans []span) {
	// every section's text goes into one buffer, no longer than src, and
	// each is a slice of it
	var buf strings.Builder
	buf.Grow(len(src))
	spans = make([]span, 0, len(src)/64+1) // a section is a few lines
	name := ""
	var s section
	for rest := src; ; {
		line, after, more := strings.Cut(rest, "\n")
		if header, ok := strings.CutPrefix(line, "# "); ok {
			if name != "" {
				spans = append(spans, span{name, s.from, s.end()})
			}
			name = strings.TrimSpace(header)
			s = section{text: &buf, from: buf.Len()}
		} else if name != "" {
			s.line(strings.TrimSpace(line))
		}
		if !more {
			break
		}
		rest = after
	}
	if name != "" {
		spans = append(spans, span{name, s.from, s.end()})
	}
	return buf.String(), spans
}

// section is a section's text as sections builds it, line by line, in
// text from from on.
type section struct {
	text *strings.Builder
	from int
	// seen: a line of text was written; blanks counts the blank lines
	// since the last one (or since the header, before the first)
	seen   bool
	blanks int
}

// breaks writes what n line breaks of the joined lines read as: a
// paragraph break for each pair, a space for one left over.
func (s *section) breaks(n int) {
	for range n / 2 {
		s.text.WriteByte('\n')
	}
	if n%2 == 1 {
		s.text.WriteByte(' ')
	}
}

// line adds one trimmed line.
func (s *section) line(l string) {
	if l == "" {
		s.blanks++
		return
	}
	switch {
	case s.seen:
		s.breaks(s.blanks + 1)
	case s.blanks > 1: // a lone line break at the start was trimmed
		s.breaks(s.blanks)
	}
	if strings.IndexByte(l, 0) >= 0 {
		l = strings.ReplaceAll(l, "\x00", "\n") // the joining read a NUL as a break
	}
	s.text.WriteString(l)
	s.seen, s.blanks = true, 0
}

// end ends the section's text and returns where it ends: a line break
// left over at its end was trimmed, and so was one of a section with no
// text.
func (s *section) end() int {
	n := s.blanks
	if !s.seen {
		n-- // n lines joined: one break fewer
	}
	for range max(n, 0) / 2 {
		s.text.WriteByte('\n')
	}
	return s.text.Len()
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
	srcs, err := sources(id)
	if err != nil {
		return nil, nil, fmt.Errorf("no course text %q", id)
	}
	t = Text{}
	for _, src := range srcs {
		for _, line := range strings.Split(src, "\n") {
			if rest, ok := strings.CutPrefix(line, "# "); ok {
				names = append(names, strings.TrimSpace(rest))
			}
		}
		maps.Copy(t, ParseForm(src, Screen))
	}
	return names, t, nil
}
