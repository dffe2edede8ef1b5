package tui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/class"
	"locksim/play"

	"github.com/alicebob/miniredis/v2"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// classClock is a class's clock in a test, moved by hand.
type classClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *classClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *classClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// longName is a student's name longer than any fixed column.
const longName = "Aaliyah Maximiliane Oberhuber-Schmidt"

// fillClass puts n students' rows in class code at now: the first is
// longName, three minutes on her step and forty seconds since her last
// key; every third is on the contents, every seventh offline, and the
// rest stand at gc-pause's question, half of them having answered.
func fillClass(t *testing.T, hub class.Hub, code string, n int, now time.Time) []class.Member {
	t.Helper()
	var out []class.Member
	for i := range n {
		m := class.Member{ID: fmt.Sprintf("k%02d", i), Name: fmt.Sprintf("student %02d", i), Role: class.Student, Online: true, Seen: now, Actual: -1,
			StepAt: now.Add(-time.Duration(i) * time.Minute), KeyAt: now.Add(-time.Duration(i) * 7 * time.Second),
			Pos: play.Position{Version: play.PositionVersion, Scene: "gc-pause", Step: 3, Seed: uint64(i + 1)}, Following: i%2 == 0}
		switch {
		case i == 0:
			m.Name, m.StepAt, m.KeyAt = longName, now.Add(-3*time.Minute), now.Add(-40*time.Second)
		case i%7 == 0:
			m.Online = false
		case i%3 == 0:
			m.OnContents, m.Following = true, false
		case i%2 == 0:
			m.Pos.Prediction = &play.Prediction{Chosen: i % 3}
		}
		if err := hub.Put(context.Background(), code, m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// hearRoster hands m's app class code's roster as Listen does.
func hearRoster(t *testing.T, hub class.Hub, code string, m member) {
	t.Helper()
	roster, err := hub.Roster(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	var evs []class.Event
	for i := range roster {
		evs = append(evs, class.Event{Kind: class.KindMember, Member: &roster[i]})
	}
	drive(t, m.a, ClassMsg{Events: evs})
}

// screenFits fails the test when v is not h rows of at most w columns.
func screenFits(t *testing.T, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Errorf("the screen is %d rows, want %d:\n%s", len(lines), h, v)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("row %d is %d columns wide, the screen %d: %q", i, n, w, l)
		}
	}
}

var (
	moreBelow = regexp.MustCompile(`(\d+) more below`)
	moreAbove = regexp.MustCompile(`(\d+) more above`)
)

// TestRosterAtRealSizes: a class of 33 and one of 60, on the class view at
// 80x24 and 120x40: the screen is whole (no row wider than it, its help
// line the last), the roster says how many it leaves out above and below,
// [ and ] page through it to its last student, a long name is whole where
// the columns allow, and each row says the time on the step and since the
// last key. Goldens of 33 at 80x24 and 60 at 120x40.
func TestRosterAtRealSizes(t *testing.T) {
	for _, tc := range []struct{ n, w, h int }{{33, 80, 24}, {33, 120, 40}, {60, 80, 24}, {60, 120, 40}} {
		t.Run(fmt.Sprintf("%d-%dx%d", tc.n, tc.w, tc.h), func(t *testing.T) {
			clk := &classClock{t: classNow}
			hub := class.NewMemory(clk.now)
			info, err := hub.Open(context.Background(), "teacher")
			if err != nil {
				t.Fatal(err)
			}
			teacher := joinWith(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, tc.w, tc.h, clk.now)
			drive(t, teacher.a, keys("F...")...)
			if !teacher.a.pl.Asking {
				t.Fatalf("the instructor is not at gc-pause's question (step %d)", teacher.a.pl.Snap.Pos)
			}
			clk.advance(90 * time.Second) // the question has been open a minute and a half
			ms := fillClass(t, hub, info.Code, tc.n, clk.now())
			hearRoster(t, hub, info.Code, teacher)
			drive(t, teacher.a, keys("l")...)
			v := teacher.a.View()
			screenFits(t, v, tc.w, tc.h)
			if !strings.Contains(v, "open 1m · ") || !strings.Contains(v, "answered") {
				t.Errorf("the poll does not say how long its question has been open:\n%s", v)
			}
			if !moreBelow.MatchString(v) || moreAbove.MatchString(v) {
				t.Fatalf("the roster's first page should say how many more are below, none above:\n%s", v)
			}
			if !regexp.MustCompile(`▸ Aaliyah.* gc-pause +3/\? +following +3m +40s\b`).MatchString(v) {
				t.Errorf("the first row does not give her place, her time on the step and since her last key:\n%s", v)
			}
			if tc.w >= 120 && !strings.Contains(v, longName) {
				t.Errorf("at %d columns the name %q should be whole:\n%s", tc.w, longName, v)
			}
			if !regexp.MustCompile(`student 03 +contents `).MatchString(v) {
				t.Errorf("a student on the contents is not listed there:\n%s", v)
			}
			if !strings.Contains(v, "↑↓[] pick") {
				t.Errorf("the help line does not name the roster's keys:\n%s", v)
			}
			switch {
			case tc.n == 33 && tc.w == 80, tc.n == 60 && tc.w == 120:
				golden(t, fmt.Sprintf("class-roster-%d-%dx%d", tc.n, tc.w, tc.h), strings.ReplaceAll(v, info.Code, "CODE"))
			}

			// ] pages: the picked row moves a page on, the rows above are counted
			shown := len(ms) - atoi(t, moreBelow.FindStringSubmatch(v)[1])
			drive(t, teacher.a, keys("]")...)
			v = teacher.a.View()
			screenFits(t, v, tc.w, tc.h)
			if !strings.Contains(v, "▸ "+ms[shown-1].Name) && !strings.Contains(v, "▸ student") {
				t.Fatalf("after ] no student is picked:\n%s", v)
			}
			if teacher.a.cls.pick == 0 {
				t.Fatalf("] did not move the pick:\n%s", v)
			}
			for range len(ms) {
				drive(t, teacher.a, keys("]")...)
			}
			v = teacher.a.View()
			screenFits(t, v, tc.w, tc.h)
			last := ms[len(ms)-1].Name
			if !strings.Contains(v, "▸ "+last) || moreBelow.MatchString(v) || !moreAbove.MatchString(v) {
				t.Fatalf("paged to the end, %s should be picked with only rows above left out:\n%s", last, v)
			}
			drive(t, teacher.a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'['}})
			for range len(ms) {
				drive(t, teacher.a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'['}})
			}
			if v = teacher.a.View(); !strings.Contains(v, "▸ Aaliyah") || moreAbove.MatchString(v) {
				t.Fatalf("paged back to the start, the first student should be picked:\n%s", v)
			}
		})
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestHoldKeepsTheFollowers: the instructor holds the class from the
// class view (H), on one server; on another (two clients of one Redis),
// a follower's keys that would leave the instructor's place (F, esc, a
// step of their own) are refused with a flash, their status line says
// the class is held, and a student who does not follow is told so; H
// again releases it, and F leaves follow mode again.
func TestHoldKeepsTheFollowers(t *testing.T) {
	s := miniredis.RunT(t)
	hubs := [2]*class.Redis{}
	for i := range hubs {
		h, err := class.NewRedis(context.Background(), "redis://"+s.Addr(), atClassNow)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h.Close() })
		hubs[i] = h
	}
	info, err := hubs[0].Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hubs[0], info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 100, 32)
	ann := joinAs(t, hubs[1], info.Code, class.Student, "k-ann", "ann", Options{Seed: 2}, 100, 32)
	bob := joinAs(t, hubs[1], info.Code, class.Student, "k-bob", "bob", Options{Seed: 3}, 100, 32)
	drive(t, teacher.a, keys("nn")...)
	drive(t, teacher.a, keys("l")...)
	drive(t, teacher.a, keys("H")...)
	if v := teacher.a.View(); !strings.Contains(v, "the class is held") || !strings.Contains(v, "followers stay on your place until H in the class view releases it") {
		t.Fatalf("the class view does not say the class is held:\n%s", v)
	}
	// the note goes with the next key: the help line says H releases
	drive(t, teacher.a, tea.KeyMsg{Type: tea.KeyDown})
	if v := teacher.a.View(); !strings.Contains(v, "the class is held") || !strings.Contains(v, "H release") {
		t.Fatalf("the class view's help line does not say H releases:\n%s", v)
	}
	held := func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Hold && e.Lead.Follow }
	hear(t, ann, "the hold", held)
	drive(t, ann.a, keys("F")...)
	if !ann.a.cls.part.Following() || ann.a.pl.Scene.ID != "fencing" {
		t.Fatalf("ann does not follow the held class: following %v, scene %s", ann.a.cls.part.Following(), ann.a.pl.Scene.ID)
	}
	if v := ann.a.View(); !strings.Contains(v, "the class is held: following the instructor") {
		t.Errorf("a follower of a held class is not told so:\n%s", v)
	}
	for _, k := range []tea.Msg{keys("F")[0], tea.KeyMsg{Type: tea.KeyEsc}, keys("n")[0]} {
		drive(t, ann.a, k)
		v := ann.a.View()
		if !ann.a.cls.part.Following() || ann.a.onContents() || ann.a.pl.Snap.Pos != 2 {
			t.Fatalf("%v left the held class: following %v, contents %v, step %d:\n%s", k, ann.a.cls.part.Following(), ann.a.onContents(), ann.a.pl.Snap.Pos, v)
		}
		if !strings.Contains(v, "the class is held: you stay on the instructor's place until they release it") {
			t.Errorf("%v on a held class says nothing of the hold:\n%s", k, v)
		}
	}
	hear(t, bob, "the hold", held)
	if v := bob.a.View(); !strings.Contains(v, "the instructor holds the class · F follows") {
		t.Errorf("a student who does not follow is not told the class is held:\n%s", v)
	}

	drive(t, teacher.a, keys("H")...)
	if v := teacher.a.View(); strings.Contains(v, "the class is held") || !strings.Contains(v, "the class is asked to follow") {
		t.Fatalf("released, the class view still says held:\n%s", v)
	}
	hear(t, ann, "the release", func(e class.Event) bool { return e.Kind == class.KindLead && !e.Lead.Hold })
	drive(t, ann.a, keys("F")...)
	if ann.a.cls.part.Following() {
		t.Fatalf("released, F does not leave follow mode:\n%s", ann.a.View())
	}
}

