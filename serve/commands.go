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
	"locksim/storycode"
	"locksim/transcript"
	"locksim/tui"

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
		"cli":   {Args: "SCENE [SEED] | CODE", Run: cliCmd},
		"story": {Args: "CODE", Run: storyCmd},
		"cast":  {Args: "CODE [WxH]", Run: castCmd},
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
// settings, as the redis-cli script the screen's y key saves; given a
// story code (y shows one), the code's story to its step.
func cliCmd(ctx context.Context, c Call) int {
	if len(c.Args) == 1 && strings.Contains(c.Args[0], ".") {
		return cliCode(ctx, c)
	}
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

// codeArg reads the one story code a command takes (y shows it, a
// transcript ends each story with it).
func codeArg(c Call, most int) (play.Position, error) {
	if len(c.Args) < 1 || len(c.Args) > most {
		return play.Position{}, errors.New("needs a story code, as y shows it or a transcript prints it")
	}
	return storycode.Decode(c.Args[0])
}

// storyCmd writes the transcript of the story a code carries, to the step
// it stands at; on a terminal (ssh -t) the course opens there instead.
func storyCmd(ctx context.Context, c Call) int {
	pos, err := codeArg(c, 1)
	if err != nil {
		return c.Usage("%v", err)
	}
	if pos.Quiz != nil {
		return c.Usage("the code is a place in the quiz %s, which has no story to print; open it with ssh -t HOST story CODE", pos.Scene)
	}
	b, done, err := c.Backend()
	if err != nil {
		return c.Fail(err)
	}
	defer done()
	if err := transcript.PlainPosition(ctx, c.Out, b, pos); err != nil {
		return c.Fail(err)
	}
	return 0
}

// castCmd writes the story a code carries as an asciicast v2 file, on an
// embedded server of its own whatever the server plays on: a cast is the
// same bytes for the same code only where the clock is virtual.
func castCmd(ctx context.Context, c Call) int {
	pos, err := codeArg(c, 2)
	if err != nil {
		return c.Usage("%v", err)
	}
	o := tui.CastOptions{Width: 80, Height: 24}
	if len(c.Args) == 2 {
		w, h, ok := strings.Cut(c.Args[1], "x")
		var err1, err2 error
		o.Width, err1 = strconv.Atoi(w)
		o.Height, err2 = strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || o.Width < tui.MinWidth || o.Height < tui.MinHeight || o.Width > 400 || o.Height > 200 {
			return c.Usage("the size must be WxH from %dx%d to 400x200, got %q", tui.MinWidth, tui.MinHeight, c.Args[1])
		}
	}
	b, err := sim.OpenEmbedded()
	if err != nil {
		return c.Fail(err)
	}
	defer b.Close(context.WithoutCancel(ctx))
	if err := tui.Cast(ctx, c.Out, b, pos, o); err != nil {
		return c.Fail(err)
	}
	return 0
}

// cliCode is cli CODE: the redis-cli script of the story a code carries,
// played to the code's step with the learner's own moves, as y would have
// saved it on a terminal of one's own.
func cliCode(ctx context.Context, c Call) int {
	pos, err := storycode.Decode(c.Args[0])
	if err != nil {
		return c.Usage("%v", err)
	}
	if pos.Quiz != nil {
		return c.Usage("the code is a place in the quiz %s: it sends no command to Redis", pos.Scene)
	}
	b, done, err := c.Backend()
	if err != nil {
		return c.Fail(err)
	}
	defer done()
	s, err := play.Open(ctx, pos, b)
	if err != nil {
		return c.Fail(err)
	}
	defer s.Close(context.WithoutCancel(ctx))
	if len(s.Snap.Nodes) > 0 {
		return c.Usage("the story of %s runs on %d servers: one redis-cli cannot replay it", pos.Scene, len(s.Snap.Nodes))
	}
	_, script := transcript.Export(scenes.Export{}, false, s.Scene.ID, pos.Seed, s.Snap)
	if _, err := c.Out.Write(script); err != nil {
		return 1
	}
	return 0
}
