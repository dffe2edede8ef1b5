package tui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim/simtest"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// storyAt opens scene id with settings p at w x h, played to its end with
// no question, and the history page open (v).
func storyAt(t *testing.T, id string, p scenes.Params, w, h int) *App {
	t.Helper()
	a := openScene(t, embedded(t), id, 1, w, h, "")
	a.pl.Params, a.pl.Predict = p, false
	runCmd(t, a, a.pl.restart())
	runCmd(t, a, a.pl.seekTo(len(a.pl.Snap.Moves)))
	drive(t, a, keys("v")...)
	if !a.pl.checked {
		t.Fatalf("%s: v did not open the history page", id)
	}
	return a
}

// TestHistoryGoldens draws the history page (v) at the end of gc-pause,
// fencing, Redlock's clock jump and the timeout scene's jittered retries
// (the longest story: five clients' tracks), at 80x24 and 120x40.
func TestHistoryGoldens(t *testing.T) {
	cases := []struct {
		name, id string
		p        scenes.Params
	}{
		{"history-gc-pause", "gc-pause", scenes.Params{}},
		{"history-fencing", "fencing", scenes.Params{}},
		{"history-redlock-jump", "redlock", scenes.Params{"story": knobIndex(t, "redlock", "story", "clock jump")}},
		{"history-timeout-jitter", "timeout", scenes.Params{"policy": knobIndex(t, "timeout", "policy", "jitter+deadline")}},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a := storyAt(t, c.id, c.p, size.w, size.h)
			screen := a.View()
			if got := len(strings.Split(screen, "\n")); got != size.h {
				t.Errorf("%s at %dx%d: %d rows", c.name, size.w, size.h, got)
			}
			for i, l := range strings.Split(screen, "\n") {
				if ansi.StringWidth(l) > size.w {
					t.Errorf("%s at %dx%d: row %d is %d wide: %s", c.name, size.w, size.h, i, ansi.StringWidth(l), l)
				}
			}
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), screen)
		}
	}
}

// TestHistoryGCPause is the screen: in gc-pause, v shows the three
// verdicts, the server's kept, the client's mutex broken at B's acquire,
// the unfenced resource's stale write, with the timeline beneath and B's
// acquire marked with the checker's sentence; in fencing the resource
// refuses the stale write.
func TestHistoryGCPause(t *testing.T) {
	line := "server: linearizable · client's mutex: not linearizable at B's acquire · fenced resource: unfenced, stale write accepted"
	wide := views.Strip(storyAt(t, "gc-pause", scenes.Params{}, 120, 40).View())
	if !strings.Contains(wide, line) {
		t.Errorf("gc-pause's history page at 120x40 lacks %q:\n%s", line, wide)
	}
	narrow := views.Strip(storyAt(t, "gc-pause", scenes.Params{}, 80, 24).View())
	for _, part := range strings.Split(line, " · ") {
		if !strings.Contains(narrow, part) {
			t.Errorf("gc-pause's history page at 80x24 lacks %q:\n%s", part, narrow)
		}
	}
	for _, screen := range []string{wide, narrow} {
		rows := strings.Split(screen, "\n")
		verdict := slices.IndexFunc(rows, func(r string) bool { return strings.Contains(r, "fenced resource: unfenced") })
		b := slicesIndex(rows, "B ")
		mark := slicesIndex(rows, "▲ B's acquire at +32.000s cannot be placed")
		if verdict < 0 || b < verdict || mark < b {
			t.Errorf("the verdicts (row %d), B's track (row %d) and the mark (row %d) are not in that order:\n%s", verdict, b, mark, screen)
			continue
		}
		// the ▲ under the tracks stands in the column of B's grant
		flag := strings.Index(rows[mark-1], "▲")
		if grant := strings.Index(rows[b], "●"); flag < 0 || len([]rune(rows[mark-1][:flag])) != len([]rune(rows[b][:grant])) {
			t.Errorf("the ▲ is not under B's grant:\n%s\n%s", rows[b], rows[mark-1])
		}
	}
	fenced := views.Strip(storyAt(t, "fencing", scenes.Params{}, 120, 40).View())
	if !strings.Contains(fenced, "fenced resource: fenced, stale write refused") || !strings.Contains(fenced, gRejected) {
		t.Errorf("fencing's history page does not show the stale write refused:\n%s", fenced)
	}
}