// TestRosterTimesFromKeys: a student's step and keys reach the
// instructor's roster as times by the class's clock: a step moves the
// time on the step and the last key, a key that moves nothing only the
// last key.
func TestRosterTimesFromKeys(t *testing.T) {
	clk := &classClock{t: classNow}
	hub := class.NewMemory(clk.now)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinWith(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 120, 40, clk.now)
	ann := joinWith(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2, Scene: "fencing"}, 120, 40, clk.now)
	clk.advance(10 * time.Second)
	drive(t, ann.a, keys("n")...)
	stepped := classNow.Add(10 * time.Second)
	hear(t, teacher, "ann's step", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Step == 1 && m.KeyAt.Equal(stepped) }))
	if m := teacher.a.cls.row("k-ann"); !m.StepAt.Equal(stepped) {
		t.Fatalf("ann stepped at %v; her row says her step came at %v", stepped, m.StepAt)
	}
	clk.advance(20 * time.Second)
	drive(t, ann.a, keys("?")...) // the keys page: her place stays
	keyed := stepped.Add(20 * time.Second)
	hear(t, teacher, "ann's key", rowOf("k-ann", func(m class.Member) bool { return m.KeyAt.Equal(keyed) }))
	if m := teacher.a.cls.row("k-ann"); !m.StepAt.Equal(stepped) {
		t.Fatalf("a key that moved nothing moved ann's step time to %v", m.StepAt)
	}
	clk.advance(2 * time.Minute)
	if err := hub.Beat(context.Background(), info.Code, "k-ann", class.Student, clk.now()); err != nil {
		t.Fatal(err)
	}
	hearRoster(t, hub, info.Code, teacher)
	drive(t, teacher.a, keys("l")...)
	if v := teacher.a.View(); !regexp.MustCompile(`ann +fencing +1/\? +2m +2m\b`).MatchString(v) {
		t.Errorf("the roster does not give ann 2m on her step and 2m since her key:\n%s", v)
	}
}

