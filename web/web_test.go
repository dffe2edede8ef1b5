package web

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"
	"testing"
)

// TestVendorHashes: every vendored file the binary embeds is the one
// fetch-xterm.sh checked and listed in SHA256SUMS, and each package's
// licence is among them.
func TestVendorHashes(t *testing.T) {
	st := Static()
	sums, err := fs.ReadFile(st, "vendor/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(string(sums)))
	for sc.Scan() {
		want, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", sc.Text())
		}
		data, err := fs.ReadFile(st, "vendor/"+name)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s: sha256 %s, SHA256SUMS says %s", name, got, want)
		}
		listed[name] = true
	}
	for _, name := range []string{"xterm/xterm.js", "xterm/xterm.css", "xterm/LICENSE", "addon-fit/addon-fit.js", "addon-fit/LICENSE"} {
		if !listed[name] {
			t.Errorf("%s is not in SHA256SUMS", name)
		}
	}
	_ = fs.WalkDir(st, "vendor", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path != "vendor/SHA256SUMS" && !listed[strings.TrimPrefix(path, "vendor/")] {
			t.Errorf("%s is embedded but not in SHA256SUMS", path)
		}
		return nil
	})
}

// TestHandout: a handout's answer goes in a details element right after
// its question, never before; events are code; text is escaped; a story
// code is a link to its place.
func TestHandout(t *testing.T) {
	text := `locksim · race · R2.02.1 §1 · Four SETs <at> once
server: embedded · seed 1

question 1: How many get OK?
  1) none
  2) exactly one
  your answer:
(the story goes on in the answer key, question 1)

========================================================================

answer key

question 1 (race): the replies answer: 2) exactly one
the story goes on:
t=+0.000s w1> SET resource:lock a NX PX 30000 →
    OK

story code: -story race.24abc
`
	var b strings.Builder
	if err := Handout(&b, "race & co", text); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	q := strings.Index(page, "question 1: How many get OK?")
	d := strings.Index(page, "<details>")
	a := strings.Index(page, "the replies answer: 2) exactly one")
	e := strings.Index(page, "</details>")
	if q < 0 || d < q || a < d || e < a {
		t.Fatalf("question %d, details %d, answer %d, end %d:\n%s", q, d, a, e, page)
	}
	for _, want := range []string{
		"<title>race &amp; co</title>",
		"<h2>race · R2.02.1 §1 · Four SETs &lt;at&gt; once</h2>",
		"<pre><code>t=+0.000s w1&gt; SET resource:lock a NX PX 30000 →\n    OK</code></pre>",
		`-story <a href="/s/race.24abc">race.24abc</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "answer key") || strings.Contains(page, "story goes on in the answer key") {
		t.Errorf("the key's heading or the pointer to it is left on the page:\n%s", page)
	}
}
