package tui

import (
	"context"
	"flag"
	"fmt"
	"locksim/sim/simtest"
	"locksim/sim/simtest/testmain"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// updating reports -update, the flag teatest's golden package defines: it
// rewrites the golden files in testdata/.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	simtest.ParallelLive()
	testmain.Run(m)
}

// embedded starts an embedded backend for one test.
func embedded(t testing.TB) *sim.Backend { return simtest.Embedded(t) }

// drive feeds msgs to the app one at a time, and before the next one runs
// every command the last returned, feeding their messages back in, as the
// Bubble Tea runtime would once the work is done (but without timers: tests
// never press space). So a key is never pressed while the player is busy.
func drive(t testing.TB, a *App, msgs ...tea.Msg) {
	t.Helper()
	for _, msg := range msgs {
		_, cmd := a.Update(msg)
		if cmd == nil {
			continue
		}
		runCmd(t, a, cmd)
	}
}

// runCmd runs one command as the runtime would and feeds its message back;
// a batch runs each of its commands.
func runCmd(t testing.TB, a *App, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil || reflect.ValueOf(cmd).Pointer() == reflect.ValueOf(healthWait{}.wait).Pointer() {
		return // healthLater's wait blocks until the server's health changes
	}
	m := cmd()
	switch m := m.(type) {
	case tea.BatchMsg:
		for _, c := range m {
			runCmd(t, a, c)
		}
	case tea.QuitMsg, healthTick, healthRetry, spinner.TickMsg, nil:
		// timers: a live screen re-reads its keys for ever
	default:
		if play.IsTimer(m) {
			return
		}
		drive(t, a, m)
	}
}

// keys turns a string of key presses into messages: "nnb" is n, n, b.
// Named keys go in brackets: "[right][tab]".
func keys(s string) []tea.Msg {
	var out []tea.Msg
	for len(s) > 0 {
		if s[0] == '[' {
			end := 1
			for end < len(s) && s[end] != ']' {
				end++
			}
			name := s[1:end]
			s = s[min(end+1, len(s)):]
			kt := map[string]tea.KeyType{"right": tea.KeyRight, "left": tea.KeyLeft, "tab": tea.KeyTab, "enter": tea.KeyEnter, "home": tea.KeyHome, "up": tea.KeyUp, "down": tea.KeyDown, "esc": tea.KeyEsc, "pgdown": tea.KeyPgDown}[name]
			out = append(out, tea.KeyMsg{Type: kt})
			continue
		}
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(s[0])}})
		s = s[1:]
	}
	return out
}

// openScene starts the app on scene id with the seed, sized w x h, and
// presses the given keys (see keys).
func openScene(t testing.TB, b *sim.Backend, id string, seed uint64, w, h int, presses string) *App {
	t.Helper()
	a, err := NewApp(b, id, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.Shutdown(ctx)
	})
	drive(t, a, tea.WindowSizeMsg{Width: w, Height: h})
	runCmd(t, a, a.Init())
	drive(t, a, keys(presses)...)
	return a
}

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// storyVariants is the settings a story scene's checks play: its
// transcript variants, or the defaults once.
func storyVariants(id string) []scenes.Params {
	return scenes.Find(id).Stories()
}

// storyPoint is one point of a played story: the snapshot after pos moves
// under settings p, with a name for failure messages.
type storyPoint struct {
	where string
	p     scenes.Params
	snap  sim.Snapshot
	final bool // the last move of its schedule
}

// changed counts the knobs p sets away from their first value.
func changed(p scenes.Params) int {
	n := 0
	for _, v := range p {
		if v != 0 {
			n++
		}
	}
	return n
}

