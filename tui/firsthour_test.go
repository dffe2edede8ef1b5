package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/transcript"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

// TestExportPathWholeAt80: at 80 columns y's note says the path it wrote
// on a line of its own, whole (a path cut with … cannot be opened), and a
// failed write says its error whole, over as many lines as it takes.
func TestExportPathWholeAt80(t *testing.T) {
	exportDir(t)
	dir := filepath.Join(t.TempDir(), "handouts")
	a := openScene(t, embedded(t), "fencing", 1, 80, 24, "nnnnnnnn")
	a.com.Export, a.com.Sink = scenes.Export{Dir: dir}, transcript.Files{Dir: dir}
	drive(t, a, keys("y")...)
	path := homeShort(filepath.Join(dir, "locksim-fencing-seed1.redis"), os.Getenv("HOME"))
	if _, err := os.Stat(filepath.Join(dir, "locksim-fencing-seed1.redis")); err != nil {
		t.Fatal(err)
	}
	v := views.Strip(a.View())
	if !hasLine(v, path) {
		t.Errorf("y at 80 columns should say the path it wrote, %s, whole on a line of its own:\n%s", path, v)
	}
	if !strings.Contains(v, "-story ") {
		t.Errorf("y should say the story code first:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line wider than the screen: %q", l)
		}
	}

	// a directory that cannot be made: under a file
	file := filepath.Join(t.TempDir(), "notadir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(file, "handouts")
	a.com.Export, a.com.Sink = scenes.Export{Dir: bad}, transcript.Files{Dir: bad}
	drive(t, a, keys("y")...)
	v = views.Strip(a.View())
	_, want := transcript.Files{Dir: bad}.Save("x.redis", nil)
	if want == nil {
		t.Fatal("saving under a file should fail")
	}
	if !strings.Contains(rowsJoined(v), want.Error()) {
		t.Errorf("y's error should be said whole, %q:\n%s", want.Error(), v)
	}
}

// hasLine reports a line of v that is s, spaces around it aside.
func hasLine(v, s string) bool {
	for _, l := range strings.Split(v, "\n") {
		if strings.TrimSpace(l) == s {
			return true
		}
	}
	return false
}

// rowsJoined is v's rows joined with a space each, as a wrapped text was
// before it was wrapped at its spaces.
func rowsJoined(v string) string {
	var rows []string
	for _, l := range strings.Split(v, "\n") {
		rows = append(rows, strings.TrimSpace(l))
	}
	return strings.Join(rows, " ")
}

// TestContentsKeysPage: ? on the contents opens the keys page (the README
// promises ? everywhere): the contents' keys and those every scene
// shares; ? closes it, back to the contents.
func TestContentsKeysPage(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "?")
	if _, ok := a.pages.top().(*contentsKeysPage); !ok {
		t.Fatalf("? on the contents should open the keys page:\n%s", a.View())
	}
	v := views.Strip(a.View())
	for _, want := range []string{"on the contents", "enter", "open the scene", "in a scene", "step", "save commands for redis-cli", "?/esc back"} {
		if !strings.Contains(v, want) {
			t.Errorf("the keys page lacks %q:\n%s", want, v)
		}
	}
	golden(t, "contents-keys-80x24", v)
	drive(t, a, keys("?")...)
	if !a.onContents() {
		t.Fatalf("? should close the keys page, back to the contents:\n%s", a.View())
	}
	if v := views.Strip(a.View()); !strings.Contains(v, "? keys") {
		t.Errorf("the contents' help line should say ? keys:\n%s", v)
	}
}

// TestStoryEndSaysArrow: at a story's end the timeline says that → goes on
// to what the scene taught, and → does open that page.
func TestStoryEndSaysArrow(t *testing.T) {
	a := openScene(t, embedded(t), "fencing", 1, 80, 24, "nnnnnnnnnnnn")
	if !a.storyOver() {
		t.Fatalf("the story should be over:\n%s", a.View())
	}
	drive(t, a, keys("[esc]")...) // the ending opened by the last step: closed
	v := views.Strip(a.View())
	if !strings.Contains(v, "end of story · → what it taught") {
		t.Errorf("the footer at the story's end should name → and what it opens:\n%s", v)
	}
	drive(t, a, keys("[right]")...)
	if _, ok := a.pages.top().(*endingPage); !ok {
		t.Errorf("→ at the story's end should open what the scene taught:\n%s", a.View())
	}
}

// TestLabGuideQuestion: docs/lab.md's walk through the starter lock
// (ctrl+r, ▸ on no-foreign-release, ctrl+o, n to the question) quotes the
// question the screen asks there, word for word.
func TestLabGuideQuestion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "lab.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`the question the break asks[^"]*"([^"]+)"`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal(`docs/lab.md should quote the question the break asks ("…")`)
	}
	quoted := strings.Join(strings.Fields(m[1]), " ")
	a := openLab(t, Options{Seed: 1, Lab: filepath.Join(t.TempDir(), "mylock")}, 80, 24, "[ctrl+r]")
	// the lock's own break opens first: the page names none before its
	// question is answered
	drive(t, a, labPresses("[ctrl+o]")...)
	for i := 0; i < 20 && !a.pl.Asking; i++ {
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking {
		t.Fatalf("the break should ask a question:\n%s", a.View())
	}
	if v := rowsJoined(views.Strip(a.View())); !strings.Contains(v, quoted) {
		t.Errorf("docs/lab.md quotes %q; the screen asks:\n%s", quoted, a.View())
	}
}
