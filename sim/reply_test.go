package sim_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"locksim/shown"
	"locksim/sim"
)

// serverErr is an error reply, as go-redis types one.
type serverErr string

func (e serverErr) Error() string { return string(e) }
func (serverErr) RedisError()     {}

// A command that got no reply is told by what the client knows, with the
// timeout it really waited, never as an "(error)" reply: the errors here
// are go-redis's own, from a server that never answers and a port that
// refuses.
func TestNoReplySaysWhatTheClientKnows(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // reads nothing, answers nothing
		}
	}()
	const timeout = 100 * time.Millisecond
	ask := func(addr string) error {
		c := redis.NewClient(&redis.Options{Addr: addr, ReadTimeout: timeout, WriteTimeout: timeout,
			DialTimeout: sim.DialTimeout(timeout), MaxRetries: -1, DialerRetries: 1, Protocol: 2, DisableIdentity: true})
		defer c.Close()
		_, err := c.Do(context.Background(), "SET", "k", "v").Result()
		return err
	}
	silent := ask(ln.Addr().String())
	if got, want := sim.FormatReplyWithin(nil, silent, timeout), "no reply within 100 ms: outcome unknown"; got != want {
		t.Errorf("a server that never answers (%v): %q, want %q", silent, got, want)
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := closed.Addr().String()
	closed.Close()
	refused := ask(addr)
	if got, want := sim.FormatReplyWithin(nil, refused, timeout), "not sent: connection refused"; got != want {
		t.Errorf("a port that refuses (%v): %q, want %q", refused, got, want)
	}
	e := sim.Event{Kind: sim.Command, Err: refused}
	if !e.Unknown() || !e.NotSent() || e.TimedOut() {
		t.Errorf("a refused dial is not sent: unknown %v, not sent %v", e.Unknown(), e.NotSent())
	}
	if e := (sim.Event{Kind: sim.Command, Err: silent}); !e.Unknown() || e.NotSent() || !e.TimedOut() {
		t.Errorf("a timeout after sending may have run: unknown %v, not sent %v", e.Unknown(), e.NotSent())
	}
	simulated := errors.New("i/o timeout after 50 ms: node D unreachable (simulated partition)")
	if got, want := sim.FormatReply(nil, simulated), "no reply within 50 ms: node D unreachable (simulated partition)"; got != want {
		t.Errorf("a simulated partition: %q, want %q", got, want)
	}
	lost := errors.New("i/o timeout: the reply was lost")
	if got, want := sim.FormatReply(nil, lost), "no reply in time: the reply was lost"; got != want {
		t.Errorf("a lost reply: %q, want %q", got, want)
	}
	if got := sim.DialTimeout(400 * time.Millisecond); got != time.Second {
		t.Errorf("a dial waits at least a second: %v", got)
	}
}

// TestFormatReplyEscapesAnErrorReply: an error reply's text is the
// server's, or a lab script's redis.error_reply's, so every character a
// bulk string's quoting escapes is escaped in it too (a control character,
// a byte that is not UTF-8, a bidirectional control), alone or inside an
// array; an ordinary error's quotes and text stay as redis-cli prints
// them.
func TestFormatReplyEscapesAnErrorReply(t *testing.T) {
	hostile := "\x1b[2J\x1b]0;PWNED\a\x1b[31mRED\u202erev\u009b\xff\n"
	escaped := `\x1b[2J\x1b]0;PWNED\a\x1b[31mRED\u202erev\u009b\xff\n`
	for _, c := range []struct {
		val  any
		err  error
		want string
	}{
		{nil, serverErr("ERR " + hostile), "(error) ERR " + escaped},
		{nil, serverErr(hostile + " x"), "(error) " + escaped + " x"},
		{[]any{serverErr("ERR " + hostile), hostile}, nil, "1) (error) ERR " + escaped + ` 2) "` + escaped + `"`},
		{nil, serverErr(`ERR unknown command 'FOO', with args beginning with: "x" é`), `(error) ERR unknown command 'FOO', with args beginning with: "x" é`},
		{nil, errors.New("read: " + hostile), "no reply: read: " + escaped[:len(escaped)-2] + " "},
	} {
		if got := sim.FormatReply(c.val, c.err); got != c.want {
			t.Errorf("FormatReply(%q, %q) = %q, want %q", c.val, c.err, got, c.want)
		}
	}
}

// TestFormatCommandQuotesControls: an argument with a control character
// or a bidirectional control (a lab's .redis file chooses its arguments)
// is quoted, its bytes escaped, as a bulk reply's are.
func TestFormatCommandQuotesControls(t *testing.T) {
	got := sim.FormatCommand([]any{"SET", "k", "\x1b]0;T\a\u202e", "NX"})
	if want := `SET k "\x1b]0;T\a\u202e" NX`; got != want {
		t.Errorf("FormatCommand = %q, want %q", got, want)
	}
}

// TestEscapeIsShownUnchanged: what Escape makes of any text holds no
// character shown.Text or shown.Line would change, so a sentence holding
// an escaped reply draws the reply as redis-cli quotes it (\x1b), never
// as a control picture (␛) or doubly escaped.
func TestEscapeIsShownUnchanged(t *testing.T) {
	for _, s := range []string{"", "OK", "\x1b[2J\x1b]0;T\a", "a\u202eb\u2066c\u2028d\u2029", "\xff\xc2 \u0085\u009b\x7f", "\t\n\r\f\v\x00", "漢 👍🏽 \uFFFD \"q\" \\"} {
		e := sim.Escape(s)
		if shown.Text(e) != e || shown.Line(e) != e {
			t.Errorf("Escape(%q) = %q, which shown.Line draws as %q", s, e, shown.Line(e))
		}
	}
}
