package serve

import (
	"io"
	"net"
	"sync"
	"time"
)

// The defaults of the connections one address may open (Config.ConnBurst,
// ConnEvery): a burst, then one each ConnEvery (20 a second). A class
// behind one router opens its sessions and loads its pages within them;
// a flood of connections is refused as it is accepted, before the SSH
// key exchange or the HTTP request costs the server anything.
const (
	DefaultConnBurst = 100
	DefaultConnEvery = 50 * time.Millisecond
)

// limited is a listener that refuses, as they are accepted, the
// connections of an address beyond its bucket: each gets line (when
// not nil), written at once, and is closed.
type limited struct {
	net.Listener
	line []byte

	mu sync.Mutex
	b  buckets
	// refusing holds a slot for each refused connection still being
	// answered
	refusing chan struct{}
}

// refusingAtOnce is how many refused connections are answered at once;
// beyond, a refused connection is closed without its line.
const refusingAtOnce = 64

// limitListener wraps l with the server's connection budget per address.
func (s *Server) limitListener(l net.Listener, line string) net.Listener {
	lim := &limited{Listener: l, b: buckets{burst: s.cfg.ConnBurst, every: s.cfg.ConnEvery}, refusing: make(chan struct{}, refusingAtOnce)}
	if line != "" {
		lim.line = []byte(line)
	}
	return lim
}

func (l *limited) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		ok, _ := l.b.take(hostOf(c.RemoteAddr()), time.Now())
		l.mu.Unlock()
		if ok {
			return c, nil
		}
		select {
		case l.refusing <- struct{}{}:
			go func() {
				defer func() { <-l.refusing }()
				l.refuse(c)
			}()
		default:
			_ = c.Close()
		}
	}
}

// refuseWait is the longest a refused connection is given to take its
// line and go.
const refuseWait = time.Second

// refuse says the line on c and closes it: its write side first, then,
// once the client has gone or refuseWait has passed, the rest; what the
// client sent meanwhile is read and dropped, so that closing does not
// reset the connection before the client has read the line.
func (l *limited) refuse(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(refuseWait))
	if l.line == nil {
		return
	}
	if _, err := c.Write(l.line); err != nil {
		return
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
}

// refusedSSH is what an SSH client refused at accept is sent: a line
// before the version string, which RFC 4253 (4.2) lets a server send
// and clients show or log.
const refusedSSH = "locksim: too many connections from your address at once; try again in a few seconds\r\n"

// refusedHTTP is what an HTTP client refused at accept is sent: a 429
// with the line as its body.
const refusedHTTP = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: 85\r\n\r\n" +
	"locksim: too many connections from your address at once; try again in a few seconds\r\n"
