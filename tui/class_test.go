package tui

import (
	"context"
	"locksim/sim/simtest"
	"regexp"
	"strings"
	"testing"
	"time"

	"locksim/class"

	tea "github.com/charmbracelet/bubbletea"
)

// classNow is the class tests' clock: every row is put, and judged, at it.
var classNow = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func atClassNow() time.Time { return classNow }

// member is one session of a class in a test: its app, its seat, and its
// watch of the class's events.
type member struct {
	a    *App
	seat *class.Seat
	w    *class.Watch
}

// joinAs opens a course with o on an embedded server of its own and seats
// it in class code as role, sized w x h, after the roster so far.
func joinAs(t *testing.T, hub class.Hub, code string, role class.Role, id, name string, o Options, w, h int) member {
	t.Helper()
	return joinWith(t, hub, code, role, id, name, o, w, h, atClassNow)
}

// joinWith is joinAs with the class's clock now.
func joinWith(t *testing.T, hub class.Hub, code string, role class.Role, id, name string, o Options, w, h int, now func() time.Time) member {
	t.Helper()
	return joinRoom(t, hub, code, role, id, name, o, w, h, Classroom{Join: "ssh -p 2222 " + code + "@localhost", Now: now})
}

// joinRoom is joinAs with the ways in room gives (its Seat is the one
// made here), and room.Now as the class's clock.
func joinRoom(t *testing.T, hub class.Hub, code string, role class.Role, id, name string, o Options, w, h int, room Classroom) member {
	t.Helper()
	now := room.Now
	a, err := NewCourse(embedded(t), o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	seat, err := class.Sit(ctx, hub, code, class.Member{ID: id, Name: name, Role: role}, now)
	if err != nil {
		t.Fatal(err)
	}
	watch, err := seat.Watch()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		watch.Close()
		cancel()
		seat.Leave(context.Background())
		a.Shutdown(context.Background())
	})
	room.Seat = seat
	a.JoinClass(room)
	drive(t, a, tea.WindowSizeMsg{Width: w, Height: h})
	runCmd(t, a, a.Init())
	roster, err := seat.Roster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var evs []class.Event
	for i := range roster {
		evs = append(evs, class.Event{Kind: class.KindMember, Member: &roster[i]})
	}
	evs = append(evs, class.MatchEvents(roster)...)
	drive(t, a, ClassMsg{Events: evs})
	return member{a, seat, watch}
}

// hear hands m's app the class's events until one satisfies until (a
// hang guard of ten seconds: the events come from the seats' goroutines).
func hear(t *testing.T, m member, what string, until func(class.Event) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		evs, err := m.w.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		drive(t, m.a, ClassMsg{Events: evs})
		for _, e := range evs {
			if until(e) {
				return
			}
		}
	}
}

// leadAt is an event of the instructor's place at step n of scene.
func leadAt(scene string, n int) func(class.Event) bool {
	return func(e class.Event) bool {
		return e.Kind == class.KindLead && e.Lead.Pos.Scene == scene && e.Lead.Pos.Step == n
	}
}

// rowOf is an event of member id's row satisfying ok.
func rowOf(id string, ok func(class.Member) bool) func(class.Event) bool {
	return func(e class.Event) bool { return e.Kind == class.KindMember && e.Member.ID == id && ok(*e.Member) }
}

// withoutLastLine is screen v without its last row (the help line, or the
// class's line in its place).
func withoutLastLine(v string) string {
	return v[:strings.LastIndex(v, "\n")]
}

// withoutFirstLine is screen v without its first row (the header).
func withoutFirstLine(v string) string {
	return v[strings.Index(v, "\n")+1:]
}

