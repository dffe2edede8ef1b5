package serve

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"locksim/serve/termtest"
)

// TestRefusedAtAccept: an address's connections beyond its burst are
// refused as they are accepted, on both transports, with one line and
// before anything else (no SSH version string, no page): the client
// reads the line and the end of the connection; another address is let
// in.
func TestRefusedAtAccept(t *testing.T) {
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
