//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package serve

import (
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/x/term"
)

// rawInput puts the session's pty (the program's input, see wish's
// bubbletea.MakeOptions) in raw mode, as Bubble Tea does only when it
// renders itself (see frames), and returns what puts it back. An error
// is returned as is: keys would wait for a return and be echoed.
func rawInput(p ssh.Pty) (restore func(), err error) {
	if p.Slave == nil {
		return func() {}, nil // input straight from the channel, already raw
	}
	fd := p.Slave.Fd()
	st, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	return func() { _ = term.Restore(fd, st) }, nil
}
