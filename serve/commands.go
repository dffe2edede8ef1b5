package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/transcript"

	"github.com/charmbracelet/ssh"
)

// Command is what `ssh host NAME ARGS…` runs without a terminal: text on
// the client's stdout, one line on its stderr when it fails.
type Command struct {
	// Args are its arguments as the usage line shows them: "SCENE [SEED]".
	Args string
	// Run does it and returns the exit status: 0, 1 for a failure along
	// the way, 2 for bad arguments (said in one line on c.Err).
	Run func(ctx context.Context, c Call) int
}

// Call is one command's run.
type Call struct {
	Name string
	Args []string
	Out  io.Writer // the client's stdout
	Err  io.Writer // the client's stderr
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

// defaultCommands are the commands every server runs.
func defaultCommands() map[string]Command {
	return map[string]Command{
		"list":  {Run: listCmd},
		"plain": {Args: "SCENE [SEED]", Run: plainCmd},
		"cli":   {Args: "SCENE [SEED]", Run: cliCmd},
		"help":  {}, // answered by command itself: it knows the table
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
	args := sess.Command()
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
	return c.Run(sess.Context(), call)
}

func listCmd(_ context.Context, c Call) int {
	if len(c.Args) > 0 {
		return c.Usage("takes no arguments")
	}
	for _, sc := range scenes.All() {
		dive, title := scenes.Heading(sc.ID)
		fmt.Fprintf(c.Out, "%-12s %s · %s\n", sc.ID, title, dive)
	}
	return 0
}

// sceneArgs reads SCENE [SEED]; the seed is 1 without one, so a fetched
// text is the same each time.
func sceneArgs(c Call) (*scenes.Scene, uint64, error) {
	if len(c.Args) < 1 || len(c.Args) > 2 {
		return nil, 0, errors.New("needs a scene id, and a seed if you like (ssh HOST list shows the ids)")
	}
	sc := scenes.Find(c.Args[0])
	if sc == nil {
		return nil, 0, fmt.Errorf("unknown scene %q (ssh HOST list shows them)", c.Args[0])
	}
	seed := uint64(1)
	if len(c.Args) == 2 {
		n, err := strconv.ParseUint(c.Args[1], 10, 64)
		if err != nil || n == 0 {
			return nil, 0, fmt.Errorf("the seed must be a whole number above 0, got %q", c.Args[1])
		}
		seed = n
	}
	return sc, seed, nil
}

func plainCmd(ctx context.Context, c Call) int {
	sc, seed, err := sceneArgs(c)
	if err != nil {
		return c.Usage("%v", err)
	}
	b, done, err := c.Backend()
	if err != nil {
		return c.Fail(err)
	}
	defer done()
	if err := transcript.Plain(ctx, c.Out, b, sc.ID, seed); err != nil {
		return c.Fail(err)
	}
	return 0
}

// cliCmd writes the scene's story, played to its end with its default
// settings, as the redis-cli script the screen's y key saves.
func cliCmd(ctx context.Context, c Call) int {
	sc, seed, err := sceneArgs(c)
	if err != nil {
		return c.Usage("%v", err)
	}
	if sc.Kind == scenes.Quiz {
		return c.Usage("scene %s is a quiz: it sends no command to Redis", sc.ID)
	}
	b, done, err := c.Backend()
	if err != nil {
		return c.Fail(err)
	}
	defer done()
	snap, err := storyEnd(ctx, b, sc, seed)
	if err != nil {
		return c.Fail(err)
	}
	_, script := transcript.Export(scenes.Export{}, false, sc.ID, seed, snap)
	if _, err := c.Out.Write(script); err != nil {
		return 1
	}
	return 0
}

// storyEnd plays sc's story with its default settings to its end, headless,
// and returns the last snapshot.
func storyEnd(ctx context.Context, b *sim.Backend, sc *scenes.Scene, seed uint64) (sim.Snapshot, error) {
	s, err := play.NewSession(ctx, 1, sc, b, seed, &sync.WaitGroup{})
	if err != nil {
		return sim.Snapshot{}, err
	}
	defer s.Close(context.WithoutCancel(ctx))
	s.Predict, s.Headless = false, true
	d := play.Driver{S: s}
	d.Run(s.Start(nil))
	d.Run(s.SeekTo(len(s.Snap.Moves)))
	if s.Err != "" {
		return sim.Snapshot{}, errors.New(s.Err)
	}
	return s.Snap, nil
}