// TestSummaryAtTheEnd: two students answer gc-pause's question and the
// instructor runs the move; S in the class view shows the summary (each
// student's scenes finished, predictions that came true of those given,
// time in the class; the class's answers to the question), S goes back
// to the class view. A student's S shows no summary. Goldens at 80x24
// and 120x40.
func TestSummaryAtTheEnd(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		hub := class.NewMemory(atClassNow)
		info, err := hub.Open(context.Background(), "teacher")
		if err != nil {
			t.Fatal(err)
		}
		teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, size.w, size.h)
		ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2}, size.w, size.h)
		bob := joinAs(t, hub, info.Code, class.Student, "k-bob", "bob", Options{Seed: 3}, size.w, size.h)
		drive(t, teacher.a, keys("F")...)
		at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
		drive(t, teacher.a, keys(strings.Repeat(".", at))...)
		for i, s := range []member{ann, bob} {
			hear(t, s, "the instructor at the question", leadAt("gc-pause", at))
			drive(t, s.a, keys("F")...)
			drive(t, s.a, keys(string(rune('2'-i)))...) // ann 2, bob 1
			hear(t, teacher, "the answer", rowOf(s.seat.Member().ID, func(m class.Member) bool { return m.Pos.Prediction != nil }))
		}
		drive(t, teacher.a, keys(".")...)
		for _, s := range []member{ann, bob} {
			hear(t, s, "the move", leadAt("gc-pause", at+1))
		}
		for _, id := range []string{"k-ann", "k-bob"} {
			if m := teacher.a.cls.row(id); !m.Revealed {
				hear(t, teacher, id+"'s run", rowOf(id, func(m class.Member) bool { return m.Revealed }))
			}
		}
		drive(t, teacher.a, keys("lS")...)
		v := teacher.a.View()
		screenFits(t, v, size.w, size.h)
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`summary of 2 students`),
			regexp.MustCompile(`ann +0/\d+ +1 of 1 +0s`),
			regexp.MustCompile(`bob +0/\d+ +0 of 1 +0s`),
			regexp.MustCompile(`(?m)^gc-pause$`),
			regexp.MustCompile(`1 of 2 predictions came true`),
		} {
			if !want.MatchString(v) {
				t.Errorf("the summary lacks %s:\n%s", want, v)
			}
		}
		golden(t, fmt.Sprintf("class-summary-%dx%d", size.w, size.h), strings.ReplaceAll(v, info.Code, "CODE"))
		drive(t, teacher.a, keys("S")...)
		if v := teacher.a.View(); !isDesk(teacher.a.pages.top()) || isSummary(teacher.a.pages.top()) || !strings.Contains(v, "── roster") {
			t.Fatalf("S on the summary should give the class view back:\n%s", v)
		}
		drive(t, ann.a, keys("S")...)
		if v := ann.a.View(); strings.Contains(v, "summary of") || strings.Contains(v, "came true") {
			t.Fatalf("a student's S shows the class's summary:\n%s", v)
		}
	}
}

