package play

import (
	"testing"
)

func TestNavigate(t *testing.T) {
	scene := Nav{Scene: 2, Scenes: 6, Course: true}
	cases := []struct {
		name string
		from Nav
		in   NavAction
		to   Nav
		step Then
	}{
		{"esc cancels a replay first", Nav{Scene: 2, Scenes: 6, Course: true, Replaying: true, Selected: true, Page: true}, NavDo(NavBack),
			Nav{Scene: 2, Scenes: 6, Course: true, Selected: true, Page: true}, CancelReplay},
		{"then closes the page on top", Nav{Scene: 2, Scenes: 6, Course: true, Selected: true, Page: true}, NavDo(NavBack),
			Nav{Scene: 2, Scenes: 6, Course: true, Selected: true}, ClosePage},
		{"then lets go of the selection", Nav{Scene: 2, Scenes: 6, Course: true, Selected: true}, NavDo(NavBack), scene, LetGo},
		{"then goes back to the contents", scene, NavDo(NavBack), Nav{Contents: true, Scene: 2, Scenes: 6, Course: true}, ShowContents},
		{"without a contents screen it stays", Nav{Scene: 2, Scenes: 6}, NavDo(NavBack), Nav{Scene: 2, Scenes: 6}, Stay},
		{"esc on the contents stays", Nav{Contents: true, Scenes: 6, Course: true}, NavDo(NavBack), Nav{Contents: true, Scenes: 6, Course: true}, Stay},
		{"> opens the next scene", scene, NavDo(NavNext), Nav{Scene: 3, Scenes: 6, Course: true}, OpenScene},
		{"< wraps around", Nav{Scene: 0, Scenes: 6}, NavDo(NavPrev), Nav{Scene: 5, Scenes: 6}, OpenScene},
		{"> from the last wraps to the first", Nav{Scene: 5, Scenes: 6, Selected: true}, NavDo(NavNext), Nav{Scene: 0, Scenes: 6}, OpenScene},
		{"< and > do nothing on the contents", Nav{Contents: true, Scene: 1, Scenes: 6}, NavDo(NavNext), Nav{Contents: true, Scene: 1, Scenes: 6}, Stay},
		{"open on the contents opens the scene chosen", Nav{Contents: true, Scene: 1, Scenes: 6, Course: true}, NavOpenAt(4), Nav{Scene: 4, Scenes: 6, Course: true}, OpenScene},
		{"open in a scene opens that scene", Nav{Scene: 2, Scenes: 6, Course: true, Selected: true}, NavOpenAt(5), Nav{Scene: 5, Scenes: 6, Course: true}, OpenScene},
		{"another input in a scene is not navigation", scene, NavDo(NavOther), scene, Stay},
		{"contents leaves the scene", Nav{Scene: 2, Scenes: 6, Course: true, Page: true}, NavDo(NavContents), Nav{Contents: true, Scene: 2, Scenes: 6, Course: true}, ShowContents},
		{"contents without a contents screen stays", Nav{Scene: 2, Scenes: 6}, NavDo(NavContents), Nav{Scene: 2, Scenes: 6}, Stay},
		{"a presenter's esc asks before leaving", Nav{Scene: 2, Scenes: 6, Course: true, Present: true}, NavDo(NavBack),
			Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Leaving: true}, AskLeave},
		{"a presenter's esc closes the page without asking", Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Page: true}, NavDo(NavBack),
			Nav{Scene: 2, Scenes: 6, Course: true, Present: true}, ClosePage},
		{"esc again leaves", Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Leaving: true}, NavDo(NavBack),
			Nav{Contents: true, Scene: 2, Scenes: 6, Course: true, Present: true}, ShowContents},
		{"y leaves", Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Leaving: true}, NavDo(NavContents),
			Nav{Contents: true, Scene: 2, Scenes: 6, Course: true, Present: true}, ShowContents},
		{"another input stays", Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Leaving: true}, NavDo(NavNext),
			Nav{Scene: 2, Scenes: 6, Course: true, Present: true}, Stay},
	}
	for _, c := range cases {
		to, step := Navigate(c.from, c.in)
		if to != c.to || step != c.step {
			t.Errorf("%s: %+v %+v → %+v, %v; want %+v, %v", c.name, c.from, c.in, to, step, c.to, c.step)
		}
	}
}

// TestNavigateLesson: in a scene of a lesson (-scenes), > and < open the
// lesson's next and previous; past its ends (-1) they stay, PastLesson
// (> from its last opened the course's next scene).
func TestNavigateLesson(t *testing.T) {
	cases := []struct {
		name string
		from Nav
		in   NavVerb
		want int
		then Then
	}{
		{"> opens the lesson's next", Nav{Scene: 6, Scenes: 14, Lesson: true, LessonNext: 12, LessonPrev: -1}, NavNext, 12, OpenScene},
		{"< before its first stays", Nav{Scene: 6, Scenes: 14, Lesson: true, LessonNext: 12, LessonPrev: -1}, NavPrev, 6, PastLesson},
		{"< opens the lesson's previous", Nav{Scene: 12, Scenes: 14, Lesson: true, LessonNext: -1, LessonPrev: 6}, NavPrev, 6, OpenScene},
		{"> past its last stays", Nav{Scene: 12, Scenes: 14, Lesson: true, LessonNext: -1, LessonPrev: 6}, NavNext, 12, PastLesson},
	}
	for _, c := range cases {
		to, step := Navigate(c.from, NavDo(c.in))
		if step != c.then || to.Scene != c.want {
			t.Errorf("%s: scene %d, %v; want %d, %v", c.name, to.Scene, step, c.want, c.then)
		}
	}
}
