package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/play"
	"locksim/serve"
	"locksim/storycode"
	"locksim/tui"

	tea "github.com/charmbracelet/bubbletea"
)

// webGet serves the web front with the table's pages and gets path.
func webGet(t *testing.T, path string) (int, string, string) {
	t.Helper()
	return webGetIn(t, nil, path)
}

// webGetIn is webGet on a server whose classes are cls.
func webGetIn(t *testing.T, cls serve.Class, path string) (int, string, string) {
	t.Helper()
	srv, err := serve.New(serve.Config{HostKey: filepath.Join(t.TempDir(), "k"), Web: serve.WebConfig{Pages: webPages()}, Class: cls})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.WebHandler())
	defer hs.Close()
	resp, err := http.Get(hs.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

// TestPlainPage: /plain/race is the race's handout as a page: the
// question asked, its answer only inside the details after it, the
// commands as code; a scene that is none is a 400 with one line.
func TestPlainPage(t *testing.T) {
	code, typ, body := webGet(t, "/plain/race")
	if code != http.StatusOK || !strings.HasPrefix(typ, "text/html") {
		t.Fatalf("/plain/race: %d %s", code, typ)
	}
	q := strings.Index(body, "question 1: Four workers send SET")
	d := strings.Index(body, "<details>")
	end := strings.Index(body, "</details>")
	a := strings.Index(body, "the replies answer: 2) exactly one")
	if q < 0 || d < q || a < d || end < a {
		t.Fatalf("question at %d, details %d to %d, answer at %d:\n%s", q, d, end, a, body)
	}
	// the race is truly concurrent: any worker may be the first line
	if !regexp.MustCompile(`<pre><code>t=\+0\.000s w[1-4]&gt; SET resource:lock `).MatchString(body) {
		t.Errorf("the commands are not code:\n%s", body)
	}
	if code, _, body := webGet(t, "/plain/nosuch"); code != http.StatusBadRequest || strings.Count(body, "\n") != 1 || !strings.Contains(body, `unknown scene "nosuch"`) {
		t.Errorf("/plain/nosuch: %d %q", code, body)
	}
}

// TestAskPage: /plain/ask/SCENE, the page the link beside a tab's
// terminal opens, is the story to its first question and stops there: no
// answer, no details, no answer key, whatever the learner has answered.
func TestAskPage(t *testing.T) {
	code, _, body := webGet(t, "/plain/ask/gc-pause")
	if code != http.StatusOK || !strings.Contains(body, "What does B get?") || !strings.Contains(body, "Answer in the terminal") {
		t.Fatalf("/plain/ask/gc-pause: %d\n%s", code, body)
	}
	for _, leak := range []string{"<details>", "answer key", "the replies answer", "OK: A's key has expired, so B gets the lock\n</p>\n<p>"} {
		if strings.Contains(body, leak) {
			t.Errorf("the page to the question shows %q:\n%s", leak, body)
		}
	}
	if _, _, full := webGet(t, "/plain/gc-pause"); !strings.Contains(full, "the replies answer") {
		t.Errorf("the full handout lost its answer:\n%s", full)
	}
}

// TestStoryPages: a story code's transcript page and its cast.
func TestStoryPages(t *testing.T) {
	sc, err := storycode.Encode(play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 7, Step: 3})
	if err != nil {
		t.Fatal(err)
	}
	code, _, body := webGet(t, "/plain/s/"+sc)
	if code != http.StatusOK || !strings.Contains(body, "<h2>fencing") || !strings.Contains(body, "seed 7") {
		t.Fatalf("/plain/s/CODE: %d\n%s", code, body)
	}
	// a code at its open question: the story to it, and the way on
	gc, _ := questionCode(t)
	code, _, body = webGet(t, "/plain/s/"+gc)
	if code != http.StatusOK || !strings.Contains(body, "?answer=N") || strings.Contains(body, "the replies answer") {
		t.Fatalf("/plain/s/CODE at its question: %d\n%s", code, body)
	}
	code, _, body = webGet(t, "/plain/s/"+gc+"?answer=2")
	if code != http.StatusOK || strings.Contains(body, "?answer=N") || !strings.Contains(body, "the replies answer: 2) OK") || !strings.Contains(body, "your prediction: 2)") {
		t.Fatalf("/plain/s/CODE?answer=2: %d\n%s", code, body)
	}
	for _, bad := range []string{"?answer=9", "?answer=x", "?answer=0"} {
		if code, _, body := webGet(t, "/plain/s/"+gc+bad); code != http.StatusBadRequest || strings.Count(strings.TrimSpace(body), "\n") != 0 {
			t.Errorf("/plain/s/CODE%s: %d %q, want 400 and one line", bad, code, body)
		}
	}
	code, typ, body := webGet(t, "/cast/"+sc)
	if code != http.StatusOK || typ != "application/x-asciicast" || !strings.HasPrefix(body, `{"version":2,"width":80,"height":24`) {
		t.Fatalf("/cast/CODE: %d %s %.100q", code, typ, body)
	}
}

// askingClass is a class hook whose classes are asked the questions of
// its scenes (serve.Asker), as classroom.Classes says of the classes
// seated on its server.
type askingClass map[string]bool

func (askingClass) Model(_ *serve.Session, app *tui.App) tea.Model { return app }
func (askingClass) Join(*serve.Session)                            {}
func (askingClass) Leave(*serve.Session)                           {}
func (a askingClass) Asking(context.Context) map[string]bool       { return a }

// TestPagesHoldAClassesOpenQuestion: while a class on the server is asked
// gc-pause's question, the bytes served hold its answer back from any
// student who opens a page: /plain/gc-pause is the story to its question
// (no details with the answer, no answer key), a code's page past the
// question or answered with ?answer=N is refused, and so is its cast past
// it. A code at the question is served, to it; fencing, which no class is
// asked, keeps its answer a click away.
func TestPagesHoldAClassesOpenQuestion(t *testing.T) {
	asked := askingClass{"gc-pause": true}
	code, _, body := webGetIn(t, asked, "/plain/gc-pause")
	if code != http.StatusOK || !strings.Contains(body, "What does B get?") || !strings.Contains(body, "Answer in the terminal") {
		t.Fatalf("/plain/gc-pause, the class asked: %d\n%s", code, body)
	}
	for _, leak := range []string{"<details>", "answer key", "the replies answer"} {
		if strings.Contains(body, leak) {
			t.Errorf("/plain/gc-pause, the class asked, shows %q:\n%s", leak, body)
		}
	}
	if _, _, other := webGetIn(t, asked, "/plain/fencing"); !strings.Contains(other, "<details>") || !strings.Contains(other, "the replies answer") {
		t.Errorf("/plain/fencing, which no class is asked, lost its answer:\n%s", other)
	}
	at, pos := questionCode(t)
	if code, _, body := webGetIn(t, asked, "/plain/s/"+at); code != http.StatusOK || strings.Contains(body, "the replies answer") {
		t.Errorf("/plain/s/CODE at the question, the class asked: %d\n%s", code, body)
	}
	pos.Step++
	past, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/plain/s/" + at + "?answer=2", "/plain/s/" + past, "/cast/" + past} {
		code, _, body := webGetIn(t, asked, path)
		if code != http.StatusBadRequest || !strings.Contains(body, "waits for the class's answer") || strings.Contains(body, "the replies answer") {
			t.Errorf("%s, the class asked: %d %.300q, want 400 and the line why", path, code, body)
		}
		if code, _, _ := webGet(t, path); code != http.StatusOK {
			t.Errorf("%s, no class: %d", path, code)
		}
	}
}
