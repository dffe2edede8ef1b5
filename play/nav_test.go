package play

import (
	"testing"
)

func TestNavigate(t *testing.T) {
	scene := Nav{Scene: 2, Scenes: 6, Course: true}
	cases := []struct {
		name string
		from Nav
		key  string
		to   Nav
		step Then
	}{
		{"esc cancels a replay first", Nav{Scene: 2, Scenes: 6, Course: true, Replaying: true, Selected: true, Page: true}, "esc",
			Nav{Scene: 2, Scenes: 6, Course: true, Selected: true, Page: true}, CancelReplay},
		{"then closes the page on top", Nav{Scene: 2, Scenes: 6, Course: true, Selected: true, Page: true}, "esc",
			Nav{Scene: 2, Scenes: 6, Course: true, Selected: true}, ClosePage},
		{"then lets go of the selection", Nav{Scene: 2, Scenes: 6, Course: true, Selected: true}, "esc", scene, LetGo},
		{"then goes back to the contents", scene, "esc", Nav{Contents: true, Scene: 2, Scenes: 6, Course: true}, ShowContents},
		{"without a contents screen it stays", Nav{Scene: 2, Scenes: 6}, "esc", Nav{Scene: 2, Scenes: 6}, Stay},
		{"esc on the contents stays", Nav{Contents: true, Scenes: 6, Course: true}, "esc", Nav{Contents: true, Scenes: 6, Course: true}, Stay},
		{"> opens the next scene", scene, ">", Nav{Scene: 3, Scenes: 6, Course: true}, OpenScene},
		{"< wraps around", Nav{Scene: 0, Scenes: 6}, "<", Nav{Scene: 5, Scenes: 6}, OpenScene},
		{"> from the last wraps to the first", Nav{Scene: 5, Scenes: 6, Selected: true}, ">", Nav{Scene: 0, Scenes: 6}, OpenScene},
		{"< and > do nothing on the contents", Nav{Contents: true, Scene: 1, Scenes: 6}, ">", Nav{Contents: true, Scene: 1, Scenes: 6}, Stay},
		{"enter on the contents opens", Nav{Contents: true, Scene: 4, Scenes: 6, Course: true}, "enter", Nav{Scene: 4, Scenes: 6, Course: true}, OpenScene},
		{"enter in a scene is not navigation", scene, "enter", scene, Stay},
		{"a presenter's esc asks before leaving", Nav{Scene: 2, Scenes: 6, Course: true, Present: true}, "esc",
			Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Leaving: true}, AskLeave},
		{"a presenter's esc closes the page without asking", Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Page: true}, "esc",
			Nav{Scene: 2, Scenes: 6, Course: true, Present: true}, ClosePage},
		{"esc again leaves", Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Leaving: true}, "esc",
			Nav{Contents: true, Scene: 2, Scenes: 6, Course: true, Present: true}, ShowContents},
		{"y leaves", Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Leaving: true}, "y",
			Nav{Contents: true, Scene: 2, Scenes: 6, Course: true, Present: true}, ShowContents},
		{"another key stays", Nav{Scene: 2, Scenes: 6, Course: true, Present: true, Leaving: true}, ">",
			Nav{Scene: 2, Scenes: 6, Course: true, Present: true}, Stay},
	}
	for _, c := range cases {
		to, step := Navigate(c.from, c.key)
		if to != c.to || step != c.step {
			t.Errorf("%s: %+v %q → %+v, %v; want %+v, %v", c.name, c.from, c.key, to, step, c.to, c.step)
		}
	}
}
