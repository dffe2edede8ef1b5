package transcript

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2/server"

	"locksim/sim"
)

// TestPlainSaysWhyItStops: a command that gets no reply is an outage, not
// a lock outcome, and the transcript stops there. Its last lines say so
// in the client's words (no "(error)", which only a server sends), with
// the timeout the client really waited.
func TestPlainSaysWhyItStops(t *testing.T) {
	// a command timeout, a second on the real clock: waited beside the
	// package's other tests, which own their servers too
	t.Parallel()
	b := embedded(t)
	// every connection waits this long: a second no loaded machine takes
	// to answer in process, while the renewal is held till the end
	const timeout = time.Second
	b.SetCommandTimeout(timeout)
	// the server takes longer than the client waits over the first
	// renewal: it answers it only once the test is over, when the client
	// has long given up (an event, not a time; released before the server
	// closes). Every renewal after it gets no reply either, at once: the
	// server drops the connection (each a second of waiting, else), so
	// the transcript must stop at the first of the unknown outcomes
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	var renewals atomic.Int32
	b.Embedded().Server().SetPreHook(func(c *server.Peer, cmd string, args ...string) bool {
		if cmd != "EVAL" || len(args) == 0 || args[0] != sim.ExtendLua.Src {
			return false
		}
		if renewals.Add(1) > 1 {
			c.Close()
			return true
		}
		<-release
		return true
	})
	var out bytes.Buffer
	err := PlainWith(context.Background(), &out, b, "extend", 1, PlainOptions{})
	if err == nil {
		t.Fatalf("the story went on past a renewal with no reply:\n%s", out.String())
	}
	text := out.String()
	at := strings.LastIndex(text, "The story stops here")
	if at < 0 {
		t.Fatalf("the transcript stops without saying why:\n%s", text)
	}
	last := strings.Join(strings.Fields(text[at:]), " ")
	if !strings.HasPrefix(last, "The story stops here: at +10.000s, A's EVAL <extend> 1 resource:lock") ||
		!strings.HasSuffix(last, "got no reply within "+sim.FormatSpan(timeout)+": outcome unknown, and what follows would not be the story.") {
		t.Errorf("the transcript's last line: %s", last)
	}
	if strings.Contains(text, "(error)") || strings.Contains(text, "i/o timeout") {
		t.Errorf("a missing reply printed as a server's error:\n%s", text)
	}
}
