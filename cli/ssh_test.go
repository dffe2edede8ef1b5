package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/storycode"
	"locksim/transcript"
	"locksim/tui"
)

// sshServer starts an SSH server of the course with the table's SSH
// commands, as -serve does, on a free loopback port, the commands that
// play a story in child processes (this test binary as locksim); it is
// closed at the end of the test.
func sshServer(t *testing.T) string {
	t.Helper()
	return sshServerChild(t, true)
}

// sshServerChild is sshServer, with every command in the server's own
// process when child is false.
func sshServerChild(t *testing.T, child bool) string {
	t.Helper()
	return sshServerIn(t, child, nil)
}

// sshServerIn is sshServerChild on a server whose classes are cls.
func sshServerIn(t *testing.T, child bool, cls serve.Class) string {
	t.Helper()
	// the commands' own time limit is serve's to test (TestCommandStopped):
	// here a busy machine (the child runs at nice 19 beside a CPU hog on
	// each core) must not stop a command that would end
	cfg := serve.Config{HostKey: filepath.Join(t.TempDir(), "host_ed25519"), Commands: sshCommands(),
		Log: log.New(io.Discard, "", 0), CommandTime: 10 * time.Minute, Class: cls}
	if child {
		cfg.Spawn = testSpawn(t)
	}
	s, err := serve.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := serve.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(termtest.Serve(t, s, l))
	return l.Addr().String()
}

// fencingCode is a story code of the fencing scene a few steps in, and the
// position it carries.
func fencingCode(t *testing.T) (string, play.Position) {
	t.Helper()
	pos := play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 7, Step: 3}
	code, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	return code, pos
}

// questionCode is a story code of gc-pause at its open question, made by
// an author who answered it (choice 1), and the position it carries.
func questionCode(t *testing.T) (string, play.Position) {
	t.Helper()
	pos := play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1, Step: 3, Prediction: &play.Prediction{Chosen: 0}}
	if d := play.Disclose(pos, play.Code); !d.Open || d.At != pos.Step {
		t.Fatalf("gc-pause's question is not at step %d: %+v", pos.Step, d)
	}
	code, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	return code, pos
}

// testSpawn runs a command's child as -serve does, this test binary
// standing for locksim.
func testSpawn(t testing.TB) func(string, []string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	return spawner(exe, []string{"LOCKSIM_MAIN=1"}, "", sim.LiveOptions{})
}

// TestCommands runs the table's verbs over SSH, as a server of locksim
// -serve runs them without a terminal, and a bad one: in child processes
// as -serve runs them, and in the server's own.
func TestCommands(t *testing.T) {
	t.Run("child", func(t *testing.T) { commands(t, sshServerChild(t, true)) })
	t.Run("in process", func(t *testing.T) { commands(t, sshServerChild(t, false)) })
}

