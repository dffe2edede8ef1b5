package serve

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"locksim/sim"

	"github.com/charmbracelet/ssh"
)

// Command is what `ssh host NAME ARGS…` runs without a terminal: text on
// the client's stdout, one line on its stderr when it fails. The commands
// come from above (Config.Commands): this package only runs them.
type Command struct {
	// Args are its arguments as the usage line shows them: "SCENE [SEED]".
	Args string
	// Run does it and returns the exit status: 0, 1 for a failure along
	// the way, 2 for bad arguments (said in one line on c.Err).
	Run func(ctx context.Context, c Call) int
	// Child runs it in a process of its own when the server has
	// Config.Spawn (the process runs Run there): for the commands that
	// play a story, whose work a student may ask for a hundred times.
	Child bool
}

// Call is one command's run.
type Call struct {
	Name string
	Args []string
	Out  io.Writer // the client's stdout
	Err  io.Writer // the client's stderr
	// Query is a web page's query (/plain/s/CODE?answer=N); nil over SSH
	Query url.Values
	// Held are the scenes whose question a class of this server's class
	// store has open, seated here or on another server of it (Asker): a page or command of one of them shows nothing
	// past the question (no answer, no story past it). nil with no class
	// asking, and for an instructor's key over SSH (a web page knows no
	// key); a child process gets it by HeldEnv
	Held map[string]bool
	Who  Identity
	// Backend opens a server of the session's kind (embedded, or its own
	// prefix on the live one); close it with the func returned.
	Backend func() (*sim.Backend, func(), error)
}

// Usage is a command's usage error: one line on stderr, status 2.
func (c Call) Usage(format string, a ...any) int {
	fmt.Fprintf(c.Err, "locksim: %s: %s\n", c.Name, fmt.Sprintf(format, a...))
	return 2
}

// Fail says err in one line on stderr: status 1.
func (c Call) Fail(err error) int {
	fmt.Fprintf(c.Err, "locksim: %s: %v\n", c.Name, err)
	return 1
}

// defaultCommands are the commands every server runs: help alone. The
// others (list, plain, story, cast, cli…) are the command table's verbs,
// which locksim's commands (package cli) hand in by Config.Commands.
func defaultCommands() map[string]Command {
	return map[string]Command{
		"help": {}, // answered by command itself: it knows the table
	}
}

// commandNames are the commands with their arguments, sorted.
func (s *Server) commandNames() []string {
	var names []string
	for name, c := range s.commands {
		names = append(names, strings.TrimSpace(name+" "+c.Args))
	}
	slices.Sort(names)
	return names
}

// command runs the session's command and returns its exit status.
func (s *Server) command(sess ssh.Session, id Identity) int {
	args := slices.Clone(sess.Command())
	for i := range args[1:] {
		args[1+i] = s.resolveCode(args[1+i]) // a pointer y gave out, here and in a child alike
	}
	c, ok := s.commands[args[0]]
	call := Call{Name: args[0], Args: args[1:], Out: sess, Err: sess.Stderr(), Who: id,
		Backend: func() (*sim.Backend, func(), error) {
			b, err := s.openBackend(sess.Context())
			if err != nil {
				return nil, nil, err
			}
			return b, func() { s.closeBackend(b, id.ID) }, nil
		}}
	switch {
	case args[0] == "help":
		fmt.Fprintf(sess, "ssh commands: %s\nwithout one, ssh gives the course on your terminal\n", strings.Join(s.commandNames(), " · "))
		return 0
	case !ok:
		fmt.Fprintf(sess.Stderr(), "locksim: unknown command %q; the commands are: %s\n", args[0], strings.Join(s.commandNames(), ", "))
		return 2
	}
	s.cfg.Log.Printf("session %s: command %s", id.ID, strings.Join(args, " "))
	if a, ok := s.cfg.Class.(Asker); ok && !id.Instructor {
		// as a web page (webPage): a student of a class of this store
		// may run any command while the class is asked; an instructor's key reads
		// the answer key anyway
		call.Held = a.Asking(sess.Context())
	}
	if c.Child && s.cfg.Spawn != nil {
		return s.runChild(sess.Context(), call)
	}
	return c.Run(sess.Context(), call)
}