// TestFollowReachesTheInstructorsStep: a student who follows replays to
// the instructor's scene, settings and step in a sandbox of their own and
// draws the screen the instructor's own run draws there; a key that
// would move away says how to leave, and F leaves.
func TestFollowReachesTheInstructorsStep(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 100, 32)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 1}, 100, 32)

	drive(t, teacher.a, keys("F")...) // the class is asked to follow
	hear(t, ann, "the instructor asking", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Follow })
	if v := ann.a.View(); !strings.Contains(v, "the instructor asks the class to follow") {
		t.Fatalf("the student is not told the class is asked to follow:\n%s", v)
	}
	drive(t, ann.a, keys("F")...)
	if ann.a.onContents() || ann.a.pl.Scene.ID != "fencing" {
		t.Fatalf("following opened %s (contents %v), want fencing", ann.a.pl.Scene.ID, ann.a.onContents())
	}
	drive(t, teacher.a, keys("nnnnnn")...)
	hear(t, ann, "the instructor's step 6", leadAt("fencing", 6))
	if got := ann.a.pl.Snap.Pos; got != 6 {
		t.Fatalf("the follower is at step %d, want 6", got)
	}
	// the instructor's place, opened in a learner's session of its own
	ref := openPosition(t, teacher.a.Position(), "", "")
	if got, want := withoutLastLine(ann.a.View()), withoutLastLine(ref.View()); got != want {
		t.Errorf("the follower's screen:\n%s\nthe instructor's place:\n%s", got, want)
	}
	if v := ann.a.View(); !strings.Contains(v, "following the instructor · F leaves follow mode") {
		t.Errorf("no follow line:\n%s", v)
	}
	// the student's row says so, for the instructor's roster
	hear(t, teacher, "ann's row at step 6", rowOf("k-ann", func(m class.Member) bool { return m.Following && m.Pos.Step == 6 }))

	// a step of one's own is refused while following; F leaves
	drive(t, ann.a, keys("n")...)
	if ann.a.pl.Snap.Pos != 6 || !strings.Contains(ann.a.View(), "you are following the instructor · F leaves follow mode") {
		t.Fatalf("a step while following moved to %d:\n%s", ann.a.pl.Snap.Pos, ann.a.View())
	}
	drive(t, ann.a, keys("F")...)
	drive(t, ann.a, keys("n")...)
	if ann.a.pl.Snap.Pos != 7 {
		t.Fatalf("after leaving follow mode a step went to %d, want 7", ann.a.pl.Snap.Pos)
	}
	drive(t, teacher.a, keys("b")...)
	hear(t, ann, "the instructor's step 5", leadAt("fencing", 5))
	if ann.a.pl.Snap.Pos != 7 {
		t.Fatalf("a student who left follow mode was moved to %d", ann.a.pl.Snap.Pos)
	}
}