// points plays every variant of scene id move by move and, with learner,
// the same schedules with a learner's move (a crash, a pause, a step, a
// wait) inserted at every point, and returns the points the checks walk.
func points(t testing.TB, id string, learner bool) []storyPoint {
	t.Helper()
	ctx := context.Background()
	b := embedded(t)
	sc := scenes.Find(id)
	var out []storyPoint
	// keep, when not nil, picks the points of a story without a learner's
	// move that this tier walks
	var keep func(pos, n int) bool
	play := func(name string, p scenes.Params, insert int, m *sim.Move) {
		run := sim.NewRun(b, sc.Script(p), 1)
		defer run.Close()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		if m != nil {
			if err := run.Seek(ctx, insert); err != nil {
				t.Fatal(err)
			}
			if err := run.Insert(ctx, *m); err != nil {
				t.Fatal(err)
			}
		}
		// before the inserted move the story is the one already walked
		from := 0
		if m != nil {
			from = insert + 1
		}
		for pos := from; pos <= len(run.Moves()); pos++ {
			if err := run.Seek(ctx, pos); err != nil {
				t.Fatal(err)
			}
			// after a learner's move: the two points that follow it and
			// the end, where what it changed shows
			if m != nil && pos > from+1 && pos < len(run.Moves()) {
				continue
			}
			if m == nil && keep != nil && !keep(pos, len(run.Moves())) {
				continue
			}
			snap := run.Snapshot(ctx)
			if snap.Err != "" {
				t.Fatalf("%s: reading back: %s", name, snap.Err)
			}
			out = append(out, storyPoint{
				where: fmt.Sprintf("%s at move %d/%d", name, pos, len(run.Moves())),
				p:     p, snap: snap, final: pos == len(run.Moves()),
			})
		}
	}
	// a benchmark wants the story as written whatever the tier (.ci/run
	// runs the benchmarks with -tags slow)
	_, bench := t.(*testing.B)
	for _, p := range storyVariants(id) {
		// the quick tier walks the story as written at every point and
		// each setting changed alone at every sixth point and its end;
		// the slow tier the other points of a setting changed alone, the
		// combinations of two settings or more and the learner's moves
		// the quick tier left out
		switch {
		case bench:
			keep = nil
			play(sc.Describe(p), p, 0, nil)
		case changed(p) == 1:
			keep = func(pos, n int) bool { return simtest.InTier(pos%6 == 0 || pos == n) }
			play(sc.Describe(p), p, 0, nil)
			keep = nil
		case simtest.InTier(changed(p) == 0):
			keep = nil
			play(sc.Describe(p), p, 0, nil)
		}
		// the learner's moves on the story as written and on each setting
		// changed alone: the combinations differ from those only in what
		// the walk without moves already covers
		if !learner || changed(p) > 1 || sc.Distributed && changed(p) > 0 {
			// a distributed story opens five servers per run: the learner's
			// moves are walked on its first story only
			continue
		}
		n := len(sc.Build(p).Moves)
		actors := sc.Build(p).Actors
		// every kind of learner move on the story as written; a crash and a
		// pause of each actor on a setting changed alone
		var extra []sim.Move
		for _, a := range actors {
			extra = append(extra, sim.Crash(a.Name), sim.Pause(a.Name))
			if changed(p) == 0 {
				extra = append(extra, sim.StepOf(a.Name))
			}
		}
		if changed(p) == 0 {
			extra = append(extra, sim.Advance(sc.Wait))
		}
		if sc.Distributed {
			extra = append(extra, sim.NodeStop("C"), sim.NodeSlow("B", true), sim.NodeJump("A", sc.Wait), sim.NodeCut("c2", "D", true))
		}
		for k := 0; k <= n; k++ {
			for i, m := range extra {
				// the quick tier takes each move at every twentieth point, in
				// turn, on the story as written; the slow tier (-tags slow)
				// at every other point below and on a setting changed alone
				if !simtest.InTier(changed(p) == 0 && (k+i)%20 == 0) {
					continue
				}
				// on a setting changed alone, on a distributed story (five
				// servers a run) and on one of five actors, each move at
				// every other point, in turn; other stories as written have
				// them all at every point
				if (changed(p) > 0 || sc.Distributed || len(actors) > 4) && (k+i)%2 == 1 {
					continue
				}
				play(fmt.Sprintf("%s, %s inserted at %d", sc.Describe(p), sim.MoveLabel(m), k), p, k, &m)
			}
		}
	}
	return out
}

// commands returns the command events of the given actor and step label
// ("" matches any).
func commands(events []sim.Event, actor, step string) []sim.Event {
	return simtest.Commands(events, actor, step)
}

// lastOf returns the last event of commands(...), if any.
func lastOf(events []sim.Event, actor, step string) (sim.Event, bool) {
	return simtest.LastOf(events, actor, step)
}

// sent returns the command events of actor whose command is cmd (SET, PTTL,
// EVAL, SETNX...), in order.
func sent(events []sim.Event, actor, cmd string) []sim.Event { return simtest.Sent(events, actor, cmd) }

func replies(es []sim.Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Reply)
	}
	return out
}

// knobIndex is the index of value among the values of scene id's knob.
func knobIndex(t testing.TB, id, knob, value string) int {
	t.Helper()
	for _, sc := range scenes.All() {
		for _, k := range sc.Knobs {
			if sc.ID == id && k.Name == knob {
				if i := slices.Index(k.Values, value); i >= 0 {
					return i
				}
			}
		}
	}
	t.Fatalf("%s has no %s %q", id, knob, value)
	return -1
}

// startedAt is the session pos opens (play.Open, the question asked where
// the scene has one) on b, started to rest.
func startedAt(t *testing.T, ctx context.Context, pos play.Position, b *sim.Backend) *play.Session {
	t.Helper()
	s, err := play.Open(ctx, pos, play.Env{Backend: b, ID: 1, Options: play.Options{Predict: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := (play.Driver{S: s}).Start(); err != nil {
		t.Fatal(err)
	}
	return s
}
