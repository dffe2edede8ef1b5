package sim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"
)

// FormatReply renders a go-redis Do reply the way redis-cli prints it, on
// one line: OK, (nil), (integer) 1, "value", (error) ERR ..., and arrays as
// 1) "a" 2) (integer) 3. Reading the raw reply (not a typed helper) keeps
// -1 and -2 from PTTL as the integers the server sent. A command that got
// no reply at all is told by NoReply, with no timeout to name.
func FormatReply(val any, err error) string { return FormatReplyWithin(val, err, 0) }

// FormatReplyWithin is FormatReply for a command sent with a per-command
// timeout, which a missing reply names.
func FormatReplyWithin(val any, err error, timeout time.Duration) string {
	if err != nil {
		if errors.Is(err, redis.Nil) {
			return "(nil)"
		}
		var rerr redis.Error
		if errors.As(err, &rerr) {
			return "(error) " + ErrorText(rerr)
		}
		return NoReply(err, timeout)
	}
	return formatValue(val, true)
}

// NoReply says what the client knows of a command that got no reply: the
// server sent nothing, so this must never read like redis-cli's "(error)",
// which is a reply. A dial that failed sent nothing, so the command did
// not run; a timeout or a connection lost after sending leaves the outcome
// unknown. timeout is the per-command timeout the client waited (0 when
// the caller cannot say); a dial waits DialTimeout of it.
func NoReply(err error, timeout time.Duration) string {
	var op *net.OpError
	dial := errors.As(err, &op) && op.Op == "dial"
	if !dial && notSent(err) {
		return "not sent: " + oneLine(err)
	}
	timedOut := timedOut(err)
	switch {
	case dial && timedOut:
		return "not sent: no connection within " + FormatSpan(DialTimeout(timeout))
	case dial && errors.Is(err, syscall.ECONNREFUSED):
		return "not sent: connection refused"
	case dial:
		return "not sent: cannot connect (" + oneLine(op.Err) + ")"
	case timedOut && timeout > 0:
		return "no reply within " + FormatSpan(timeout) + ": outcome unknown"
	case timedOut:
		return "no reply in time: outcome unknown"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed):
		return "no reply: the connection closed: outcome unknown"
	case errors.Is(err, context.Canceled):
		return "no reply: the wait was cancelled: outcome unknown"
	}
	// locksim's own words for a simulated fault (a cut off, slow or hung
	// node; a lost reply), which say what the client heard and how long it
	// waited
	msg := oneLine(err)
	if rest, ok := strings.CutPrefix(msg, "i/o timeout after "); ok {
		return "no reply within " + rest
	}
	if rest, ok := strings.CutPrefix(msg, "i/o timeout: "); ok {
		return "no reply in time: " + rest
	}
	return "no reply: " + msg
}

// notSent reports an error that kept a command from reaching the server:
// its connection could not be opened (locksim's simulated stopped node
// says so in its own words).
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" || strings.HasPrefix(oneLine(err), "connection refused")
}

// NotSent reports a command that never reached the server, its connection
// refused: unlike a missing reply, it certainly did not run.
func (e Event) NotSent() bool { return e.Unknown() && notSent(e.Err) }

func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// TimedOut reports a command sent whose reply did not come within the
// command timeout: it may have run or not.
func (e Event) TimedOut() bool { return e.Unknown() && !notSent(e.Err) && timedOut(e.Err) }

// DialTimeout is how long a live connection may take to open: the command
// timeout, but never under a second, since a first TLS handshake to a
// distant server takes longer than a command.
func DialTimeout(timeout time.Duration) time.Duration { return max(timeout, time.Second) }

