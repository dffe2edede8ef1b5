package tui

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim/simtest"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
)

// auditPage is one page drawn at 80x24 for the audit: where it is and
// what it shows.
type auditPage struct {
	where, view string
}

// auditStory walks scene id under settings p at 80x24 and returns every
// page it draws: each step of its story (the question, each hint, the
// reveal) and its ending; with more, its keys page and its history too.
func auditStory(t *testing.T, id string, p scenes.Params, more bool) []auditPage {
	t.Helper()
	a, _ := openCourse(t, Options{Seed: 1, Scene: id, Settings: p}, "")
	name := id
	if s := scenes.FormatSettings(scenes.Find(id), p); s != "" {
		name += " (" + s + ")"
	}
	var out []auditPage
	add := func(where string) {
		out = append(out, auditPage{name + ", " + where, views.Strip(a.View())})
	}
	add("start")
	for i := 0; i < 300 && !a.storyOver(); i++ {
		if a.pl.Asking {
			add(fmt.Sprintf("step %d, question", a.pl.Snap.Pos))
			for h := 1; a.pl.Text.Has("hint-" + itoa(int64(h))); h++ {
				drive(t, a, keys("h")...)
				add(fmt.Sprintf("step %d, question, hint %d", a.pl.Snap.Pos, h))
			}
			drive(t, a, keys("1")...)
			add(fmt.Sprintf("step %d, reveal", a.pl.Snap.Pos))
			continue
		}
		if !a.pl.Stepped() {
			break // the race has run; a quiz has no story
		}
		drive(t, a, keys("n")...)
		add(fmt.Sprintf("step %d", a.pl.Snap.Pos))
	}
	if !a.pl.Sends() {
		// a quiz: each situation, answered
		for i := 0; i < 40; i++ {
			drive(t, a, keys("1")...)
			add(fmt.Sprintf("situation %d, answered", i+1))
			drive(t, a, keys("n")...)
			add(fmt.Sprintf("situation %d", i+2))
		}
	}
	if a.pl.Stepped() {
		drive(t, a, keys("n")...)
	} else {
		drive(t, a, keys("a")...)
	}
	if e, ok := a.pages.top().(*endingPage); ok {
		add("ending")
		for i := 0; i < 20 && !e.page.AtBottom(); i++ {
			drive(t, a, tea.KeyMsg{Type: tea.KeyPgDown})
			add(fmt.Sprintf("ending, page %d", i+2))
		}
		drive(t, a, keys("[esc]")...)
	}
	if !more {
		return out
	}
	drive(t, a, keys("?")...)
	add("keys page")
	drive(t, a, keys("?")...)
	if a.pl.Stepped() {
		drive(t, a, keys("v")...)
		add("history")
		drive(t, a, keys("[esc]")...)
	}
	return out
}

// auditCourse is the pages around the scenes: every page of the contents,
// of the glossary, and a visit's first page.
// auditLab is the lab's pages at 80x24: the levels, the own lock's page
// with its result scrolled through, its keys page, and each level to fix
// with its hints and its result, and to break.
func auditLab(t *testing.T) []auditPage {
	t.Helper()
	// the result whole with predictions off; as a learner first meets it,
	// held back until each break's question is answered, below
	a := openLab(t, Options{Seed: 1, NoQuiz: true, Lab: labDir(t)}, 80, 24, "")
	var out []auditPage
	add := func(where string) { out = append(out, auditPage{"lab, " + where, views.Strip(a.View())}) }
	add("levels")
	held := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, "[ctrl+r]")
	out = append(out, auditPage{"lab, own lock, result held back", views.Strip(held.View())})
	drive(t, a, labPresses("[ctrl+r]")...)
	for i := 0; i < 20; i++ {
		add(fmt.Sprintf("own lock, result, scrolled %d", i))
		if l := a.labPage(); l.resTop >= l.resMax {
			break
		}
		drive(t, a, labPresses("[ctrl+down]")...)
	}
	drive(t, a, labPresses("[ctrl+g]")...)
	add("keys page")
	drive(t, a, labPresses("[esc][esc]")...)
	for i, lv := range labLevels() {
		b := openLab(t, Options{Seed: 1}, 80, 24, strings.Repeat("[down]", i)+"[enter]")
		where := lv.ID()
		out = append(out, auditPage{"lab, " + where, views.Strip(b.View())})
		if lv.Break() {
			continue
		}
		drive(t, b, labPresses("[ctrl+x][ctrl+x][ctrl+x][ctrl+r]")...)
		v := views.Strip(b.View())
		if !strings.Contains(v, "hint 1 of 3") || b.labPage().report == nil {
			t.Errorf("%s: the page should show its hints and a result:\n%s", where, v)
		}
		out = append(out, auditPage{"lab, " + where + ", hints and result", v})
	}
	if len(out) < 2*len(labLevels()) {
		t.Errorf("the lab's audit drew %d pages", len(out))
	}
	return out
}

