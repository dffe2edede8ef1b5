package serve

import (
	"context"
	"strings"
	"testing"

	"locksim/serve/termtest"

	"github.com/coder/websocket"
)

// TestFirstFrameIsTheScreen: the first frame a browser tab is sent is
// the course drawn at the tab's size, and no bytes an SSH client gets
// say "this one is 0x0": Bubble Tea asks for a view before the session's
// size reaches the course, and that view, drawn, was the too-small
// notice (a tab that painted only its first frame kept it; issue 53).
func TestFirstFrameIsTheScreen(t *testing.T) {
	t.Parallel()
	_, addr, base := webServer(t, Config{})
	conn, _, err := termtest.NewBrowser(t).Dial(base, "/ws/", base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(websocket.StatusNormalClosure, "")
	ctx, cancel := context.WithTimeout(context.Background(), termtest.Hang)
	defer cancel()
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"cols":100,"rows":30}`)); err != nil {
		t.Fatal(err)
	}
	typ, first, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if f := string(first); typ != websocket.MessageBinary || strings.Contains(f, "0x0") || !strings.Contains(f, "the course: Redis distributed locks") {
		t.Errorf("the tab's first frame (%v) is not the course:\n%q", typ, f)
	}

	tm := termtest.Open(t, termtest.Dial(t, addr, "ann", termtest.NewKey(t)), "xterm-256color", 100, 30)
	tm.WaitFor("the course: Redis distributed locks")
	if raw := tm.RawSince(0); strings.Contains(raw, "0x0") {
		t.Errorf("an SSH session was sent the too-small notice before its screen:\n%q", raw)
	}
}
