package tui

import (
	"context"
	"locksim/sim/simtest"
	"regexp"
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
)

// TestQuestionHidesItsAnswer walks every prediction point of every scene,
// under every setting whose story asks, in learner and presenter mode, at
// 80x24 and 120x40. While the question is open the screen must not show
// what answers it or contradicts its premise: the keys as read back, the
// verdict and the alarm before and after the decisive move, the properties
// it changes, or a reply of the decisive move outside the question's own
// choices and the earlier log lines. The hidden values come from the run
// itself: the snapshot at the question and the replies of the move that
// answers it.
func TestQuestionHidesItsAnswer(t *testing.T) {
	for _, sc := range scenes.All() {
		if sc.Predict == nil {
			continue
		}
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			questionHidesItsAnswer(t, sc)
		})
	}
}

func questionHidesItsAnswer(t *testing.T, sc *scenes.Scene) {
	b := embedded(t)
	st := views.ASCII()
	asked := 0
	for _, p := range sc.Stories() {
		if sc.PredictAt(labelsOf(sc.Build(p).Moves)) < 0 {
			continue // this story does not ask
		}
		// the quick tier checks the first story that asks (each scene's
		// question); the slow tier (-tags slow) every other one
		if asked++; !simtest.InTier(asked == 1) {
			continue
		}
		for _, present := range []bool{false, true} {
			where := sc.ID + " (" + sc.Describe(p) + ")"
			if present {
				where += " presenter"
			}
			a, stepBefore := openAskingReadout(t, b, sc, p, present)
			if !a.pl.Asking {
				t.Errorf("%s: the story never asked its question", where)
				continue
			}
			before := a.pl.Snap
			screens := map[string]string{}
			for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
				drive(t, a, tea.WindowSizeMsg{Width: size.w, Height: size.h})
				screens[itoa(int64(size.w))+"x"+itoa(int64(size.h))] = views.Strip(a.View())
			}
			// the decisive move: the answer, or the clicker's next click
			drive(t, a, keys(map[bool]string{false: "1", true: "."}[present])...)
			after := a.pl.Snap
			if after.Pos <= before.Pos {
				t.Fatalf("%s: answering did not run the decisive move", where)
			}
			hidden := hiddenValues(sc, p, a.pl, before, after, st)
			// the readout the learner read just before the question opened
			// must not have said what the decisive move answers
			for _, r := range hidden.replies {
				if !r.repeat && hasWord(stepBefore, r.text) {
					t.Errorf("%s: the readout before the question shows the decisive reply %q: %s", where, r.text, stepBefore)
				}
			}
			for _, phrase := range answeringPhrases {
				if strings.Contains(stepBefore, phrase) {
					t.Errorf("%s: the readout before the question says %q: %s", where, phrase, stepBefore)
				}
			}
			for size, screen := range screens {
				outside := outsideQuestionAndLog(screen)
				for _, h := range hidden.anywhere {
					if strings.Contains(screen, h) {
						t.Errorf("%s at %s: the open question shows %q:\n%s", where, size, h, screen)
					}
				}
				cards := cardTexts(screen)
				for _, r := range hidden.replies {
					if hasWord(outside, r.text) {
						t.Errorf("%s at %s: the decisive reply %q is on screen outside the question:\n%s", where, size, r.text, screen)
					}
					if !r.repeat && hasWord(cards[r.actor], r.text) {
						t.Errorf("%s at %s: %s's card shows the decisive reply %q:\n%s", where, size, r.actor, r.text, screen)
					}
				}
				if size == "120x40" && hidden.setup != "" && !strings.Contains(screen, hidden.setup) {
					t.Errorf("%s at %s: the question covers the move that set it up (%q):\n%s", where, size, hidden.setup, screen)
				}
			}
		}
	}
}

// hidden is what an open question must not show: strings found nowhere
// on screen, the decisive move's replies (checked outside the question
// and the earlier log), and the newest log line before the question,
// which must stay in view.
type hidden struct {
	anywhere []string
	replies  []reply
	setup    string
}

