package serve

import (
	"context"
	"time"

	"github.com/charmbracelet/ssh"
	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"
)

// Presence: a client whose packets stop without a FIN (a laptop shut, a
// Wi-Fi gone) leaves a TCP connection that reads nothing and errs never,
// so the session, its seat and its roster row would stay online. Every
// ProbeEvery (Config.ProbeEvery) the server asks the client to answer (SSH: a
// keepalive@openssh.com global request, as OpenSSH's
// ServerAliveInterval does; a tab: a WebSocket ping); a probe unanswered
// within half that is missed, and ProbesMissed missed in a row end the
// session, which takes its class seat offline at once. A dropped client
// is so gone within ProbeEvery*ProbesMissed + ProbeEvery/2 (12.5 s).
// Cost: one small packet and its answer per session every 5 s; 60
// sessions are 12 probes a second and a goroutine and a timer each.
const (
	ProbeEvery   = 5 * time.Second
	ProbesMissed = 2
)

// probe asks a client to answer; it returns once the client did (any
// answer, a refusal too), or with the error that kept it from answering.
type probe func(ctx context.Context) error

// sshProbe is the keepalive@openssh.com global request on sess's
// connection (the charmbracelet/ssh server has no keepalive option);
// OpenSSH answers it with a failure, which is an answer. ok is false when
// the session has no connection to ask.
func sshProbe(sess ssh.Session) (p probe, closeConn func(), ok bool) {
	conn, ok := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn)
	if !ok {
		return nil, nil, false
	}
	return func(ctx context.Context) error {
		done := make(chan error, 1)
		go func() {
			// SendRequest waits for the answer and has no context: a
			// silent client leaves it waiting until the connection closes
			_, _, err := conn.SendRequest("keepalive@openssh.com", true, nil)
			done <- err
		}()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}, func() { _ = conn.Close() }, true
}

// webProbe is a WebSocket ping on conn (it needs the tab's reader running,
// which the session's terminal has).
func webProbe(conn *websocket.Conn) probe { return conn.Ping }

// watchPresence probes the client every tick of ticks (a ticker of
// ProbeEvery; a test's channel) with timeout each, and calls gone once,
// from its own goroutine, when ProbesMissed probes in a row went
// unanswered. stop ends it (it waits for nothing).
func watchPresence(ticks <-chan time.Time, timeout time.Duration, p probe, gone func()) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer func() { _ = recover() }() // a failure here ends the watch, never the server
		missed := 0
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticks:
			}
			pctx, pcancel := context.WithTimeout(ctx, timeout)
			err := p(pctx)
			pcancel()
			if ctx.Err() != nil {
				return
			}
			if err == nil {
				missed = 0
				continue
			}
			if missed++; missed >= ProbesMissed {
				gone()
				return
			}
		}
	}()
	return cancel
}

// keepPresence is watchPresence every every (Config.ProbeEvery), for a
// session's life.
func keepPresence(every time.Duration, p probe, gone func()) (stop func()) {
	t := time.NewTicker(every)
	stopWatch := watchPresence(t.C, every/2, p, gone)
	return func() {
		stopWatch()
		t.Stop()
	}
}
