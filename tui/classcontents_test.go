package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/class"

	"github.com/charmbracelet/bubbles/cursor"
)

// TestContentsLeadNoScene: an instructor on the contents leads no scene.
// A second session of their key, on its contents, stays there (a defect
// pulled it into the scene under the first's contents, which no one had
// opened); once the first opens a scene the second goes there under its
// class view, and when the first goes back to the contents the second
// does too, its class view still on top, and leads nothing back.
func TestContentsLeadNoScene(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	isLead := func(e class.Event) bool { return e.Kind == class.KindLead }
	first := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1}, 80, 24)
	hear(t, first, "its own place", isLead)
	second := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 2}, 80, 24)
	hear(t, second, "the first session's place", func(e class.Event) bool { return isLead(e) && e.Lead.By == first.seat.ID() })
	if !second.a.onContents() {
		t.Fatalf("the second session left its contents for a scene no one opened:\n%s", second.a.View())
	}

	drive(t, second.a, keys("l")...)
	drive(t, first.a, keys("[enter]")...) // the first scene, opened
	scene := first.a.pl.Scene.ID
	if first.a.onContents() {
		t.Fatalf("enter on the contents opened no scene:\n%s", first.a.View())
	}
	hear(t, second, "the first session's scene", leadAt(scene, 0))
	if !isDesk(second.a.pages.top()) || second.a.contentsOpen() || second.a.pl.Scene.ID != scene {
		t.Fatalf("under its class view the second session should be in %s, off the contents (%v):\n%s", scene, second.a.contentsOpen(), second.a.View())
	}
	drive(t, first.a, keys("[esc][esc]")...)
	if !first.a.onContents() {
		t.Fatalf("esc esc did not leave the scene for the contents:\n%s", first.a.View())
	}
	hear(t, second, "the first session on the contents", func(e class.Event) bool { return isLead(e) && e.Lead.Contents })
	if !isDesk(second.a.pages.top()) || !second.a.contentsOpen() {
		t.Fatalf("the second session should be on the contents under its class view:\n%s", second.a.View())
	}
	drive(t, second.a, keys("l")...)
	if !second.a.onContents() {
		t.Fatalf("l should close the class view over the contents:\n%s", second.a.View())
	}
	// the lab, opened from the contents before a scene: the first
	// session's next place on the contents (F) leaves it open
	drive(t, second.a, keys("[esc]")...) // the scene opened under the contents is left
	third := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 3}, 80, 24)
	hear(t, third, "the class's place", func(e class.Event) bool { return isLead(e) && e.Lead.Contents })
	third.a.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic) // a blink's command runs for ever
	drive(t, third.a, keys("/lab[enter]")...)
	if third.a.labPage() == nil || !third.a.offScene() {
		t.Fatalf("/lab enter on the contents opened no lab, or one not on the contents:\n%s", third.a.View())
	}
	drive(t, first.a, keys("F")...)
	hear(t, third, "the ask to follow", func(e class.Event) bool { return isLead(e) && e.Lead.Contents && e.Lead.Follow })
	if third.a.labPage() == nil || third.a.pages.top() != Component(third.a.labPage()) {
		t.Fatalf("the first session's F on the contents closed the lab of another session of theirs:\n%s", third.a.View())
	}
	// one leader: the other sessions, on the contents, moved nothing
	if l, ok, err := hub.LeadOf(context.Background(), info.Code); err != nil || !ok || !l.Contents || l.By != first.seat.ID() {
		t.Fatalf("the class's place: %+v, %v, %v", l, ok, err)
	}
}

// TestClassViewOnContentsAsksNothing: an instructor who led a scene to its
// question and went back to the contents leads no scene: the class view
// shows no question (the scene under the contents is no one's question),
// and says that none is open. Back in the scene, the poll is there again.
func TestClassViewOnContentsAsksNothing(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause"}, 80, 24)
	at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat("n", at))...)
	const q = "What does B get?"
	drive(t, teacher.a, keys("l")...)
	if v := flatten(teacher.a.View()); !strings.Contains(v, q) {
		t.Fatalf("at the question the class view should poll it:\n%s", teacher.a.View())
	}
	drive(t, teacher.a, keys("l[esc][esc]")...)
	if !teacher.a.onContents() {
		t.Fatalf("esc esc did not leave the scene for the contents:\n%s", teacher.a.View())
	}
	drive(t, teacher.a, keys("l")...)
	v := teacher.a.View()
	if !isDesk(teacher.a.pages.top()) {
		t.Fatalf("l on the contents should open the class view:\n%s", v)
	}
	if f := flatten(v); strings.Contains(f, q) || !strings.Contains(f, "no question is open") {
		t.Errorf("on the contents the class view should show no question, and say none is open:\n%s", v)
	}
}
