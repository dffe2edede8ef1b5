//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris)

package serve

import "github.com/charmbracelet/ssh"

// rawInput does nothing here: wish gives the program the channel itself,
// which carries the client's keys as its terminal sends them.
func rawInput(ssh.Pty) (restore func(), err error) { return func() {}, nil }