func formatValue(v any, top bool) string {
	switch x := v.(type) {
	case nil:
		return "(nil)"
	case int64:
		return "(integer) " + strconv.FormatInt(x, 10)
	case string:
		// go-redis returns status replies (OK, QUEUED) and bulk strings alike
		// as string; the only status replies locksim meets are these.
		if top && (x == "OK" || x == "PONG") {
			return x
		}
		return strconv.Quote(x)
	case []any:
		if len(x) == 0 {
			return "(empty array)"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = fmt.Sprintf("%d) %s", i+1, formatValue(e, false))
		}
		return strings.Join(parts, " ")
	case error:
		return "(error) " + ErrorText(x)
	default:
		return Escape(fmt.Sprint(x))
	}
}

// ErrorText is the text of an error reply as a reply shows it: the
// server's message, every character strconv.Quote would escape in a bulk
// string (a control character, an invalid byte, a bidirectional control
// such as U+202E) escaped as Quote escapes it, without the quotes. A
// script's redis.error_reply, or a live server, chooses these bytes: shown
// raw, an ESC in one cleared the learner's screen and retitled the
// terminal, and U+202E reversed the rest of the line.
func ErrorText(err error) string { return Escape(err.Error()) }

// Escape is s with each character strconv.Quote would escape (except '"'
// and '\\', which are safe on a terminal and common in an error's text)
// escaped as Quote escapes it: \x1b, \a, \n, \u202e, \xff for a byte that
// is not UTF-8.
//
// Which of two ways shows a control character: a reply's text (a bulk
// string, an error reply, its code) is escaped here, as redis-cli quotes
// a bulk string, because a learner reads a reply beside what redis-cli
// prints; free text from outside (a name, a script, a path, a live
// server's connection error) is drawn with control pictures by package
// shown (ESC as ␛). Escape's output holds no character shown would
// change, so a sentence holding an escaped reply may pass through
// shown.Text as well, unchanged.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case strconv.IsPrint(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !strconv.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

// FormatCommand renders args as redis-cli would echo them, quoting any
// argument that is empty or holds spaces or quotes, or a character a bulk
// string's quoting escapes (a lab's .redis file may send an ESC).
func FormatCommand(args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		s := fmt.Sprint(a)
		if s == "" || strings.ContainsAny(s, " \t\n\"'") || needsEscape(s) {
			s = strconv.Quote(s)
		}
		parts[i] = s
	}
	return strings.Join(parts, " ")
}

// EmbeddedTimeout is how long a connection to the embedded server waits
// for a reply. The server is in process and a story acts out its hangs on
// its own clock, so no story's command may time out because the machine
// is slow (go-redis's 3 s default could, under load); this bound only
// keeps a session from waiting for ever on a server wedged by a fault.
// A test of a missing reply sets its own with SetCommandTimeout.
const EmbeddedTimeout = 2 * time.Minute

// embeddedOptions are the options of a connection to the embedded server
// at addr. Its replies are a few lines each, so a connection reads them
// through go-redis's smallest useful buffer rather than its 32 KiB (128
// KiB for a pipeline's connection): a run opens a connection per actor,
// and zeroing half a megabyte of buffers was a tenth of a -plain start.
// The writes keep their 32 KiB: a pipeline must reach the server's end of
// the pipe in one write (see readRound).
func embeddedOptions(addr string) *redis.Options {
	return &redis.Options{Addr: addr, ReadTimeout: EmbeddedTimeout, WriteTimeout: EmbeddedTimeout,
		ReadBufferSize: embeddedReadBuffer, PipelineReadBufferSize: embeddedReadBuffer, PipelineWriteBufferSize: embeddedWriteBuffer}
}

// The buffers of a connection to the embedded server: bufio's default
// for reading, go-redis's own default for writing.
const (
	embeddedReadBuffer  = 4 << 10
	embeddedWriteBuffer = 32 << 10
)

// commandTimeout is how long a client of b waits for a reply: what its
// connections were opened with (a live server's -timeout, the embedded
// server's EmbeddedTimeout), else go-redis's own default of 3 s.
func (b *Backend) commandTimeout() time.Duration {
	if b.opts != nil && b.opts.ReadTimeout > 0 {
		return b.opts.ReadTimeout
	}
	return 3 * time.Second
}
