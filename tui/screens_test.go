package tui

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// flat is s with its runs of spaces and line breaks as one space: a
// wrapped sentence whole.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// verdictRow is the screen's verdict line ("" when none is drawn).
func verdictRow(view string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, "verdict ") {
			return l
		}
	}
	return ""
}

// TestTimeoutFailFastCountsNoRetries: failing fast, no client retries, so
// the verdict says so rather than "0 of 0 retries in step"; a retrying
// policy before its first retry says there are none yet.
func TestTimeoutFailFastCountsNoRetries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ presses, want string }{
		{"mmmnnnnnnn", " · no retries"}, // fail fast, to the end
		{"nnn", " · no retries yet"},    // every 100 ms, the first SETs refused
	} {
		a := openScene(t, embedded(t), "timeout", 1, 80, 24, c.presses)
		v := verdictRow(a.View())
		if !strings.HasSuffix(v, c.want) || strings.Contains(v, "0 of 0") {
			t.Errorf("after %q the verdict reads %q, want it to end %q\n%s", c.presses, v, c.want, a.View())
		}
	}
}

// TestLostReplyNamesATokenAsItsCard: the lost-reply readout quotes A's
// commands with the token A's card shows ("88388ba5…"), never a made-up
// "tokA"; a question, the same for every run, names it "<A's token>", as
// its choices name it.
func TestLostReplyNamesATokenAsItsCard(t *testing.T) {
	t.Parallel()
	for _, p := range []scenes.Params{{}, {"retry": 1}, {"retry": 2}, {"story": 1, "release": 2}} {
		a := openLost(t, p, 80, 24, "")
		v := a.View()
		tok := scenes.ShortToken(a.pl.Snap.Actors[0].Token)
		if strings.Contains(v, "tokA") || strings.Count(v, tok) < 2 {
			t.Errorf("%v: the screen should show A's token %s on its card and in the readout, and no tokA:\n%s", p, tok, v)
		}
		for range 8 {
			if a.pl.Asking {
				break
			}
			drive(t, a, keys("n")...)
		}
		if !a.pl.Asking {
			t.Fatalf("%v: no question:\n%s", p, a.View())
		}
		if v := a.View(); strings.Contains(v, "tokA") {
			t.Errorf("%v: the question says tokA:\n%s", p, v)
		}
	}
}

// TestReleaseFinallyHasNoLapsedLock: in the DEL-in-finally story A never
// held the lock, so no lease of its lapses: the settings line says so
// rather than "lapsed lock: B takes it", the readout offers no o, and o
// changes nothing, saying why.
func TestReleaseFinallyHasNoLapsedLock(t *testing.T) {
	t.Parallel()
	a := openScene(t, embedded(t), "release", 1, 80, 24, "mmm")
	v := a.View()
	if !strings.Contains(v, "release: DEL in finally when refused  [o] lapsed lock: none\n") ||
		strings.Contains(v, "takes it") || strings.Contains(flat(v), "o whether") {
		t.Errorf("the finally story's settings and readout should have no lapsed lock to change:\n%s", v)
	}
	drive(t, a, keys("o")...)
	if v := a.View(); !strings.Contains(flat(v), "lapsed lock is its own, none: o changes nothing here") || !strings.Contains(v, "lapsed lock: none\n") {
		t.Errorf("o in the finally story should change nothing, and say so:\n%s", v)
	}
	b := openScene(t, embedded(t), "release", 1, 80, 24, "")
	if v := b.View(); !strings.Contains(v, "[o] lapsed lock: B takes it") || !strings.Contains(flat(v), "o whether B takes the lapsed lock") {
		t.Errorf("a lapsed-lock story should offer o:\n%s", v)
	}
}

