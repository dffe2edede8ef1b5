package serve

import (
	"io"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
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

// HandshakesAtOnce is how many SSH handshakes (the key exchange, up to the
// client's first try to authenticate) one address has in progress at once;
// its other connections wait their turn, in the order they came. A key
// exchange is the costliest thing a connection asks before it is known
// (ML-KEM and X25519, and an Ed25519 signature: about half a millisecond
// of a core); without a bound, the 100 connections of one address's
// accept burst are 100 key exchanges run at once, which the sessions'
// frames queue behind. A class behind one router waits for each other's
// handshakes, not for a refusal.
const HandshakesAtOnce = 4

// handshakeHold is the longest one handshake keeps its address's turn: a
// client that stalls in its handshake lets the next one go after it, so
// that one stalled client does not hold up its address.
const handshakeHold = 2 * time.Second

// handshakes orders the SSH handshakes of each address (HandshakesAtOnce).
type handshakes struct {
	mu sync.Mutex
	// hold is the longest a turn is held (handshakeHold; tests set it)
	hold time.Duration
	by   map[string]*turns
}

// turns is one address's handshakes: a slot of sem for each in progress,
// users counting those in progress and waiting.
type turns struct {
	sem   chan struct{}
	users int
}

// wait waits for a turn of addr's handshakes and returns what ends it
// (idempotent: the first auth callback, the connection's close, or
// handshakeHold, whichever comes first), or false when done closed first.
func (h *handshakes) wait(done <-chan struct{}, addr string) (end func(), ok bool) {
	h.mu.Lock()
	if h.by == nil {
		h.by = map[string]*turns{}
	}
	t := h.by[addr]
	if t == nil {
		t = &turns{sem: make(chan struct{}, HandshakesAtOnce)}
		h.by[addr] = t
	}
	t.users++
	hold := h.hold
	h.mu.Unlock()
	leave := func() {
		h.mu.Lock()
		if t.users--; t.users == 0 {
			delete(h.by, addr)
		}
		h.mu.Unlock()
	}
	select {
	case t.sem <- struct{}{}:
	case <-done:
		leave()
		return nil, false
	}
	var once sync.Once
	end = func() {
		once.Do(func() {
			<-t.sem
			leave()
		})
	}
	time.AfterFunc(hold, end)
	return end, true
}

// handshakeEnd is the key of the ssh.Context value that ends a
// connection's handshake turn.
type handshakeEnd struct{}

// takeTurn is the SSH server's ConnCallback: the connection waits for its
// address's turn (HandshakesAtOnce) before its key exchange; the turn
// ends at its first try to authenticate (authenticated), at its close,
// or after handshakeHold.
func (s *Server) takeTurn(ctx ssh.Context, c net.Conn) net.Conn {
	end, ok := s.handshakes.wait(s.ctx.Done(), hostOf(c.RemoteAddr()))
	if !ok {
		return nil
	}
	ctx.SetValue(handshakeEnd{}, end)
	return &turnConn{Conn: c, end: end}
}

// authenticated ends ctx's handshake turn: its key exchange is done.
func authenticated(ctx ssh.Context) {
	if end, ok := ctx.Value(handshakeEnd{}).(func()); ok {
		end()
	}
}

// turnConn ends its handshake turn when it closes.
type turnConn struct {
	net.Conn
	end func()
}

func (c *turnConn) Close() error {
	c.end()
	return c.Conn.Close()
}
