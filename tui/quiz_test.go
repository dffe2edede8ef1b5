package tui

import (
	"fmt"
	"locksim/sim"
	"reflect"
	"strings"
	"testing"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// walkQuiz is TestEveryScene for a quiz: every situation asked (with and
// without its hints), answered right, answered wrong and shown to the
// class, the speaker notes, and the score page with no, some, all and
// shown answers, each drawn at 80x24 and 120x40: exactly the screen's
// rows, none wider, no gap in the text, nothing cut, no scoreboard and no
// log; the key on screen exactly when it should be.
func walkQuiz(t *testing.T, sc *scenes.Scene, text content.Text) {
	t.Helper()
	items, err := scenes.Situations(text)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Split(text.Get("choices"), "\n")); n != 2 {
		t.Errorf("a quiz's choices are its two classes, efficiency then correctness: %d", n)
	}
	b := embedded(t) // one server for every player below
	hints := 0
	for text.Has("hint-" + itoa(int64(hints+1))) {
		hints++
	}
	for i, s := range items {
		states := []struct {
			name string
			set  func(p *Player)
			key  bool // the key is on screen
		}{
			{"asked", func(p *Player) {}, false},
			{"with its hints", func(p *Player) { p.Hints = hints }, false},
			{"answered right", func(p *Player) { p.OpenQuiz().Answers[i] = int(s.Class) }, true},
			{"answered wrong", func(p *Player) { p.OpenQuiz().Answers[i] = 1 - int(s.Class) }, true},
			{"shown", func(p *Player) { p.OpenQuiz().Shown[i] = true }, true},
		}
		for _, st := range states {
			p := quizPlayer(t, b, sc, text, i)
			st.set(p)
			where := fmt.Sprintf("situation %d (%s), %s", i+1, s.Name, st.name)
			for _, size := range [][2]int{{80, 24}, {120, 40}} {
				screen := checkQuizScreen(t, where, p, size[0], size[1])
				flat := flatten(screen)
				for _, part := range []string{s.Text, s.Assumption, text.Get("predict")} {
					if !strings.Contains(flat, flatten(part)) {
						t.Errorf("%s at %dx%d: the screen lacks %q:\n%s", where, size[0], size[1], part, screen)
					}
				}
				shown := strings.Contains(flat, flatten(s.Why)) && strings.Contains(flat, flatten(text.Get("tool-"+s.Tool)))
				if shown != st.key {
					t.Errorf("%s at %dx%d: the why and the tool on screen %v, want %v:\n%s", where, size[0], size[1], shown, st.key, screen)
				}
			}
		}
	}
	notes := quizPlayer(t, b, sc, text, 0)
	notes.notes = true
	if screen := checkQuizScreen(t, "the speaker notes", notes, 80, 24); !strings.Contains(flatten(screen), flatten(text.Get("notes"))) {
		t.Errorf("the speaker notes are cut:\n%s", screen)
	}
	scores := []struct {
		name, want string
		set        func(q *play.QuizState)
	}{
		{"nothing answered", "score-partial", func(q *play.QuizState) {}},
		{"half answered", "score-partial", func(q *play.QuizState) {
			for i := range len(q.Items) / 2 {
				q.Answers[i] = int(q.Items[i].Class)
			}
		}},
		{"all right", "score-done", func(q *play.QuizState) {
			for i, s := range q.Items {
				q.Answers[i] = int(s.Class)
			}
		}},
		{"all wrong", "score-done", func(q *play.QuizState) {
			for i, s := range q.Items {
				q.Answers[i] = 1 - int(s.Class)
			}
		}},
		{"shown to the class", "score-shown", func(q *play.QuizState) {
			for i := range q.Shown {
				q.Shown[i] = true
			}
		}},
	}
	for _, c := range scores {
		p := quizPlayer(t, b, sc, text, len(items))
		c.set(p.OpenQuiz())
		right, answered := scenes.Grade(p.OpenQuiz().Items, p.OpenQuiz().Answers)
		want := text.Fill(c.want, map[string]string{"right": itoa(int64(right)), "answered": itoa(int64(answered)), "of": itoa(int64(len(items)))})
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			screen := checkQuizScreen(t, "the score, "+c.name, p, size[0], size[1])
			if !strings.Contains(flatten(screen), flatten(want)) || !strings.Contains(flatten(screen), flatten(text.Get("recap"))) {
				t.Errorf("the score, %s, at %dx%d should say %q and the recap:\n%s", c.name, size[0], size[1], want, screen)
			}
		}
	}
}

// quizPlayer is a player of quiz sc that asks, at situation at, opened
// on b (a quiz runs nothing on it).
func quizPlayer(t testing.TB, b *sim.Backend, sc *scenes.Scene, text content.Text, at int) *Player {
	s := openedOn(t, b, sc, text, nil, sim.Snapshot{}, nil)
	s.Configure(play.Options{Predict: true})
	p := newPlayer(s, NewCommon(views.ASCII(), scenes.Export{}))
	p.OpenQuiz().At = at
	return p
}

// checkQuizScreen draws p at w x h and checks what every quiz screen must
// be; it returns the screen.
func checkQuizScreen(t *testing.T, where string, p *Player, w, h int) string {
	t.Helper()
	q := newQuiz(p)
	q.SetSize(w, h)
	screen := q.View() + "\nhelp"

	lines := strings.Split(screen, "\n")
	if len(lines) != h {
		t.Errorf("%s: the screen has %d rows at %dx%d, want %d:\n%s", where, len(lines), w, h, h, screen)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s: row %d is %d columns at %dx%d: %s", where, i, lw, w, h, l)
		}
	}
	for _, bad := range []string{"[no text", "%!", "…", "mutual exclusion", "commands, as sent"} {
		if strings.Contains(screen, bad) {
			t.Errorf("%s at %dx%d: the screen shows %q:\n%s", where, w, h, bad, screen)
		}
	}
	if unfilled.MatchString(screen) {
		t.Errorf("%s at %dx%d: a slot is left unfilled:\n%s", where, w, h, screen)
	}
	return screen
}

// flatten is s on one line with single spaces: text as wrapped on screen
// (also after a hyphen: "compare-" / "and-delete") compares with the text
// it came from.
func flatten(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "- ", "-")
}

// TestKeysDoNotClash: in every scene, no key is bound twice among the
// enabled bindings of the one key map and the scene's settings (a quiz's
// e and c live beside options' e and crash-gap's c only because those
// scenes switch them off).
func TestKeysDoNotClash(t *testing.T) {
	for _, sc := range scenes.All() {
		a := &session{com: &Common{}, pl: &Player{Session: openedWith(t, sc, content.Text{}, nil, sim.Snapshot{}, nil)}}
		a.applyKeys()
		bound := map[string]string{}
		bind := func(name string, b key.Binding) {
			if !b.Enabled() {
				return
			}
			for _, k := range b.Keys() {
				if other, ok := bound[k]; ok {
					t.Errorf("%s: %q is bound to both %s and %s", sc.ID, k, other, name)
				}
				bound[k] = name
			}
		}
		km := reflect.ValueOf(a.com.Keys)
		for i := range km.NumField() {
			bind(km.Type().Field(i).Name, km.Field(i).Interface().(key.Binding))
		}
		for _, kb := range a.knobBindings() {
			bind("the setting "+kb.Help().Desc, kb)
		}
		if sc.Kind == scenes.Quiz && (bound["e"] != "Efficiency" || bound["c"] != "Correctness" || bound["1"] != "Select" || bound["2"] != "Select") {
			t.Errorf("%s: the answers are not all on e, c, 1 and 2: %v", sc.ID, bound)
		}
	}
}
