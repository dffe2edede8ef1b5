package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"locksim/class"
	"locksim/scenes"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// pageRows is the rows of a page over the scene between its title rule
// and its footer, the blank rows at the bottom left out.
func pageRows(view string) []string {
	rows := strings.Split(view, "\n")
	rows = rows[2 : len(rows)-1]
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	return rows
}

// TestKeysPageFitsPresenter: in presenter mode every scene's keys page (?)
// shows each of its rows at 80x24, at every step of its first story: the
// page at 80x24 is the page at 80x60, no row cut by the rows it has.
// Its title row keeps the scene's title whole (timeout's and choose's were
// cut with "…" beside "presenter · … · seed 1"), and at an open question
// it lists the keys that answer it (play.Session.AnswerKeys), not "1-2
// select an actor".
func TestKeysPageFitsPresenter(t *testing.T) {
	t.Parallel()
	b := embedded(t)
	for _, sc := range scenes.All() {
		a, err := NewCourse(b, Options{Scene: sc.ID, Seed: 1, Present: true})
		if err != nil {
			t.Fatal(err)
		}
		drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
		runCmd(t, a, a.Init())
		for i := 0; i < 40 && a.pl.Scene.ID == sc.ID; i++ {
			drive(t, a, keys("?")...)
			small := a.View()
			drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 60})
			tall := pageRows(a.View())
			drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
			if got := pageRows(small); strings.Join(got, "\n") != strings.Join(tall, "\n") {
				t.Errorf("%s, presenter, step %d: the keys page has %d rows, %d show at 80x24:\n%s", sc.ID, a.pl.Snap.Pos, len(tall), len(got), small)
				break
			}
			if head, _, _ := strings.Cut(small, "\n"); !strings.Contains(head, a.pl.Text.Get("title")) {
				t.Errorf("%s, presenter: the title row cuts the title:\n%s", sc.ID, head)
			}
			if n := a.pl.AnswerKeys(); n > 0 && (!regexp.MustCompile(`(?m)^1-`+itoa(int64(n))+` +your prediction `).MatchString(ansi.Strip(small)) || strings.Contains(small, "select an actor")) {
				t.Errorf("%s, presenter, step %d: the question is open, but the keys page does not list its answers:\n%s", sc.ID, a.pl.Snap.Pos, small)
			}
			drive(t, a, keys("?")...)
			if a.pl.Asking {
				drive(t, a, keys("1")...)
			}
			if !a.pl.Stepped() || a.storyOver() {
				break // a quiz and a race have no steps; past the end opens the next story
			}
			drive(t, a, keys("n")...)
		}
		a.Shutdown(context.Background())
	}
}

// TestKeysPageLegendOnlyShownMarks: the keys page's legend explains only
// marks the scene can show: the race, with no timeline and no fault in its
// log, gets its properties' marks alone; a story scene (gc-pause) keeps
// the timeline's and the log's.
func TestKeysPageLegendOnlyShownMarks(t *testing.T) {
	t.Parallel()
	b := embedded(t)
	for _, c := range []struct {
		id, presses string
		want, not   []string
	}{
		// (openScene asks no question: its legend has no ⋯, see
		// TestKeysPageLegendHiddenMoves)
		{"race", "1", []string{"properties: ✓ held"}, []string{"timeline:", "log: !", "⋯ N/?", "▸ selected", "⚠ warning", "thinks holder ✗"}},
		{"gc-pause", "n", []string{"timeline: ● step", "properties: ✓ held", "log: ! a fault",
			"▸ selected client", "⚠ warning", "thinks holder ✗"}, nil},
	} {
		a := openScene(t, b, c.id, 1, 80, 24, c.presses+"?")
		page := a.View()
		if _, ok := a.pages.top().(*helpPage); !ok {
			t.Fatalf("%s: ? opened no keys page:\n%s", c.id, page)
		}
		for _, w := range c.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s: the keys page's legend lacks %q:\n%s", c.id, w, page)
			}
		}
		for _, n := range c.not {
			if strings.Contains(page, n) {
				t.Errorf("%s: the keys page's legend explains %q, a mark the scene never shows:\n%s", c.id, n, page)
			}
		}
	}
}

// TestKeysPageLegendHiddenMoves: where the scene asks its question, the
// bar hides the moves after it behind "⋯" and "N/?" (play.Disclosure.Drawn),
// and the keys page says so; with predictions off it never does, and the
// legend says nothing of it.
func TestKeysPageLegendHiddenMoves(t *testing.T) {
	t.Parallel()
	for _, noQuiz := range []bool{false, true} {
		a, err := NewCourse(embedded(t), Options{Scene: "gc-pause", Seed: 1, NoQuiz: noQuiz})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Shutdown(context.Background()) })
		drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
		runCmd(t, a, a.Init())
		drive(t, a, keys("n")...)
		bar := strings.Contains(a.View(), "/?")
		drive(t, a, keys("?")...)
		page := a.View()
		if bar == noQuiz || strings.Contains(page, "⋯ N/? till you answer") != bar {
			t.Errorf("predictions off %v: the bar hides moves %v, the legend:\n%s", noQuiz, bar, page)
		}
	}
}

// TestTruncatedTokenEndsSentence: lost-reply's GET-and-compare retry,
// whose command ends with A's token cut short, ends its sentence with the
// ellipsis, not "…." (an ellipsis and a full stop), on the screen at
// 80x24.
func TestTruncatedTokenEndsSentence(t *testing.T) {
	t.Parallel()
	a, err := NewCourse(embedded(t), Options{Scene: "lost-reply", Seed: 1,
		Settings: scenes.Params{"retry": knobIndex(t, "lost-reply", "retry", "GET and compare")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	runCmd(t, a, a.Init())
	v := a.View()
	if !strings.Contains(flat(v), "to compare with ") {
		t.Fatalf("the readout no longer says what the retry compares:\n%s", v)
	}
	if strings.Contains(v, "….") {
		t.Errorf("a cut token ends a sentence with \"….\":\n%s", v)
	}
}

// TestKeysPageFitsInstructor: an instructor's keys page on redlock, the
// longest (the class's F and l besides the scene's keys), shows each of
// its rows at 80x24, the presenter's legend row included.
func TestKeysPageFitsInstructor(t *testing.T) {
	t.Parallel()
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "redlock", Present: true}, 80, 24)
	a := teacher.a
	drive(t, a, keys("?")...)
	small := a.View()
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 60})
	tall := pageRows(a.View())
	if !strings.Contains(strings.Join(tall, "\n"), "presenter: ") {
		t.Fatalf("the instructor's keys page has no presenter row:\n%s", strings.Join(tall, "\n"))
	}
	for _, r := range tall {
		if strings.TrimSpace(r) != "" && !strings.Contains(small, r) {
			t.Errorf("the instructor's keys page at 80x24 leaves out %q:\n%s", r, small)
		}
	}
}