// TestPollCountsTheClass: the instructor, in presenter mode, stands at
// gc-pause's question; two following students answer, and the class view
// shows their predictions; the instructor runs the move, and it shows
// what each student's own run answered. Goldens at 80x24 and 120x40.
func TestPollCountsTheClass(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		hub := class.NewMemory(atClassNow)
		info, err := hub.Open(context.Background(), "teacher")
		if err != nil {
			t.Fatal(err)
		}
		// a fixed code, so the goldens do not change from run to run
		code := info.Code
		teacher := joinAs(t, hub, code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, size.w, size.h)
		ann := joinAs(t, hub, code, class.Student, "k-ann", "ann", Options{Seed: 2}, size.w, size.h)
		bob := joinAs(t, hub, code, class.Student, "k-bob", "bob", Options{Seed: 3}, size.w, size.h)
		drive(t, teacher.a, keys("F")...)
		at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
		drive(t, teacher.a, keys(strings.Repeat(".", at))...)
		if !teacher.a.pl.Asking {
			t.Fatalf("the instructor is not at the question (step %d, question before %d)", teacher.a.pl.Snap.Pos, at)
		}
		for _, s := range []member{ann, bob} {
			hear(t, s, "the instructor at the question", leadAt("gc-pause", at))
			drive(t, s.a, keys("F")...)
			if !s.a.pl.Asking {
				t.Fatalf("the follower is not asked at step %d:\n%s", s.a.pl.Snap.Pos, s.a.View())
			}
		}
		drive(t, ann.a, keys("1")...)
		// a step while bob has not answered runs nothing: it says so first
		hear(t, teacher, "ann's prediction", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Prediction != nil }))
		if bob := teacher.a.cls.row("k-bob"); !bob.Following || bob.Pos.Step != at {
			hear(t, teacher, "bob at the question", rowOf("k-bob", func(m class.Member) bool { return m.Following && m.Pos.Step == at }))
		}
		drive(t, teacher.a, keys(".")...)
		if v := teacher.a.View(); !teacher.a.pl.Asking || teacher.a.pl.Snap.Pos != at || !strings.Contains(v, "1 of 2 have answered · → again to step") {
			t.Fatalf("the instructor's step with bob's answer missing should wait and say so (at %d, asking %v):\n%s", teacher.a.pl.Snap.Pos, teacher.a.pl.Asking, v)
		}
		drive(t, bob.a, keys("2")...)
		if ann.a.pl.Snap.Pos != at || ann.a.pl.Asking {
			t.Fatalf("the follower's answer moved the story to %d (asking %v)", ann.a.pl.Snap.Pos, ann.a.pl.Asking)
		}
		// what the keys hold would answer it: hidden until the move runs
		if v := ann.a.View(); !strings.Contains(v, "You predicted: ") || !strings.Contains(v, "keys (hidden until the instructor runs the move)") {
			t.Errorf("a follower waiting for the move sees:\n%s", v)
		}
		hear(t, teacher, "both predictions", rowOf("k-bob", func(m class.Member) bool { return m.Pos.Prediction != nil }))
		if ann := teacher.a.cls.row("k-ann"); ann.Pos.Prediction == nil {
			hear(t, teacher, "ann's prediction", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Prediction != nil }))
		}
		drive(t, teacher.a, keys("l")...)
		v := teacher.a.View()
		if !strings.Contains(v, "2 of 2 answered · most chose 1 and 2, 1 each") || !strings.Contains(v, "2 online, 2 following") {
			t.Errorf("the class view does not count the two predictions:\n%s", v)
		}
		golden(t, "class-poll-open-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), strings.ReplaceAll(v, code, "CODE"))

		// the move runs in every follower's own run
		drive(t, teacher.a, keys(".")...)
		for _, s := range []member{ann, bob} {
			hear(t, s, "the move", leadAt("gc-pause", at+1))
			if !s.a.pl.Revealed {
				t.Fatalf("the follower's run did not answer at step %d", s.a.pl.Snap.Pos)
			}
		}
		for _, s := range []member{ann, bob} {
			// a prediction made while following is the student's own: it
			// goes to their progress, and so to the class's report
			if a, ok := s.a.course.Prog.Answers["gc-pause"]; !ok || a.Chosen != s.a.pl.Guess {
				t.Errorf("a follower's prediction %d is not in their progress: %+v", s.a.pl.Guess, s.a.course.Prog.Answers)
			}
		}
		hear(t, teacher, "bob's run", rowOf("k-bob", func(m class.Member) bool { return m.Revealed }))
		if ann := teacher.a.cls.row("k-ann"); !ann.Revealed {
			hear(t, teacher, "ann's run", rowOf("k-ann", func(m class.Member) bool { return m.Revealed }))
		}
		drive(t, teacher.a, tea.WindowSizeMsg{Width: size.w, Height: size.h})
		v = teacher.a.View()
		if !strings.Contains(v, "their own runs answered (2 of 2 have run it)") {
			t.Errorf("the class view does not show the runs' answers:\n%s", v)
		}
		golden(t, "class-poll-revealed-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), strings.ReplaceAll(v, code, "CODE"))
	}
}

// TestProjectorShowsTheInstructorsRun: a projector follows the instructor
// exactly (their seed: the same tokens) and shows only the scene; the
// instructor puts a student's run on it from the class view.
func TestProjectorShowsTheInstructorsRun(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 4, Scene: "release"}, 80, 24)
	projector := joinAs(t, hub, info.Code, class.Projector, "teacher", "teacher", Options{Seed: 9}, 80, 24)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 5, Scene: "fencing"}, 80, 24)
	drive(t, teacher.a, keys("nnn")...)
	hear(t, projector, "the instructor's step 3", leadAt("release", 3))
	if got, want := withoutLastLine(projector.a.View()), withoutLastLine(teacher.a.View()); got != want {
		t.Errorf("the projector:\n%s\nthe instructor:\n%s", got, want)
	}
	golden(t, "class-projector-80x24", strings.ReplaceAll(projector.a.View(), info.Code, "CODE"))
	// keys on the projector move nothing
	drive(t, projector.a, keys("nn<")...)
	drive(t, projector.a, tea.MouseMsg{X: 3, Y: 2, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if projector.a.pl.Sel != -1 {
		t.Errorf("a click on the projector selected actor %d", projector.a.pl.Sel)
	}
	if projector.a.pl.Snap.Pos != 3 || projector.a.pl.Scene.ID != "release" {
		t.Fatalf("the projector moved to %s %d", projector.a.pl.Scene.ID, projector.a.pl.Snap.Pos)
	}

	// ann's own run, picked in the class view, goes on the projector
	drive(t, ann.a, keys("nnnn")...)
	hear(t, teacher, "ann's row", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Scene == "fencing" && m.Pos.Step == 4 }))
	drive(t, teacher.a, keys("l[enter]")...)
	if p := teacher.a.Position(); p.Scene != "fencing" || p.Step != 4 || p.Seed != 5 {
		t.Fatalf("the instructor shows %+v, want ann's fencing at step 4, seed 5", p)
	}
	hear(t, projector, "ann's run", leadAt("fencing", 4))
	want := ann.a.pl.Position()
	if got := projector.a.pl.Position(); got.Seed != want.Seed || got.Step != want.Step {
		t.Fatalf("the projector shows %+v, want ann's %+v", got, want)
	}
	// but for the header's "presenter": the projector asks the room
	if got, want := withoutFirstLine(withoutLastLine(projector.a.View())), withoutFirstLine(withoutLastLine(ann.a.View())); got != want {
		t.Errorf("the projector:\n%s\nann:\n%s", got, want)
	}
}

