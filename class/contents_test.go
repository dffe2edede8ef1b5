package class

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes"
)

// TestContentsLeadsNoScene: an instructor on the contents leads no scene.
// The scene under their contents (the first, opened for no one) is not
// the class's place: another session of their key, on its contents too,
// is not pulled into it, nor is a student's F, nor the projector. Once
// they open a scene every one of them goes there; back on the contents,
// followers stay at that last place, and the other session goes to the
// contents with them and leaves the class's place there (one leader: it
// does not lead its scene back). A defect pulled a second session of the
// instructor out of its contents into the first scene.
func TestContentsLeadsNoScene(t *testing.T) {
	eachStore(t, contentsLeadsNoScene)
}

func contentsLeadsNoScene(t *testing.T, a, b Hub) {
	ctx := context.Background()
	info, err := a.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := info.Code
	under := play.Position{Version: play.PositionVersion, Scene: scenes.All()[0].ID}
	onContents := func(s *session, seed uint64) {
		s.contents, s.pos = true, under
		s.pos.Seed = seed
		s.report()
	}
	contentsLead := func(s *session) bool { return s.p.Lead() != nil && s.p.Lead().Contents }
	first := joinAs(t, a, code, Instructor, "teacher", "teacher", 1)
	onContents(first, 1)
	first.do(first.p.AskFollow())
	first.report()
	first.hear("its own place, asking the class to follow", func(s *session) bool { return s.p.Lead() != nil && s.p.Lead().Follow })

	second := joinAs(t, b, code, Instructor, "teacher", "teacher", 2)
	onContents(second, 2)
	second.hear("the class's place", func(s *session) bool { return s.p.Lead() != nil && s.p.Lead().By == first.p.Seat().ID() })
	if second.gone != 0 || !second.contents || !second.p.Asked() {
		t.Fatalf("the second session left its contents for %+v (contents %v, asking %v)", second.pos, second.contents, second.p.Asked())
	}
	if l := first.p.Lead(); !l.Contents || l.Pos.Scene != "" || l.Pos.Check() == nil {
		t.Fatalf("the contents' place is a scene's, or names a place a locksim opens: %+v", l)
	}
	ann := joinAs(t, b, code, Student, "k-ann", "ann", 10)
	onContents(ann, 10)
	ann.hear("the ask to follow", func(s *session) bool { return s.p.Asked() })
	if ann.do(ann.p.Follow()); !ann.p.Following() || ann.gone != 0 || ann.notes[len(ann.notes)-1] != ContentsNote {
		t.Fatalf("F while the instructor is on the contents: following %v, went %d times, told %q", ann.p.Following(), ann.gone, ann.notes)
	}
	wall := joinAs(t, b, code, Projector, "teacher", "teacher", 1)
	wall.hear("the class's place", contentsLead)
	if wall.gone != 0 {
		t.Fatalf("the projector went to %+v", wall.pos)
	}

	// a scene opened: the class's place, the other session's, a follower's
	scene := play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1, Step: 2}
	first.goTo(scene)
	atScene := func(s *session) bool {
		return s.p.Lead() != nil && !s.p.Lead().Contents && s.p.Lead().Pos.Scene == "gc-pause"
	}
	for _, s := range []*session{second, ann, wall} {
		s.hear("the scene", atScene)
	}
	if second.contents || second.pos.Scene != "gc-pause" || wall.pos.Scene != "gc-pause" {
		t.Fatalf("the scene opened did not reach the instructor's other session (%+v) or the projector (%+v)", second.pos, wall.pos)
	}
	if !ann.p.Following() || ann.gone != 1 || ann.pos.Scene != "gc-pause" || ann.pos.Step != 2 {
		t.Fatalf("a follower who pressed F on the contents, once the instructor opened a scene: following %v, went %d times, at %+v", ann.p.Following(), ann.gone, ann.pos)
	}

	// back on the contents: followers stay at the last place led; the
	// other session goes to the contents and leads nothing back
	first.contents = true
	first.report()
	for _, s := range []*session{second, ann, wall} {
		s.hear("the contents", contentsLead)
	}
	if !second.contents || !strings.Contains(second.p.led, `"contents":true`) {
		t.Fatalf("the other session stays in %+v and leads it (%s)", second.pos, second.p.led)
	}
	if !ann.p.Following() || ann.pos.Scene != "gc-pause" || ann.pos.Step != 2 || wall.pos.Scene != "gc-pause" {
		t.Fatalf("the follower (following %v at %+v) or the projector (%+v) left the last place led", ann.p.Following(), ann.pos, wall.pos)
	}
	if _, _, ok := ann.p.openQuestion(); ok {
		t.Fatal("a question is open while the instructor is on the contents")
	}
}

// TestLeadContentsOldForm: a place an older locksim put (no "contents")
// is a scene's, which followers go to; a place this one leads is stored
// in the older form unless it is the contents, and the contents' place
// names no position any locksim opens, so an older one that reads it
// (and knows no Contents) stays where it is.
func TestLeadContentsOldForm(t *testing.T) {
	var old Lead
	if err := json.Unmarshal([]byte(`{"pos":{"version":1,"scene":"gc-pause","step":2},"follow":true,"version":3,"seq":3,"by":"x"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Contents || old.Pos.Scene != "gc-pause" {
		t.Fatalf("an older locksim's place: %+v", old)
	}
	ctx := context.Background()
	hub := NewMemory(nil)
	info, err := hub.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	ann := joinAs(t, hub, info.Code, Student, "k-ann", "ann", 10)
	ann.do(ann.p.Heard([]Event{{Kind: KindLead, Lead: &old}}, nil))
	if ann.do(ann.p.Follow()); !ann.p.Following() || ann.pos.Scene != "gc-pause" || ann.pos.Step != 2 {
		t.Fatalf("F to an older locksim's place: following %v at %+v", ann.p.Following(), ann.pos)
	}
	for _, l := range []Lead{old, {Follow: true, Contents: true}} {
		data, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(data), `"contents"`); got != l.Contents {
			t.Errorf("the place %s says contents %v", data, got)
		}
		var back Lead
		if err := json.Unmarshal(data, &back); err != nil || back.Contents != l.Contents {
			t.Errorf("the place %s read back: %+v, %v", data, back, err)
		}
		if l.Contents && back.Pos.Check() == nil {
			t.Errorf("the contents' place %s names a position a locksim opens", data)
		}
	}
}