func slicesIndex(rows []string, prefix string) int {
	for i, r := range rows {
		if strings.HasPrefix(r, prefix) {
			return i
		}
	}
	return -1
}

// TestHistoryHidesTheAnswer opens the history page at every scene's
// question (the first story that asks in the quick tier, every one in the
// slow tier), in learner and presenter mode, and before it, when the
// story has not reached it yet: the page shows no verdict, no lease on the
// server and none of what the question hides on the player's screen;
// answering it shows them.
func TestHistoryHidesTheAnswer(t *testing.T) {
	for _, sc := range scenes.All() {
		if sc.Predict == nil || sc.Kind != scenes.Story {
			continue
		}
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			b := embedded(t)
			asked := 0
			for _, p := range sc.Stories() {
				if sc.PredictAt(labelsOf(sc.Build(p).Moves)) < 0 {
					continue
				}
				// the quick tier checks the first story that asks, the
				// slow tier the others
				if asked++; !simtest.InTier(asked <= 1) {
					continue
				}
				for _, present := range []bool{false, true} {
					where := sc.ID + " (" + sc.Describe(p) + ")"
					a, _ := openAskingReadout(t, b, sc, p, present)
					if !a.pl.Asking {
						t.Fatalf("%s: the story never asked its question", where)
					}
					before := a.pl.Snap
					drive(t, a, keys("v")...)
					for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
						drive(t, a, tea.WindowSizeMsg{Width: size.w, Height: size.h})
						screen := views.Strip(a.View())
						if !strings.Contains(screen, "the history, checked") || !strings.Contains(screen, a.pl.hiddenNote()) {
							t.Errorf("%s: the history page at the question does not say its verdicts wait:\n%s", where, screen)
						}
						for _, s := range []string{"linearizable", "not applicable", "stale write", "unknown (timed out)", "cannot be placed",
							gLease, gNoTTL, gLapsed, gStale, gEnded, "TTL ran out"} {
							if strings.Contains(screen, s) {
								t.Errorf("%s at %dx%d: the history page shows %q while the question is open:\n%s", where, size.w, size.h, s, screen)
							}
						}
						// what the player hides at the question, the page hides too
						for _, h := range hiddenValues(sc, p, a.pl, before, before, a.com.Styles).anywhere {
							if strings.Contains(screen, h) {
								t.Errorf("%s at %dx%d: the history page shows %q:\n%s", where, size.w, size.h, h, screen)
							}
						}
					}
					// the answer (or the clicker's click) runs the decisive move: the
					// verdicts are the checker's again
					drive(t, a, keys(map[bool]string{false: "1", true: "."}[present])...)
					if a.pl.Asking || a.pl.answerPending() {
						t.Fatalf("%s: answering left the question pending", where)
					}
					drive(t, a, keys("v")...)
					if !a.pl.checked {
						drive(t, a, keys("v")...)
					}
					if screen := views.Strip(a.View()); !strings.Contains(screen, "client's mutex: ") || strings.Contains(screen, a.pl.hiddenNote()) {
						t.Errorf("%s: once answered, the history page does not show the verdicts:\n%s", where, screen)
					}
				}
			}
		})
	}
}

// TestHistoryBeforeTheQuestion: stepped to just before the question, the
// page already keeps the server's side and the verdicts back.
func TestHistoryBeforeTheQuestion(t *testing.T) {
	a, err := NewCourse(embedded(t), Options{Seed: 1, Scene: "gc-pause"})
	if err != nil {
		t.Fatal(err)
	}
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	runCmd(t, a, a.Init())
	drive(t, a, keys("nnv")...)
	if a.pl.Asking || !a.pl.answerPending() || a.pl.Snap.Pos != 2 {
		t.Fatalf("at step %d the question is asking %v, pending %v", a.pl.Snap.Pos, a.pl.Asking, a.pl.answerPending())
	}
	screen := views.Strip(a.View())
	if strings.Contains(screen, gLease) || strings.Contains(screen, "linearizable") || !strings.Contains(screen, "A lease "+a.pl.hiddenNote()) {
		t.Errorf("before the question the history page shows the server's side or a verdict:\n%s", screen)
	}
}