// TestFollowersRaceTheirOwnRace: at the race's question a follower
// answers and waits; the instructor's volley fires the follower's own
// race, whose replies answer the follower's prediction.
func TestFollowersRaceTheirOwnRace(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "race"}, 100, 32)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2}, 100, 32)
	drive(t, teacher.a, keys("F")...)
	hear(t, ann, "the instructor asking", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Follow })
	drive(t, ann.a, keys("F2")...)
	if ann.a.pl.Scene.ID != "race" || ann.a.pl.Guess != 1 || ann.a.pl.Snap.Pos != 0 {
		t.Fatalf("the follower is at %s step %d with guess %d", ann.a.pl.Scene.ID, ann.a.pl.Snap.Pos, ann.a.pl.Guess)
	}
	drive(t, teacher.a, keys(".")...) // the room has seen the question: the volley
	hear(t, ann, "the instructor's volley", leadAt("race", 1))
	if !ann.a.pl.Revealed || ann.a.pl.Actual != 1 || ann.a.pl.Position().Race == nil {
		t.Fatalf("the follower's race: revealed %v, actual %d, record %v", ann.a.pl.Revealed, ann.a.pl.Actual, ann.a.pl.Position().Race)
	}
}

// TestClassViewFromTheContents: on the contents, before leading a scene,
// the instructor's l opens the class view to watch the class arrive: a
// student on the contents is listed there as on the contents, the poll
// waits for a scene; l gives the contents back, whose keys are theirs.
func TestClassViewFromTheContents(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 4}, 80, 24)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 5}, 80, 24)
	drive(t, ann.a) // ann's row goes to the class from her contents
	hear(t, teacher, "ann on the contents", rowOf("k-ann", func(m class.Member) bool { return m.OnContents }))
	drive(t, teacher.a, keys("l")...)
	v := teacher.a.View()
	if !isDesk(teacher.a.pages.top()) || !strings.Contains(v, "you lead no scene yet") || !regexp.MustCompile(`ann +contents`).MatchString(v) {
		t.Fatalf("l on the contents should open the class view, ann on the contents:\n%s", v)
	}
	drive(t, teacher.a, keys("l")...)
	drive(t, teacher.a, tea.KeyMsg{Type: tea.KeyDown}, tea.KeyMsg{Type: tea.KeyDown})
	if got := teacher.a.toc.list().SelectedItem().(entry).n; got != 3 || isDesk(teacher.a.pages.top()) {
		t.Fatalf("after l again, ↓ ↓ picks scene %d (want 3), class view %v", got, isDesk(teacher.a.pages.top()))
	}
}

// TestFollowNoteWholeAt80: the note an instructor's F gives fits an 80x24
// screen whole, with no … where it was cut (a fresh user found it cut).
func TestFollowNoteWholeAt80(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 80, 24)
	drive(t, teacher.a, keys("F")...)
	v := teacher.a.View()
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "asked to follow:") {
			if strings.Contains(line, "…") {
				t.Fatalf("the note is cut at 80x24:\n%s", v)
			}
			return
		}
	}
	t.Fatalf("no note that the class is asked to follow:\n%s", v)
}