// TestSummaryOfSixty: the summary of 60 students at 80x24 is whole: it
// says how many lines are below, and ] pages to its end.
func TestSummaryOfSixty(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause"}, 80, 24)
	ms := fillClass(t, hub, info.Code, 60, classNow)
	hearRoster(t, hub, info.Code, teacher)
	drive(t, teacher.a, keys("lS")...)
	v := teacher.a.View()
	screenFits(t, v, 80, 24)
	if !regexp.MustCompile(`\d+ more lines below`).MatchString(v) || !strings.Contains(v, longName[:20]) {
		t.Fatalf("the summary's first page:\n%s", v)
	}
	for range 10 {
		drive(t, teacher.a, keys("]")...)
	}
	v = teacher.a.View()
	screenFits(t, v, 80, 24)
	if !strings.Contains(v, ms[59].Name) || strings.Contains(v, "more lines below") || !strings.Contains(v, "above") {
		t.Fatalf("paged to the end, the summary should end with the last student:\n%s", v)
	}
}

// TestHoldLapsesWhileTheInstructorIsAway: a held follower whose
// instructor's session stopped beating is held no more (its server may
// have died): their line says they follow, F leaves follow mode.
func TestHoldLapsesWhileTheInstructorIsAway(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 100, 32)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2}, 100, 32)
	drive(t, teacher.a, keys("lH")...)
	hear(t, ann, "the hold", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Hold })
	drive(t, ann.a, keys("F")...)
	drive(t, ann.a, keys("F")...)
	if !ann.a.cls.part.Following() {
		t.Fatal("a held follower left follow mode")
	}
	away, back := true, false
	drive(t, ann.a, ClassMsg{Away: &away})
	v := ann.a.View()
	if line := v[strings.LastIndex(v, "\n")+1:]; !strings.HasPrefix(line, "following the instructor · F leaves follow mode") {
		t.Errorf("with the instructor away, the follower's line %q:\n%s", line, v)
	}
	drive(t, ann.a, ClassMsg{Away: &back})
	drive(t, ann.a, keys("F")...)
	if !ann.a.cls.part.Following() {
		t.Fatal("with the instructor back, the held follower left follow mode")
	}
	drive(t, ann.a, ClassMsg{Away: &away})
	drive(t, ann.a, keys("F")...)
	if ann.a.cls.part.Following() {
		t.Fatalf("with the instructor away, F does not leave follow mode:\n%s", ann.a.View())
	}
}

// TestWebJoinLine: a server that also serves the page (-web) shows the
// instructor the browser's way in under the SSH command, its link whole
// at 80 columns, and no line of the class view wider than the screen.
func TestWebJoinLine(t *testing.T) {
	clk := &classClock{t: classNow}
	hub := class.NewMemory(clk.now)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinWith(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 80, 24, clk.now)
	web := "https://class.example.org/c/" + info.Code
	teacher.a.JoinClass(Classroom{Seat: teacher.seat, Join: "ssh -p 2222 " + info.Code + "@localhost", Web: web, Now: clk.now})
	drive(t, teacher.a, keys("l")...)
	v := teacher.a.View()
	screenFits(t, v, 80, 24)
	if !strings.Contains(v, "students join with: ssh -p 2222 "+info.Code+"@localhost") || !strings.Contains(v, "or in a browser: "+web) {
		t.Fatalf("the class view should give both ways in:\n%s", v)
	}
}