// TestKeysPageKeepsTheSceneStill: on the keys page (?) a key of the
// scene's (a step, a step back, a selection, a setting, home, play) does
// nothing to the scene out of sight behind it, and the page says so; its
// footer lists its own keys. ? closes it, and the scene's keys act again.
func TestKeysPageKeepsTheSceneStill(t *testing.T) {
	t.Parallel()
	a := openScene(t, embedded(t), "gc-pause", 1, 80, 24, "n?")
	pos, sel, params := a.pl.Snap.Pos, a.pl.Sel, scenes.FormatSettings(a.pl.Scene, a.pl.Params)
	for _, k := range []string{"[right]", "n", "[left]", "b", "1", "[tab]", "t", "[home]", "x", "w", "R", " "} {
		drive(t, a, keys(k)...)
		if _, ok := a.pages.top().(*helpPage); !ok {
			t.Fatalf("%q closed the keys page:\n%s", k, a.View())
		}
		if a.pl.Snap.Pos != pos || a.pl.Sel != sel || scenes.FormatSettings(a.pl.Scene, a.pl.Params) != params || a.pl.Playing {
			t.Fatalf("%q on the keys page acted on the scene behind it (step %d→%d, selected %d→%d, settings %q→%q)",
				k, pos, a.pl.Snap.Pos, sel, a.pl.Sel, params, scenes.FormatSettings(a.pl.Scene, a.pl.Params))
		}
		if f := footerOf(a.View()); !strings.HasSuffix(f, "acts on the scene: close this page first (? or esc)") {
			t.Errorf("%q on the keys page: the footer should say it acts on the scene only once closed: %q", k, f)
		}
	}
	drive(t, a, keys("g[esc]")...) // the glossary over it, and back
	if f := footerOf(a.View()); !strings.HasPrefix(f, "?/esc close this page") || strings.Contains(f, "step") {
		t.Errorf("the keys page's footer lists the scene's keys: %q", f)
	}
	drive(t, a, keys("?n")...)
	if _, ok := a.pages.top().(*helpPage); ok || a.pl.Snap.Pos != pos+1 {
		t.Errorf("? then n should close the keys page and step (at %d, was %d):\n%s", a.pl.Snap.Pos, pos, a.View())
	}
}

// TestKeysPageExplainsEveryMark: the marks a scene draws are in its keys
// page's legend: ! beside a fault in the log (gc-pause's pause, a
// Redlock client cut off a node), and ✂ in the timeline's next move
// ("next: c1 ✂ A"); each legend row fits 80 columns whole.
func TestKeysPageExplainsEveryMark(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ id, presses string }{{"gc-pause", "nn"}, {"redlock", "A1u[left]"}} {
		a := openScene(t, embedded(t), c.id, 1, 80, 24, "")
		var shown string // every screen on the way
		for _, k := range keys(c.presses) {
			drive(t, a, k)
			shown += a.View() + "\n"
		}
		drive(t, a, keys("?")...)
		page := a.View()
		rows := strings.Split(page, "\n")
		var legend []string
		for _, r := range rows {
			if strings.HasPrefix(r, "timeline:") || strings.HasPrefix(r, "properties:") || strings.HasPrefix(r, "log:") {
				legend = append(legend, r)
				if strings.Contains(r, "…") {
					t.Errorf("%s: a legend row is cut: %q", c.id, r)
				}
			}
		}
		marks := []string{"!"}
		if c.id == "redlock" {
			marks = append(marks, "✂")
		}
		for _, m := range marks {
			if !strings.Contains(shown, " "+m+" ") && !strings.Contains(shown, " "+m+"\n") {
				t.Fatalf("%s after %q shows no %s to explain:\n%s", c.id, c.presses, m, shown)
			}
			if !strings.Contains(strings.Join(legend, "\n"), " "+m+" ") {
				t.Errorf("%s: the keys page's legend does not explain %s:\n%s", c.id, m, page)
			}
		}
	}
}

// TestReadmeKeysAgreeWithScenes: where the README says that → steps the
// story (or moves it on) or that g opens the glossary, the same paragraph
// or table row names every scene where that key does something else, as
// the scene's own keys page says: race and choose, where → picks a worker
// or the next situation, and gc-pause, whose g changes the pause.
func TestReadmeKeysAgreeWithScenes(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	right, g := tea.KeyMsg{Type: tea.KeyRight}, keys("g")[0].(tea.KeyMsg)
	var noStep, noGlossary []string
	for _, sc := range scenes.All() {
		a := openScene(t, embedded(t), sc.ID, 1, 80, 24, "")
		if k := a.com.Keys.Step; !key.Matches(right, k) || !k.Enabled() || k.Help().Desc != "step" {
			noStep = append(noStep, sc.ID)
		}
		if a.knobUses(glossaryKey) || !key.Matches(g, glossaryKey) {
			noGlossary = append(noGlossary, sc.ID)
		}
	}
	if !slices.Contains(noStep, "race") || !slices.Contains(noGlossary, "gc-pause") {
		t.Fatalf("→ steps in race or g is the glossary in gc-pause: %v, %v", noStep, noGlossary)
	}
	// a paragraph, or a row of a table
	var parts []string
	for _, para := range strings.Split(string(readme), "\n\n") {
		if strings.HasPrefix(para, "|") {
			parts = append(parts, strings.Split(para, "\n")...)
		} else {
			parts = append(parts, para)
		}
	}
	for _, p := range parts {
		flatP := flat(p)
		claims := map[string][]string{}
		if strings.Contains(flatP, "`→`") && (strings.Contains(flatP, "step forward") || strings.Contains(flatP, "moves the story on")) {
			claims["→ steps"] = noStep
		}
		if strings.Contains(flatP, "`g`") && strings.Contains(flatP, "glossary") {
			claims["g is the glossary"] = noGlossary
		}
		for claim, except := range claims {
			for _, id := range except {
				if !strings.Contains(flatP, "`"+id+"`") {
					t.Errorf("the README says %s without naming %s, where it does not:\n%s", claim, id, p)
				}
			}
		}
	}
}

