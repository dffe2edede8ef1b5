// Package web is what the course's web front serves besides the sessions
// themselves: the page that opens a terminal (static/, with xterm.js and
// its fit addon under static/vendor/, fetched again and checked by
// fetch-xterm.sh, xterm.js stored gzipped), embedded so the server needs no file at run time, and
// a transcript's text made into an accessible HTML page. It knows nothing
// of sessions or of the course: package serve serves the one and the
// command table (package cli) writes the other.
package web

import (
	"embed"
	"html"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
)

//go:embed static
var static embed.FS

// Static is the page and its assets, index.html at the root; a file
// stored gzipped (NAME.gz: xterm.js) reads as NAME, inflated.
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		// the embed above names the folder: it is always there
		panic(err)
	}
	return gzipped{sub}
}

// CSP is the Content-Security-Policy every response carries: nothing but
// the page's own origin, and inline styles because xterm.js writes style
// elements (inline scripts stay refused).
const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self'; font-src 'self'"

// goesOn is the line a handout (-plain -questions) leaves where a story
// stops at its question, and answerHead the first line of that
// question's entry in the answer key.
var (
	goesOn     = regexp.MustCompile(`^\(the story goes on in the answer key, question (\d+)\)$`)
	answerHead = regexp.MustCompile(`^question (\d+) \(`)
	storyCode  = regexp.MustCompile(`-story ([a-z0-9-]+\.[0-9a-z]+)`)
)

// Handout writes text, a transcript in the handout's form (-plain
// -questions: each story stops at its question, the answers in a key at
// the end), to w as one HTML page titled title: a heading per scene, the
// commands and their replies as code, and each answer in a details
// element right after its question, closed until the reader opens it,
// as the disclosure rule has the screen show it only after the question.
// Story codes become links to the course at the code's place (/s/CODE).
// Every byte of text is escaped. A transcript without questions (a story
// code's) is laid out the same, with no details.
func Handout(w io.Writer, title, text string) error { return handout(w, title, text, true) }

// Questions is the page of a story to its first question and no
// further: what the link beside a terminal opens, since its learner may
// not have answered yet. The answer and the rest of the story are the
// terminal's to show once the question is answered.
func Questions(w io.Writer, title, text string) error { return handout(w, title, text, false) }

// handout writes the page; without answers it ends at the first question.
func handout(w io.Writer, title, text string, withAnswers bool) error {
	body, key := splitKey(text)
	answers := map[string][]string{}
	var order []string
	var cur string
	for _, line := range key {
		if m := answerHead.FindStringSubmatch(line); m != nil {
			cur = m[1]
			order = append(order, cur)
		}
		if cur != "" {
			answers[cur] = append(answers[cur], line)
		}
	}
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	b.WriteString(html.EscapeString(title))
	b.WriteString("</title>\n<style>\nbody { max-width: 48em; margin: 1em auto; padding: 0 1em; font-family: sans-serif; line-height: 1.45; }\np { white-space: pre-line; }\npre { background: #f4f4f4; padding: 0.5em; overflow-x: auto; }\ndetails { border-left: 3px solid #88a; padding-left: 0.75em; margin: 1em 0; }\nsummary { cursor: pointer; font-weight: bold; }\n</style>\n</head>\n<body>\n<main>\n<h1>")
	b.WriteString(html.EscapeString(title))
	b.WriteString("</h1>\n")
	used := map[string]bool{}
	for _, para := range paragraphs(body) {
		last := para[len(para)-1:]
		if n, ok := goesOnAt(last); ok {
			if len(para) > 1 {
				writePara(&b, para[:len(para)-1])
			}
			if !withAnswers {
				b.WriteString("<p><strong>Answer in the terminal:</strong> the answer and the rest of the story are shown there once you have answered.</p>\n</main>\n</body>\n</html>\n")
				_, err := io.WriteString(w, b.String())
				return err
			}
			used[n] = true
			b.WriteString("<details>\n<summary>the answer to question " + n + ", and the rest of the story</summary>\n")
			for _, p := range paragraphs(answers[n]) {
				writePara(&b, p)
			}
			b.WriteString("</details>\n")
			continue
		}
		writePara(&b, para)
	}
	var left []string
	for _, n := range order {
		if !used[n] {
			left = append(left, answers[n]...)
			left = append(left, "")
		}
	}
	if len(left) > 0 {
		b.WriteString("<h2>answer key</h2>\n")
		for _, p := range paragraphs(left) {
			writePara(&b, p)
		}
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// splitKey parts a handout at its answer key: the lines before, and the
// key's lines after its heading.
func splitKey(text string) (body, key []string) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if l == "answer key" && i > 0 && (lines[i-1] == "" || isRule(lines[i-1])) {
			return lines[:i], lines[i+1:]
		}
	}
	return lines, nil
}

// isRule is the line of = between a transcript's scenes.
func isRule(l string) bool { return len(l) >= 20 && strings.Trim(l, "=") == "" }

// paragraphs groups lines by the blank lines between them, rules dropped.
func paragraphs(lines []string) [][]string {
	var out [][]string
	var cur []string
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || isRule(l) {
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// goesOnAt reports a paragraph of the one line that says the story goes
// on in the key, and the question's number.
func goesOnAt(para []string) (string, bool) {
	if len(para) != 1 {
		return "", false
	}
	m := goesOn.FindStringSubmatch(para[0])
	if m == nil {
		return "", false
	}
	_, err := strconv.Atoi(m[1])
	return m[1], err == nil
}

// writePara writes one paragraph: a scene's first line as a heading, the
// events and scripts as code, anything else as text with its line breaks
// (a question's choices stay one to a line).
func writePara(b *strings.Builder, para []string) {
	first := para[0]
	switch {
	case strings.HasPrefix(first, "locksim · "):
		b.WriteString("<h2>" + html.EscapeString(strings.TrimPrefix(first, "locksim · ")) + "</h2>\n")
		if len(para) > 1 {
			writePara(b, para[1:])
		}
	case strings.HasPrefix(first, "script "):
		b.WriteString("<pre><code>" + html.EscapeString(strings.Join(para, "\n")) + "</code></pre>\n")
	default:
		// the events (t=… and their wrapped tails) are code; the text
		// around them is prose
		var run []string
		code := false
		flush := func() {
			if len(run) == 0 {
				return
			}
			text := html.EscapeString(strings.Join(run, "\n"))
			if code {
				b.WriteString("<pre><code>" + text + "</code></pre>\n")
			} else {
				text = storyCode.ReplaceAllString(text, `-story <a href="/s/$1">$1</a>`)
				b.WriteString("<p>" + text + "</p>\n")
			}
			run = nil
		}
		for _, l := range para {
			isCode := strings.HasPrefix(l, "t=") || code && strings.HasPrefix(l, "    ")
			if isCode != code {
				flush()
				code = isCode
			}
			run = append(run, l)
		}
		flush()
	}
}