// TestHistoryPageCloses: esc closes the history page as it closes any page;
// [ and ] scroll its timeline, not the log.
func TestHistoryPageCloses(t *testing.T) {
	a := storyAt(t, "gc-pause", scenes.Params{}, 80, 24)
	drive(t, a, keys("[esc]")...)
	if a.pl.checked {
		t.Error("esc left the history page open")
	}
	drive(t, a, keys("v")...)
	a.pl.histBack = 0
	drive(t, a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'['}})
	if a.pl.histBack != 0 || a.pl.scroll != 0 {
		t.Errorf("[ on a history that fits: window back %d, log scroll %d", a.pl.histBack, a.pl.scroll)
	}
	drive(t, a, keys("v")...)
	if a.pl.checked {
		t.Error("v left the history page open")
	}
}

// TestHistoryScrollsALongStory: a trial of 120 commands has more moments
// than 80 columns: the page draws the newest window, says how many are
// earlier, and [ and ] move the window.
func TestHistoryScrollsALongStory(t *testing.T) {
	rec := play.TrialRecord{Trial: 1, Variant: "GET, then DEL", Anomaly: "none", Moves: []play.TrialMove{
		{Worker: "w1", Kind: "SET NX PX", MS: 30000, Reply: "OK"}}}
	for i := 1; i < 120; i++ {
		rec.Moves = append(rec.Moves, play.TrialMove{Worker: "w" + itoa(int64(2+i%3)), US: int64(i * 100), Kind: "SET NX PX", MS: 30000, Reply: "(nil)"})
	}
	pos := play.Position{Version: play.PositionVersion, Scene: "race", Seed: 1, Trial: &rec, Step: 239}
	a, err := NewCourse(embedded(t), Options{Seed: 1, Position: &pos, NoQuiz: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	runCmd(t, a, a.Init())
	if a.pl.Snap.Pos != 239 {
		t.Fatalf("the trial opened at step %d of %d", a.pl.Snap.Pos, len(a.pl.Snap.Moves))
	}
	drive(t, a, keys("v")...)
	screen := views.Strip(a.View())
	if !strings.Contains(screen, "instants earlier: [ · 0 later: ]") || !strings.Contains(screen, "◂ [") {
		t.Fatalf("a long history does not say it is a window:\n%s", screen)
	}
	drive(t, a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'['}}, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'['}})
	if a.pl.histBack != 2 || !strings.Contains(views.Strip(a.View()), "· 2 later: ]") {
		t.Errorf("[ [ moved the window %d back:\n%s", a.pl.histBack, a.View())
	}
	drive(t, a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{']'}})
	if a.pl.histBack != 1 {
		t.Errorf("] left the window %d back", a.pl.histBack)
	}
}

// TestHistoryChecksInACommand: the check runs in a command, not in Update
// or View: until its verdicts arrive the page says it is checking, and a
// check of an older snapshot is not taken for the one on screen.
func TestHistoryChecksInACommand(t *testing.T) {
	a := openScene(t, embedded(t), "gc-pause", 1, 120, 40, "nnnnnnnnnn")
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'v'}})
	screen := views.Strip(a.View())
	if !strings.Contains(screen, "server: checking… · client's mutex: checking… · fenced resource: checking…") {
		t.Fatalf("before the check's command ran:\n%s", screen)
	}
	stale := play.CheckedMsg{ID: a.pl.ID, Gen: a.pl.Gen, Report: a.pl.report}
	a.Update(stale)
	if strings.Contains(views.Strip(a.View()), "linearizable") {
		t.Error("the verdicts of an older snapshot were taken")
	}
	runCmd(t, a, cmd)
	if !strings.Contains(views.Strip(a.View()), "client's mutex: not linearizable at B's acquire") {
		t.Errorf("once the command ran:\n%s", a.View())
	}
}