// reply is one reply of the decisive move: repeat is set when its actor
// got the same reply earlier in the story, which its card may show.
type reply struct {
	actor, text string
	repeat      bool
}

func hiddenValues(sc *scenes.Scene, p scenes.Params, pl *Player, before, after sim.Snapshot, st views.Styles) hidden {
	var h hidden
	for _, k := range before.Keys {
		// the key as the inspector reads it, after its name
		line := views.Strip(keyLine(st, k, before, 1000))
		if i := strings.Index(line, k.Name); i >= 0 {
			h.anywhere = append(h.anywhere, strings.TrimSpace(line[i+len(k.Name):]))
		}
	}
	for _, snap := range []sim.Snapshot{before, after} {
		ex := scenes.Explain(sc, scenes.Frame{Snap: snap, L: scenes.Fold(snap), P: p, Sel: -1, Text: pl.Text})
		for _, s := range []string{ex.Verdict, ex.Alarm} {
			if s != "" {
				h.anywhere = append(h.anywhere, views.Strip(s))
			}
		}
		for i, prop := range ex.Props {
			switch prop {
			case say.Held:
				h.anywhere = append(h.anywhere, "✓ "+say.PropNames()[i]+" held")
			case say.Broken:
				h.anywhere = append(h.anywhere, "✗ "+say.PropNames()[i]+" BROKEN")
			case say.Absent:
				h.anywhere = append(h.anywhere, "– "+say.PropNames()[i]+" absent")
			}
		}
	}
	got := map[string]bool{} // actor and reply, before the question
	for _, e := range before.Events {
		got[e.Actor+" "+e.Reply] = true
	}
	for _, e := range after.Events[len(before.Events):] {
		if e.Kind == sim.Command && e.Reply != "" {
			h.replies = append(h.replies, reply{e.Actor, e.Reply, got[e.Actor+" "+e.Reply]})
		}
	}
	if lines := logLines(before, "", false, 16, true); len(lines) > 0 {
		last := lines[len(lines)-1].Text
		h.setup = last[:min(len(last), 24)]
	}
	return h
}

// outsideQuestionAndLog is the screen without the question's panel, the
// log and the cards: what the keys, readout, verdict, scoreboard and
// timeline show.
func outsideQuestionAndLog(screen string) string {
	var out []string
	skip := false
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "── ") || strings.HasPrefix(l, "─ ") {
			skip = strings.HasPrefix(l, "── predict") || strings.HasPrefix(l, "── commands")
			continue
		}
		if !skip && !strings.ContainsAny(l[:min(len(l), 3)], "╭│╰") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// cardTexts reads the actors' cards off an ASCII screen, by actor name:
// the columns under each "╭─ name" of the cards' top row.
func cardTexts(screen string) map[string]string {
	out := map[string]string{}
	var starts []int
	var names []string
	for _, l := range strings.Split(screen, "\n") {
		row := []rune(l)
		switch {
		case strings.HasPrefix(l, "╭"):
			starts, names = nil, nil
			for i, r := range row {
				if r == '╭' {
					starts = append(starts, i)
					names = append(names, strings.Fields(string(row[i+2:]))[0])
				}
			}
		case strings.HasPrefix(l, "│") && starts != nil:
			for i, at := range starts {
				end := len(row)
				if i+1 < len(starts) {
					end = min(starts[i+1], len(row))
				}
				out[names[i]] += string(row[min(at, len(row)):end]) + "\n"
			}
		case strings.HasPrefix(l, "╰"):
			starts = nil
		}
	}
	return out
}

// hasWord reports s in text, not as part of a longer word (the regexp,
// dear under -race, only where s is in text at all).
func hasWord(text, s string) bool {
	return strings.Contains(text, s) && regexp.MustCompile(`(^|[^\w])`+regexp.QuoteMeta(s)+`($|[^\w])`).MatchString(text)
}

