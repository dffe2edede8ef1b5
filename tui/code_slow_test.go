package tui

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"locksim/play"
	"locksim/runner"
	"locksim/scenes"
	"locksim/sim/simtest"
	"locksim/sim/simtest/testmain"
	"locksim/storycode"
)

// TestStoryCodeInAnotherProcess: for every scene, a seeded walk (steps,
// steps back, settings, own moves and faults, an answer at the question)
// makes a story code; locksim, built once and run as a process of its
// own, records the code with -story CODE -cast -, and its last frame,
// replayed through a terminal emulator, is the screen the walk left. Two
// runs of one code with different terminal environments write the same
// bytes.
func TestStoryCodeInAnotherProcess(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	t.Parallel() // the build takes a while on a loaded machine: the other tests meanwhile
	bin := filepath.Join(t.TempDir(), "locksim")
	// built as this test binary was, so the packages come from the build
	// cache and only the link is new (a build without -race compiled them
	// all again: minutes on two loaded cores)
	args := []string{"build", "-o", bin}
	if testmain.Race {
		args = append(args, "-race")
	}
	if out, err := exec.Command("go", append(args, "locksim")...).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cast := func(t *testing.T, code string, env ...string) []byte {
		t.Helper()
		cmd := exec.Command(bin, "-story", code, "-cast", "-", "-size", "100x32")
		// built with -race, each process would sleep the race detector's
		// second at exit (atexit_sleep_ms): a second per scene
		cmd.Env = runner.QuickRaceExit(append(os.Environ(), env...))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("locksim -story %s -cast -: %v\n%s", code, err, stderr.String())
		}
		return out
	}
	t.Run("scenes", func(t *testing.T) {
		for i, sc := range scenes.All() {
			t.Run(sc.ID, func(t *testing.T) {
				t.Parallel()
				walk := storyWalk(sc, rand.New(rand.NewPCG(uint64(i), 20)))
				if sc.Kind == scenes.Quiz {
					walk = quizWalk(rand.New(rand.NewPCG(uint64(i), 20)))
				}
				a := openPosition(t, play.Position{}, sc.ID, walk)
				a.pl.SetFlash("")
				a.pl.SetErr("")
				code, err := storycode.Encode(a.Position())
				if err != nil {
					t.Fatal(err)
				}
				h, events := readCast(t, cast(t, code))
				frames, _ := screens(h, events)
				got, walked := frames[len(frames)-1], trimScreen(a.View())
				pos, err := storycode.Decode(code)
				if err != nil {
					t.Fatal(err)
				}
				opened := trimScreen(openPosition(t, pos, "", "").View())
				if sc.Kind == scenes.Race {
					// a race opened from its record says it is a replay
					got, walked, opened = withoutReadout(got), withoutReadout(walked), withoutReadout(opened)
				}
				if got != opened {
					t.Errorf("after %q, code %s opens in another process as\n%s\nand in this one as\n%s", walk, code, got, opened)
				}
				// a question left open by a step back is not part of a
				// position (play.Position has no such field)
				at := a.pl.Scene.PredictAt(a.pl.Snap.Moves)
				if a.pl.Asking && a.pl.Snap.Pos != at {
					t.Logf("after %q the question is open at step %d, not at its own, %d", walk, a.pl.Snap.Pos, at)
				} else if got != walked {
					t.Errorf("after %q, code %s opens in another process as\n%s\nwant the screen the walk left\n%s", walk, code, got, walked)
				}
			})
		}
	})
	t.Run("same bytes", func(t *testing.T) {
		code, err := storycode.Encode(play.Position{Version: play.PositionVersion, Scene: "redlock", Settings: map[string]int{"story": 4}, Seed: 11, Step: 9,
			Own: []play.Own{{At: 2, Kind: "stop", Node: "B"}}})
		if err != nil {
			t.Fatal(err)
		}
		a := cast(t, code, "TERM=xterm-256color", "COLORTERM=truecolor", "NO_COLOR=")
		b := cast(t, code, "TERM=dumb", "COLORTERM=", "NO_COLOR=1")
		c := cast(t, code, "TERM=", "LANG=C")
		if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
			t.Errorf("one code, three environments: %d, %d and %d bytes, not the same", len(a), len(b), len(c))
		}
	})
}