func auditCourse(t *testing.T) []auditPage {
	t.Helper()
	a, _ := openCourse(t, Options{Seed: 1}, "")
	var out []auditPage
	add := func(where string) {
		out = append(out, auditPage{where, views.Strip(a.View())})
	}
	seen := map[string]bool{}
	for i := 0; i < 10; i++ {
		v := views.Strip(a.View())
		if seen[v] {
			break
		}
		seen[v] = true
		add(fmt.Sprintf("contents, page %d", i+1))
		drive(t, a, keys("[right]")...)
	}
	drive(t, a, keys("g")...)
	for i := 0; i < 40; i++ {
		add(fmt.Sprintf("glossary, page %d", i+1))
		if g, ok := a.pages.top().(*glossaryPage); !ok || g.page.AtBottom() {
			break
		}
		drive(t, a, tea.KeyMsg{Type: tea.KeyPgDown})
	}
	// the race's trials, few of them (their page's layout is the same)
	tr, err := NewTrials(embedded(t), 20, play.DefaultTrials(1), NewCommon(views.ASCII(), scenes.Export{}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { tr.Close(); tr.Wait(context.Background()) }()
	for cmd := tr.Init(); cmd != nil; {
		m := cmd()
		_, cmd = tr.Update(m)
		if _, over := m.(play.TrialsOver); over {
			break
		}
	}
	tr.SetSize(80, 24)
	out = append(out, auditPage{"the trials", views.Strip(trialsPage{tr}.View())})
	tr.anomalies = true
	out = append(out, auditPage{"the trials, anomalies", views.Strip(trialsPage{tr}.View())})
	code := play.Position{Version: play.PositionVersion, Scene: "crash-gap", Seed: 9}
	v, _ := openCourse(t, Options{Seed: 1, Position: &code, Visit: true}, "")
	out = append(out, auditPage{"a visit to crash-gap", views.Strip(v.View())})
	drive(t, v, keys("n")...)
	out = append(out, auditPage{"a visit to crash-gap, step 1", views.Strip(v.View())})
	return out
}

// auditAll is every page the audit reads, in a fixed order.
func auditAll(t *testing.T) []auditPage {
	var (
		mu    sync.Mutex
		parts = map[string][]auditPage{}
		order []string
	)
	keep := func(name string, pages []auditPage) {
		mu.Lock()
		defer mu.Unlock()
		parts[name] = pages
	}
	t.Run("walk", func(t *testing.T) {
		// the quick tier walks the course, the lab and each scene's
		// story as written; the slow tier each setting changed alone
		if simtest.InTier(true) {
			order = append(order, "course")
			t.Run("course", func(t *testing.T) { t.Parallel(); keep("course", auditCourse(t)) })
			order = append(order, "lab")
			t.Run("lab", func(t *testing.T) { t.Parallel(); keep("lab", auditLab(t)) })
		}
		for _, sc := range scenes.All() {
			runs := []scenes.Params{nil}
			for _, k := range sc.Knobs {
				for i := 1; i < len(k.Values); i++ {
					runs = append(runs, scenes.Params{k.Name: i})
				}
			}
			for i, p := range runs {
				if !simtest.InTier(i == 0) {
					continue
				}
				name := fmt.Sprintf("%s/%d", sc.ID, i)
				order = append(order, name)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					keep(name, auditStory(t, sc.ID, p, i == 0))
				})
			}
		}
	})
	var all []auditPage
	for _, n := range order {
		all = append(all, parts[n]...)
	}
	return all
}

// cutMark is a "…" that ends a word cut short: at a line's end, or
// before the spaces that pad it. A token shortened to its first hex
// digits ("6ae6783f…", the screen's way to write a token) is not a cut,
// nor is a "…" standing as a word of its own (the words dropped from a
// command's middle, whole words either side).
var (
	cutMark   = regexp.MustCompile(`(\S+)…(\s{2,}|\s*$|\s*│)`)
	tokenMark = regexp.MustCompile(`^[^0-9a-f]*[0-9a-f]{8,16}$`)
	// a negative number or an expiry option's number broken across rows
	splitNumber = regexp.MustCompile(`((^|[\s(])-|\b(PX|EX))$`)
	// the row under it starts with the number
	numberHead = regexp.MustCompile(`^\s*[0-9]`)
)

// fullForm is the key that shows a cut line whole, by where the line is:
// the first rule that matches the page and the line names it. A cut
// nowhere in this table fails the audit.
var fullForm = []struct {
	page, line *regexp.Regexp
	key        string
}{
	// none today: every cut the audit found was made whole (the contents'
	// summaries wrap, a long reply takes a row of its own, a key's value
	// gives up words from its middle). A cut that is to stay names here
	// the key that shows it whole.
}

