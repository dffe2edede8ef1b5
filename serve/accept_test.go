package serve

import (
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"locksim/serve/termtest"

	gossh "golang.org/x/crypto/ssh"
)

// TestRefusedAtAccept: an address's connections beyond its burst are
// refused as they are accepted, on both transports, with one line and
// before anything else (no SSH version string, no page): the client
// reads the line and the end of the connection; another address is let
// in.
func TestRefusedAtAccept(t *testing.T) {
	t.Parallel()
	onBoth(t, Config{ConnBurst: 5, ConnEvery: time.Hour}, func(t *testing.T, s *Server, d termtest.Dialer, addr string) {
		to := addr
		if d.Name == "web" {
			to = strings.TrimPrefix(d.Base(), "http://")
		}
		dial := func() net.Conn {
			c, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.9")}, Timeout: termtest.Hang}).Dial("tcp", to)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}
		for range 5 {
			dial()
		}
		c := dial()
		if d.Name == "web" {
			_, _ = io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		}
		_ = c.SetReadDeadline(time.Now().Add(termtest.Hang))
		got, err := io.ReadAll(c)
		if err != nil {
			t.Fatalf("the refused connection: %v (read %q)", err, got)
		}
		want := refusedSSH
		if d.Name == "web" {
			want = refusedHTTP
		}
		if string(got) != want {
			t.Fatalf("the refused connection read %q, want %q", got, want)
		}
		d.From("127.0.0.10").New(t).Open(t, termtest.At{}, 80, 24).WaitFor("1  race")
	})
}

// TestHandshakesTakeTurns: one address's SSH handshakes take turns,
// HandshakesAtOnce at once: connections that have not finished theirs
// (here, clients that send nothing) hold the address's turns, and the
// next connection of that address is not answered (no version string)
// until one of them closes; another address's client gets in meanwhile.
func TestHandshakesTakeTurns(t *testing.T) {
	t.Parallel()
	s, addr := testServer(t, Config{})
	// the turns are held until their connections close, however slow the
	// machine
	s.handshakes.mu.Lock()
	s.handshakes.hold = time.Hour
	s.handshakes.mu.Unlock()
	dial := func() net.Conn {
		c, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.11")}, Timeout: termtest.Hang}).Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	banner := func(c net.Conn, within time.Duration) (string, error) {
		_ = c.SetReadDeadline(time.Now().Add(within))
		buf := make([]byte, 8)
		n, err := io.ReadFull(c, buf)
		return string(buf[:n]), err
	}
	var held []net.Conn
	for range HandshakesAtOnce {
		c := dial()
		if got, err := banner(c, termtest.Hang); got != "SSH-2.0-" {
			t.Fatalf("a connection within the address's turns read %q, %v; want the version string", got, err)
		}
		held = append(held, c)
	}
	next := dial()
	// no answer while the turns are held (a machine too slow to answer
	// in this time passes this check, never fails it)
	if got, err := banner(next, 200*time.Millisecond); got != "" || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a connection beyond the address's turns read %q, %v; want nothing yet", got, err)
	}
	termtest.OpenLight(t, mustDialFrom(t, "127.0.0.12", addr), 80, 24, "").Wait(t, "1  race")
	held[0].Close()
	if got, err := banner(next, termtest.Hang); got != "SSH-2.0-" {
		t.Fatalf("once a turn was free the waiting connection read %q, %v; want the version string", got, err)
	}
}

func mustDialFrom(t *testing.T, from, addr string) *gossh.Client {
	t.Helper()
	c, err := termtest.DialFrom(from, addr, "student", termtest.NewKey(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