func commands(t *testing.T, addr string) {
	c := termtest.Dial(t, addr, "student", termtest.NewKey(t))
	out, errOut, code := termtest.Run(t, c, "plain race")
	if code != 0 || !strings.HasPrefix(out, "locksim · race ·") || !strings.Contains(out, "NX PX 30000") || errOut != "" {
		t.Fatalf("plain race: status %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = termtest.Run(t, c, "cli fencing")
	if code != 0 || !strings.Contains(out, "EVAL ") || !regexp.MustCompile(`locksim:replay:[0-9a-f]{8}:resource:fence`).MatchString(out) || errOut != "" {
		t.Fatalf("cli fencing: status %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, _, code = termtest.Run(t, c, "list")
	if code != 0 || !strings.HasPrefix(out, "race ") || !strings.Contains(out, "\nfencing ") {
		t.Fatalf("list: status %d:\n%s", code, out)
	}
	for _, bad := range []string{"nope", "plain", "plain nosuch", "plain race x", "cli quiz", "list x"} {
		out, errOut, code = termtest.Run(t, c, bad)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "locksim: ") {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2, nothing, one line", bad, code, out, errOut)
		}
	}
}

// TestCommandsHoldAClassesOpenQuestion: while a class on the server is
// asked gc-pause's question, the commands a student may run without a
// terminal (in child processes, as -serve runs them) go no further than
// it: plain gc-pause and cli gc-pause (which read or play past it), story
// CODE -answer N, and a code past the question to story, cast and cli are
// refused with one line; a code at the question is printed to it, and
// fencing, which no class is asked, whole.
func TestCommandsHoldAClassesOpenQuestion(t *testing.T) {
	c := termtest.Dial(t, sshServerIn(t, true, askingClass{"gc-pause": true}), "student", termtest.NewKey(t))
	at, pos := questionCode(t)
	pos.Step++
	past, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"plain gc-pause", "cli gc-pause", "story " + at + " -answer 2", "story " + past, "cast " + past, "cli " + past} {
		out, errOut, code := termtest.Run(t, c, cmd)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "waits for the class's answer") {
			t.Errorf("%s, the class asked: status %d, stdout %.200q, stderr %q; want 2, nothing, the line why", cmd, code, out, errOut)
		}
	}
	if out, errOut, code := termtest.Run(t, c, "story "+at); code != 0 || !strings.Contains(out, "-answer N") || strings.Contains(out, "[the replies answer") {
		t.Errorf("story CODE at the question, the class asked: status %d, stderr %q:\n%s", code, errOut, out)
	}
	if out, _, code := termtest.Run(t, c, "plain fencing"); code != 0 || !strings.Contains(out, "refused") {
		t.Errorf("plain fencing, which no class is asked: status %d:\n%s", code, out)
	}
}

// TestStoryAndCastCommands: ssh HOST story CODE prints the same transcript
// -story CODE -plain does, and ssh HOST cast CODE the same bytes -cast
// writes, both made here on an embedded server of the test's own.
func TestStoryAndCastCommands(t *testing.T) {
	addr := sshServer(t)
	c := termtest.Dial(t, addr, "student", termtest.NewKey(t))
	code, pos := fencingCode(t)
	ctx := context.Background()

	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	var want bytes.Buffer
	if err := transcript.PlainPositionWith(ctx, &want, b, pos, transcript.PositionOptions{Role: play.Code, GoOn: sshGoOn(code)}); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := termtest.Run(t, c, "story "+code)
	if status != 0 || errOut != "" || out != want.String() {
		t.Fatalf("story %s: status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, status, errOut, out, want.String())
	}
	// a code at its open question: the story to it, and the way on
	gc, gcPos := questionCode(t)
	for _, answer := range []int{0, 2} {
		want.Reset()
		if err := transcript.PlainPositionWith(ctx, &want, b, gcPos, transcript.PositionOptions{Role: play.Code, Answer: answer, GoOn: sshGoOn(gc)}); err != nil {
			t.Fatal(err)
		}
		cmd := "story " + gc
		if answer > 0 {
			cmd += " -answer 2"
		}
		out, errOut, status := termtest.Run(t, c, cmd)
		stops := strings.Contains(out, "-answer N") && !strings.Contains(out, "[the replies answer")
		if status != 0 || errOut != "" || out != want.String() || stops != (answer == 0) {
			t.Fatalf("%s: status %d, stderr %q, stdout:\n%s\nwant:\n%s", cmd, status, errOut, out, want.String())
		}
	}

	want.Reset()
	if err := tui.Cast(ctx, &want, b, pos, tui.CastOptions{Width: 100, Height: 30}); err != nil {
		t.Fatal(err)
	}
	out, errOut, status = termtest.Run(t, c, "cast "+code+" 100x30")
	if status != 0 || errOut != "" || out != want.String() {
		t.Fatalf("cast %s: status %d, stderr %q, %d bytes, want %d", code, status, errOut, len(out), want.Len())
	}
	var header struct {
		Version       int `json:"version"`
		Width, Height int
	}
	first, _, _ := strings.Cut(out, "\n")
	if err := json.Unmarshal([]byte(first), &header); err != nil || header.Version != 2 || header.Width != 100 || header.Height != 30 {
		t.Fatalf("cast header %q: %+v, %v", first, header, err)
	}

	// cli CODE at or before the code's question (fencing's is at step 7,
	// and by step 3 the story has sent <fenced-acquire>): the script
	// would print the sources, which wait for the answer (play.ScriptsAt)
	out, errOut, status = termtest.Run(t, c, "cli "+code)
	if status != 2 || out != "" || !strings.Contains(errOut, "no redis-cli script here") || strings.Contains(errOut, "redis.call") {
		t.Fatalf("cli %s, a code before its question: status %d, stderr %q, stdout:\n%s", code, status, errOut, out)
	}
	// past the question: the script y saves on a terminal of one's own,
	// for the code's story to its step
	pos.Step = 9
	if d := play.Disclose(pos, play.Code); d.Open || d.At < 0 {
		t.Fatalf("fencing at step 9 should be past its question: %+v", d)
	}
	if code, err = storycode.Encode(pos); err != nil {
		t.Fatal(err)
	}
	s, err := play.Open(ctx, pos, play.Env{Backend: b, ID: 1, Options: play.Options{Predict: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := (play.Driver{S: s}).Start(); err != nil {
		t.Fatal(err)
	}
	_, script := transcript.Export(scenes.Export{}, false, pos.Scene, pos.Seed, s.Snap)
	s.Close(ctx)
	out, errOut, status = termtest.Run(t, c, "cli "+code)
	// each export draws its own replay id and nonce: compare without them
	unsalted := func(s string) string {
		return regexp.MustCompile(`locksim:replay:[0-9a-f]{8}:|[0-9a-f]{32}`).ReplaceAllString(s, "…")
	}
	if status != 0 || errOut != "" || unsalted(out) != unsalted(string(script)) || !strings.Contains(out, "EVAL ") {
		t.Fatalf("cli %s: status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, status, errOut, out, script)
	}

	for _, bad := range []string{"story", "story nope", "cli fencing.zzzz", "story " + code + " x", "cast " + code + " 10x10", "cast fencing.zzzz",
		"story " + gc + " -answer 4", "story " + gc + " -answer x", "story " + gc + " -answr 1"} {
		out, errOut, status := termtest.Run(t, c, bad)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "locksim: ") {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2, nothing, one line", bad, status, out, errOut)
		}
	}
}

// TestCliEveryScene: cli writes a redis-cli script for every story, and
// refuses the quiz in one line.
func TestCliEveryScene(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	addr := sshServer(t)
	c := termtest.Dial(t, addr, "student", termtest.NewKey(t))
	for _, sc := range scenes.All() {
		out, errOut, code := termtest.Run(t, c, "cli "+sc.ID)
		switch {
		case sc.Kind == scenes.Quiz:
			if code != 2 || !strings.Contains(errOut, "is a quiz") {
				t.Errorf("cli %s: status %d, stderr %q", sc.ID, code, errOut)
			}
		case code != 0 || errOut != "" || !strings.Contains(out, "locksim:replay:"):
			t.Errorf("cli %s: status %d, stderr %q, stdout:\n%s", sc.ID, code, errOut, out)
		}
	}
}

// TestSSHSeedRange: ssh HOST plain SCENE SEED takes the seeds -seed takes
// (0 to 2^64-1) and refuses the others with -seed's words.
func TestSSHSeedRange(t *testing.T) {
	for _, ok := range []string{"0", "1", "18446744073709551615"} {
		if _, seed, err := sceneArgs(serve.Call{Args: []string{"race", ok}}); err != nil || strconv.FormatUint(seed, 10) != ok {
			t.Errorf("seed %s: %d, %v", ok, seed, err)
		}
		if _, err := parse([]string{"-seed", ok}); err != nil {
			t.Errorf("-seed %s: %v", ok, err)
		}
	}
	for _, bad := range []string{"18446744073709551616", "99999999999999999999999", "-1", "x"} {
		_, _, err := sceneArgs(serve.Call{Args: []string{"race", bad}})
		_, cliErr := parse([]string{"-seed", bad})
		want := "the seed must be a whole number from 0 to 18446744073709551615, got " + bad
		if err == nil || err.Error() != want || cliErr == nil || !strings.HasPrefix(cliErr.Error(), "-seed must be a whole number from 0 to 18446744073709551615") {
			t.Errorf("seed %s: ssh %v, command line %v; want %q", bad, err, cliErr, want)
		}
	}
}