// contentsFoot is the contents' footer as one line: the last time (if
// any, on a row of its own) then the keys, joined by " · ".
func contentsFoot(v string) string {
	rows := strings.Split(views.Strip(v), "\n")
	f := strings.TrimRight(rows[len(rows)-1], " ")
	if len(rows) > 1 && strings.HasPrefix(rows[len(rows)-2], "last time: ") {
		f = strings.TrimRight(rows[len(rows)-2], " ") + " · " + f
	}
	return f
}

// footRows is how many rows the contents' footer takes: the keys, and the
// last time above them if any.
func footRows(v string) int {
	if strings.Contains(contentsFoot(v), "last time: ") {
		return 2
	}
	return 1
}

// TestContentsFilterSaysWhatItShows: a filter that matches nothing says
// so on the footer, rather than leaving an empty list; a filter applied
// (↓ out of the typing) says by what the list is cut, how much of it
// shows, and that esc shows it all again.
func TestContentsFilterSaysWhatItShows(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	a.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic) // no blink: drive runs no timers
	drive(t, a, keys("/zzq")...)
	if f := footerOf(a.View()); !strings.HasPrefix(f, `no scene matches "zzq" · esc cancel`) {
		t.Errorf("a filter that matches nothing: the footer says %q\n%s", f, a.View())
	}
	drive(t, a, keys("[esc]/fen[down]")...)
	if a.toc.typing() || a.toc.list().FilterState() != list.FilterApplied {
		t.Fatalf("↓ should leave the filter typed and applied:\n%s", a.View())
	}
	shown := 0
	for _, it := range a.toc.list().VisibleItems() {
		if _, ok := it.(entry); ok {
			shown++
		}
	}
	want := fmt.Sprintf(`filter "fen": %d of %d · esc show all`, shown, len(a.course.Contents()))
	if f := footerOf(a.View()); shown == 0 || !strings.HasPrefix(f, want) {
		t.Errorf("a filter applied: the footer says %q, want it to start %q\n%s", f, want, a.View())
	}
	drive(t, a, keys("[esc]")...)
	if f := footerOf(a.View()); strings.Contains(f, "filter \"") {
		t.Errorf("the filter dropped, the footer still names it: %q", f)
	}
}

// TestContentsLastTimeInWords: the contents' "last time" is a row of its
// own above the keys, whatever its length, so every key stays on the
// footer; it names the settings changed as the settings line does, in
// words ("with story "…""), not as -set reads them ("story=…"), leaves
// out a setting the story sets by itself, and fits 80 columns uncut.
func TestContentsLastTimeInWords(t *testing.T) {
	keysRow := "enter open · / filter · g glossary · ? keys · ✓ played to the end · q quit"
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Seed: 1, Scene: "lost-reply", Settings: scenes.Params{"story": 3}, Step: 1},
			`last time: lost-reply, step 1, with story "lost renewal: goes on"`},
		{Options{Seed: 1, Scene: "lost-reply", Settings: scenes.Params{"story": 1, "retry": 2, "release": 2}, Step: 9},
			`last time: lost-reply, step 9, with story "lost DEL" and release "DELEX IFEQ"`},
		{Options{Seed: 1, Scene: "gc-pause", Settings: scenes.Params{"pause": 1, "TTL": 2}, Step: 4},
			`last time: gc-pause, step 4, with pause "70 s" and TTL "10 s"`},
		{Options{Seed: 1, Scene: "claim-lease", Step: 8}, "last time: claim-lease, step 8"},
	} {
		a, store := openCourse(t, c.o, "")
		a.SaveProgress()
		b, _ := openCourse(t, Options{Seed: 1, Store: store}, "")
		v := b.View()
		rows := strings.Split(v, "\n")
		if len(rows) != 24 {
			t.Fatalf("%s: the contents take %d rows at 80x24:\n%s", c.o.Scene, len(rows), v)
		}
		last, foot := strings.TrimRight(rows[22], " "), strings.TrimRight(rows[23], " ")
		if last != c.want || ansi.StringWidth(last) > 80 || strings.Contains(last, "=") {
			t.Errorf("%s: the last time reads %q, want %q", c.o.Scene, last, c.want)
		}
		if foot != keysRow {
			t.Errorf("%s: the keys row reads %q, want every key: %q", c.o.Scene, foot, keysRow)
		}
	}
}