// openAsking opens scene sc under settings p, in presenter mode or not,
// and steps (n, or the clicker's .) until its question opens.
// answeringPhrases are consequences a readout may state only once the
// question is answered: the key outliving its crashed holder, the lease
// lapsing unrenewed.
var answeringPhrases = []string{"never expires", "nobody renews", "until someone deletes"}

func openAsking(t *testing.T, b *sim.Backend, sc *scenes.Scene, p scenes.Params, present bool) *App {
	t.Helper()
	a, _ := openAskingReadout(t, b, sc, p, present)
	return a
}

// openAskingReadout is openAsking that also returns the readout of the
// step before the question: what the screen said before the last step.
func openAskingReadout(t *testing.T, b *sim.Backend, sc *scenes.Scene, p scenes.Params, present bool) (*App, string) {
	t.Helper()
	a, err := NewCourse(b, Options{Seed: 1, Scene: sc.ID, Present: present})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	a.pl.Params = p
	a.pl.Run = sim.NewRun(b, sc.Script(p), a.pl.Seed)
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	runCmd(t, a, a.Init())
	step := map[bool]string{false: "n", true: "."}[present]
	readout := ""
	for i := 0; i <= len(sc.Build(p).Moves) && !a.pl.Asking; i++ {
		readout = scenes.Explain(sc, scenes.Frame{Snap: a.pl.Snap, L: a.pl.Ledger, P: p, Sel: -1, Text: a.pl.Text}).Readout
		drive(t, a, keys(step)...)
	}
	return a, readout
}

func labelsOf(moves []sim.Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, sim.MoveLabel(m))
	}
	return out
}

// TestQuestionGoldens draws question screens at 80x24 and 120x40: crash-gap
// in learner mode, claim-lease (five keys, the reaper's run above the
// question) and Redlock's clock jump (the node faults stay) in presenter
// mode.
func TestQuestionGoldens(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, id string
		p        scenes.Params
		present  bool
	}{
		{"question-crash-gap", "crash-gap", scenes.Params{}, false},
		{"question-claim-lease-present", "claim-lease", scenes.Params{}, true},
		{"question-redlock-jump-present", "redlock", scenes.Params{"story": knobIndex(t, "redlock", "story", "clock jump")}, true},
	}
	for _, c := range cases {
		a := openAsking(t, embedded(t), scenes.Find(c.id), c.p, c.present)
		if !a.pl.Asking {
			t.Fatalf("%s never asked its question", c.name)
		}
		for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
			if !simtest.InTier(size.w == 80) {
				continue // 120x40's goldens run in the slow tier, 80x24's in the quick
			}
			drive(t, a, tea.WindowSizeMsg{Width: size.w, Height: size.h})
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}

// TestQuestionLogScrolls: at release's question under GET then DEL, the
// clue (A's GET at +28 s, which found its own token) is older than the two
// rows of log the question leaves at 80x24; [ brings it back, ] returns,
// and the rule says how many lines are earlier.
func TestQuestionLogScrolls(t *testing.T) {
	b := embedded(t)
	a := openAsking(t, b, scenes.Find("release"), scenes.Params{"release": 1}, false)
	if !a.pl.Asking {
		t.Fatal("release under GET then DEL never asked")
	}
	v := views.Strip(a.View())
	if strings.Contains(v, "A> GET") || !strings.Contains(v, "earlier: [") {
		t.Fatalf("before [: the GET should be off screen and the rule should say so:\n%s", v)
	}
	for i := 0; i < 10 && !strings.Contains(views.Strip(a.View()), "A> GET"); i++ {
		drive(t, a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'['}})
	}
	v = views.Strip(a.View())
	if !strings.Contains(v, "A> GET") || !strings.Contains(v, "newer: ]") || !a.pl.Asking {
		t.Fatalf("[ should bring A's GET back while the question waits:\n%s", v)
	}
	for range 10 {
		drive(t, a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{']'}})
	}
	if v := views.Strip(a.View()); strings.Contains(v, "newer: ]") {
		t.Errorf("] should come back to the newest lines:\n%s", v)
	}
}
