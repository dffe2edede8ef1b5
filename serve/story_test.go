package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"regexp"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes"
	"locksim/serve/sshtest"
	"locksim/sim"
	"locksim/storycode"
	"locksim/transcript"
	"locksim/tui"
)

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

// TestStoryAndCastCommands: ssh HOST story CODE prints the same transcript
// -story CODE -plain does, and ssh HOST cast CODE the same bytes -cast
// writes, both made here on an embedded server of the test's own.
func TestStoryAndCastCommands(t *testing.T) {
	_, addr := testServer(t, Config{})
	c := sshtest.Dial(t, addr, "student", sshtest.NewKey(t))
	code, pos := fencingCode(t)
	ctx := context.Background()

	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	var want bytes.Buffer
	if err := transcript.PlainPosition(ctx, &want, b, pos); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := sshtest.Run(t, c, "story "+code)
	if status != 0 || errOut != "" || out != want.String() {
		t.Fatalf("story %s: status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, status, errOut, out, want.String())
	}

	want.Reset()
	if err := tui.Cast(ctx, &want, b, pos, tui.CastOptions{Width: 100, Height: 30}); err != nil {
		t.Fatal(err)
	}
	out, errOut, status = sshtest.Run(t, c, "cast "+code+" 100x30")
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

	// cli CODE: the script y saves on a terminal of one's own, for the
	// code's story to its step
	s, err := play.Open(ctx, pos, b)
	if err != nil {
		t.Fatal(err)
	}
	_, script := transcript.Export(scenes.Export{}, false, pos.Scene, pos.Seed, s.Snap)
	s.Close(ctx)
	out, errOut, status = sshtest.Run(t, c, "cli "+code)
	// each export draws its own replay id and nonce: compare without them
	unsalted := func(s string) string {
		return regexp.MustCompile(`locksim:replay:[0-9a-f]{8}:|[0-9a-f]{32}`).ReplaceAllString(s, "…")
	}
	if status != 0 || errOut != "" || unsalted(out) != unsalted(string(script)) || !strings.Contains(out, "EVAL ") {
		t.Fatalf("cli %s: status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, status, errOut, out, script)
	}

	for _, bad := range []string{"story", "story nope", "cli fencing.zzzz", "story " + code + " x", "cast " + code + " 10x10", "cast fencing.zzzz"} {
		out, errOut, status := sshtest.Run(t, c, bad)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "locksim: ") {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2, nothing, one line", bad, status, out, errOut)
		}
	}
}

// TestStoryOnATerminal: ssh -t HOST story CODE opens the course at the
// code's place, not at the student's saved one.
func TestStoryOnATerminal(t *testing.T) {
	_, addr := testServer(t, Config{})
	code, _ := fencingCode(t)
	tm := sshtest.OpenCmd(t, sshtest.Dial(t, addr, "student", sshtest.NewKey(t)), "xterm-256color", 200, 30, nil, "story "+code)
	tm.WaitFor("fencing", "seed 7", " 3/10 ")
	// y over SSH writes nothing on the server: it says how to fetch the
	// script, on the port the student came in by
	tm.Send("y")
	_, port, _ := net.SplitHostPort(addr)
	tm.WaitFor("ssh -p " + port + " HOST cli " + code + " > story.redis")
	tm.Send("q")
	tm.WaitEnd()

	// a code is a visit: the student's own saved place stays theirs
	key := sshtest.NewKey(t)
	own := sshtest.Open(t, sshtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	own.WaitFor("1  race")
	own.Send("\r")
	own.WaitFor("1-3 your prediction")
	own.Send("2")
	seed := seedOn(t, own.WaitFor("OK · holder"))
	own.Send("q")
	own.WaitEnd()
	visit := sshtest.OpenCmd(t, sshtest.Dial(t, addr, "student", key), "xterm-256color", 200, 30, nil, "story "+code)
	visit.WaitFor("fencing", "seed 7", " 3/10 ", "visiting a story code · esc goes back to your own place")
	visit.Send("n")
	visit.WaitFor(" 4/10 ")
	visit.Send("q")
	visit.WaitEnd()
	back := sshtest.Open(t, sshtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	back.WaitFor("OK · holder", "seed "+seed)
	back.Send("q")
	back.WaitEnd()

	bad := sshtest.OpenCmd(t, sshtest.Dial(t, addr, "student", sshtest.NewKey(t)), "xterm-256color", 80, 24, nil, "story fencing.zzzz")
	if status := bad.WaitEnd(); status != 2 || !strings.HasPrefix(bad.Stderr(), "locksim: story code: ") || strings.Count(bad.Stderr(), "\n") != 1 {
		t.Fatalf("a bad code on a terminal: status %d, stderr %q", status, bad.Stderr())
	}
}