// TestEveryPageAt80x24 renders every page of every scene at 80x24 (each
// step of each story as written and with each setting changed alone, the
// question, every hint, the reveal, the ending; the keys page and the
// history; the contents, the glossary, a visit; the quick tier each
// story as written and the pages around them, the slow tier each setting
// changed alone) and reads each line: a line cut short ("…") must have
// its whole form one key away, a key the page's help line names; no other
// line may break a word or a number ("-1", "PX 30000") across rows. Each cut is listed (t.Log) with its
// page and key, and compared with testdata/cuts-80x24.golden (the slow
// tier's with cuts-80x24-settings.golden), so a new cut shows as a diff.
// The lab's pages are the lab's (tui/lab*.go) and not walked here.
func TestEveryPageAt80x24(t *testing.T) {
	t.Parallel()
	pages := auditAll(t)
	var listed []string
	seen := map[string]bool{}
	for _, p := range pages {
		rows := strings.Split(p.view, "\n")
		if len(rows) != 24 {
			t.Errorf("%s: %d rows, want 24", p.where, len(rows))
		}
		footer := rows[len(rows)-1]
		if strings.HasPrefix(p.where, "contents") {
			// a part's heading opens the page of its first scene: never
			// the last line above the pager
			last := ""
			for _, r := range rows[:len(rows)-1] {
				if r = strings.TrimSpace(r); r != "" && !strings.HasPrefix(r, "•") {
					last = r
				}
			}
			if strings.HasPrefix(last, "part ") {
				t.Errorf("%s: the heading %q stands alone at the page's foot:\n%s", p.where, last, p.view)
			}
		}
		for i, row := range rows {
			if w := views.Width(row); w > 80 {
				t.Errorf("%s: row %d is %d columns: %s", p.where, i, w, row)
			}
			// splitNumber matches only a row that ends in - or X: the
			// regexp on every row was a sixth of this test's own time
			end := strings.TrimRight(row, " ")
			if i+1 < len(rows) && (strings.HasSuffix(end, "-") || strings.HasSuffix(end, "X")) &&
				splitNumber.MatchString(end) && numberHead.MatchString(rows[i+1]) {
				t.Errorf("%s: a number is broken across rows %d and %d:\n%s\n%s", p.where, i, i+1, row, rows[i+1])
			}
			if !strings.Contains(row, "…") {
				continue // no cut (cutMark needs one), and the regexp is dear under -race
			}
			for _, m := range cutMark.FindAllStringSubmatch(row, -1) {
				if tokenMark.MatchString(m[1]) {
					continue
				}
				key := ""
				for _, f := range fullForm {
					if f.page.MatchString(p.where) && f.line.MatchString(row) {
						key = f.key
						break
					}
				}
				switch {
				case key == "":
					t.Errorf("%s: row %d is cut, and no key shows it whole:\n%s", p.where, i, row)
				case !strings.Contains(footer, key+" "):
					t.Errorf("%s: row %d is cut; %s shows it whole, but the help line does not name it:\n%s\n%s", p.where, i, key, row, footer)
				}
				// the list names the kind of page, not the step: a cut on
				// every step of a story is one entry
				entry := fmt.Sprintf("%s · %s · %s", pageKind(p.where), key, strings.TrimSpace(row))
				if !seen[entry] {
					seen[entry] = true
					listed = append(listed, entry)
				}
			}
		}
	}
	sort.Strings(listed)
	for _, l := range listed {
		t.Log(l)
	}
	name := "cuts-80x24"
	if simtest.Slow {
		name += "-settings"
	}
	golden(t, name, strings.Join(listed, "\n")+"\n")
}

// pageKind is where without its step: "crash-gap, step 7" is
// "crash-gap".
func pageKind(where string) string {
	return regexp.MustCompile(`, (step|situation|page) [0-9]+.*$`).ReplaceAllString(where, "")
}

// TestFollowerReadoutNamesNoStepKey: a follower takes no step (the
// instructor does), so the readout a learner reads as "Step with → or n
// and watch" reads without the keys on a follower's screen.
func TestFollowerReadoutNamesNoStepKey(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Scene: "claim-lease", NoQuiz: true}, "")
	if v := a.View(); !strings.Contains(strings.Join(strings.Fields(v), " "), "Step with → or n") {
		t.Fatalf("the learner's readout should say how to step:\n%s", v)
	}
	a.pl.Follow = true
	v := strings.Join(strings.Fields(a.View()), " ")
	if strings.Contains(v, "Step with") || strings.Contains(v, "→ or n") || !strings.Contains(v, "Watch the active set's deadlines") {
		t.Errorf("a follower's readout names keys they cannot use:\n%s", a.View())
	}
}
