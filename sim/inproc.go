package sim

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2/server"
)

// inprocConn is the backend's own connection to the embedded server
// (admin): each command runs in the goroutine that writes it, through the
// server's dispatch and its hooks, and its reply waits in a buffer for the
// read that follows. A pipe (dialPipe) costs the server two goroutines of
// its own and a hand-over between goroutines at every write and read; the
// backend's reads, deletes and sets run one at a time and never block, so
// nothing needs them. The commands and replies are the same bytes: only
// the way they travel differs. An actor's connection stays a pipe: a race
// needs its commands to meet at the server, and a blocked or lost reply
// its own goroutine. A stopped server (stop) refuses every later command,
// as its closed pipe would.
type inprocConn struct {
	b   *Backend
	srv *server.Server
	mu  sync.Mutex
	// in is what was written and is not yet a whole command; out the
	// replies not yet read, written by peer
	in     []byte
	out    bytes.Buffer
	peer   *server.Peer
	closed bool
}

// dialInproc is dialPipe for the backend's own connection: an inprocConn.
func (b *Backend) dialInproc(ctx context.Context, network, addr string) (net.Conn, error) {
	b.srvMu.Lock()
	srv := b.srv
	b.srvMu.Unlock()
	if srv == nil {
		return b.dialPipe(ctx, network, addr) // refused, as a pipe's dial is
	}
	c := &inprocConn{b: b, srv: srv}
	c.peer = server.NewPeer(bufio.NewWriterSize(&c.out, 512))
	return c, nil
}

// errCommand is a write that holds no command go-redis would send.
var errCommand = errors.New("embedded server: malformed command")

func (c *inprocConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || !c.serving() {
		return 0, io.ErrClosedPipe
	}
	c.in = append(c.in, p...)
	for len(c.in) > 0 {
		args, n, err := readCommand(c.in)
		if err != nil {
			c.closed = true
			return 0, err
		}
		if n == 0 {
			break // the rest comes with the next write
		}
		c.in = c.in[n:]
		c.srv.Dispatch(c.peer, args)
		c.peer.Flush()
		if c.peer.Closed() {
			c.closed = true // after this reply, as the server closes a pipe
			break
		}
	}
	if len(c.in) == 0 {
		c.in = nil
	}
	return len(p), nil
}

// serving reports that the server c was dialed to still runs.
func (c *inprocConn) serving() bool {
	c.b.srvMu.Lock()
	defer c.b.srvMu.Unlock()
	return c.b.srv == c.srv
}

func (c *inprocConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.out.Len() == 0 {
		// every command's reply is written before its Write returns: a
		// read with none waiting would wait for ever on a pipe
		return 0, io.EOF
	}
	return c.out.Read(p)
}

func (c *inprocConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return nil
}

// inprocAddr is an inprocConn's address, as a pipe's is "pipe".
type inprocAddr struct{}

func (inprocAddr) Network() string { return "pipe" }
func (inprocAddr) String() string  { return "pipe" }

func (c *inprocConn) LocalAddr() net.Addr                { return inprocAddr{} }
func (c *inprocConn) RemoteAddr() net.Addr               { return inprocAddr{} }
func (c *inprocConn) SetDeadline(t time.Time) error      { return nil }
func (c *inprocConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *inprocConn) SetWriteDeadline(t time.Time) error { return nil }

// readCommand reads one command from the start of buf as go-redis writes
// it, an array of bulk strings (*N, then $len and the bytes of each), and
// returns its words and the bytes it took; n is 0 when buf holds only the
// start of one.
func readCommand(buf []byte) (args []string, n int, err error) {
	line, rest, ok := cutLine(buf)
	if !ok {
		return nil, 0, nil
	}
	if len(line) < 2 || line[0] != '*' {
		return nil, 0, errCommand
	}
	count, err := strconv.Atoi(string(line[1:]))
	if err != nil || count < 1 {
		return nil, 0, errCommand
	}
	args = make([]string, 0, count)
	for range count {
		line, rest, ok = cutLine(rest)
		if !ok {
			return nil, 0, nil
		}
		if len(line) < 2 || line[0] != '$' {
			return nil, 0, errCommand
		}
		size, err := strconv.Atoi(string(line[1:]))
		if err != nil || size < 0 {
			return nil, 0, errCommand
		}
		if len(rest) < size+2 {
			return nil, 0, nil
		}
		if rest[size] != '\r' || rest[size+1] != '\n' {
			return nil, 0, errCommand
		}
		args = append(args, string(rest[:size]))
		rest = rest[size+2:]
	}
	return args, len(buf) - len(rest), nil
}

// cutLine cuts buf at its first "\r\n".
func cutLine(buf []byte) (line, rest []byte, ok bool) {
	i := bytes.Index(buf, []byte("\r\n"))
	if i < 0 {
		return nil, nil, false
	}
	return buf[:i], buf[i+2:], true
}
