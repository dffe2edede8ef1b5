package sim

import (
	"fmt"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
)

// guardPanics makes a command that panics inside the embedded server fail
// with an error reply instead of ending the process: miniredis serves each
// connection in a goroutine of its own with no recover, and one session's
// fault must not take down a server other sessions share a process with.
// The hook dispatches the command itself under a recover; the dispatch
// comes back through the hook, which lets it through. After a fault the
// server may hold its lock for ever, so b.faulted makes Close leave it be.
func (b *Backend) guardPanics(srv *server.Server) {
	var inside sync.Map // *server.Peer → dispatching through the hook
	srv.SetPreHook(func(c *server.Peer, cmd string, args ...string) (done bool) {
		if _, again := inside.LoadOrStore(c, true); again {
			return false
		}
		defer inside.Delete(c)
		defer func() {
			if r := recover(); r != nil {
				b.faulted.Store(true)
				c.WriteError(fmt.Sprintf("ERR the embedded server failed on %s: %v", cmd, r))
				c.Close()
				done = true // the command is answered: Dispatch must not run it again
			}
		}()
		if h := b.scripts.Load(); h != nil && (*h)(c, cmd, args) {
			return true
		}
		srv.Dispatch(c, append([]string{cmd}, args...))
		return true
	})
}

// ScriptHook answers a command on the embedded server before miniredis
// does, writing its reply to c; it reports whether it answered. cmd is
// upper case. It runs on the connection's goroutine, under guardPanics'
// recover.
type ScriptHook func(c *server.Peer, cmd string, args []string) bool

// SetScriptHook makes h answer commands on the embedded server ahead of
// miniredis (nil: none), for a host that must run some scripts under
// limits miniredis's own Lua has none of (the lab's). miniredis has one
// pre-hook, which guardPanics holds: h is called from it, so a panic in h
// is contained as any command's, and a restart keeps h. On a live server
// it does nothing.
func (b *Backend) SetScriptHook(h ScriptHook) {
	if h == nil {
		b.scripts.Store(nil)
		return
	}
	b.scripts.Store(&h)
}

// Embedded is the embedded server itself, nil on a live one: for a test
// that changes a key behind the story's back or makes a command fail, as
// another client or the server itself could.
func (b *Backend) Embedded() *miniredis.Miniredis { return b.mr }

// SetCommandTimeout makes the connections b opens from now on wait at most
// d for a reply, as -timeout does on a live server: for a test of a
// command that gets none, without go-redis's default of 3 s.
func (b *Backend) SetCommandTimeout(d time.Duration) {
	b.opts.ReadTimeout, b.opts.WriteTimeout = d, d
}
