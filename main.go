// Command locksim is an interactive terminal simulator of Redis distributed
// locks: every scene runs real commands against an embedded miniredis or a
// live Redis server and explains the replies it got.
package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"locksim/race"
	"locksim/scenes"
	"locksim/scenes/progress"
	"locksim/sim"
	"locksim/transcript"
	"locksim/tui"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-isatty"
	"github.com/muesli/termenv"
)

const usage = `locksim: watch Redis locks behave and break

usage: locksim [flags]

  -scene ID            open this scene (without it: the contents; -list shows the ids)
  -step N              with -scene: open it at step N (a slide can link to the moment)
  -set K=V,K=V         with -scene: open it with these settings, e.g. -set pause=70s,TTL=60s
                       (the names and values its settings line shows)
  -scenes ID,ID,...    the lesson's playlist: a step past the end of each scene's last
                       story opens the next one (presenter mode); opens the first
  -notes FILE          write the speaker notes for the step on screen to FILE at each
                       step (follow it with tail -f on a second screen)
  -no-quiz             do not stop at the predictions (a quick demo)
  -no-save             do not read or write the saved progress
  -reset-progress      delete the saved progress (asks first; -yes where there is no terminal)
  -no-mouse            leave the mouse to the terminal, so text can be selected and copied
  -theme T             default, or high-contrast for a washed-out projector
  -no-color            monochrome (NO_COLOR is honoured too)
  -present             presenter mode: ., pgdn and space step like a clicker, each decisive
                       point pauses for the class, N shows the speaker notes; a step at the
                       end opens the next story, then the next scene; the footer shows the
                       class time; esc asks before leaving a scene
  -list                print every scene's id, dive and title, then exit
  -plain               print the scene as a text transcript (the default without a terminal)
  -questions           with -plain: a handout for a class; each story stops at its question,
                       printed without its answer, and an answer key follows at the end
  -redis URL           use a live server, e.g. redis://127.0.0.1:6379/0 (keys go under a
                       locksim:<run>: prefix and are deleted on exit; nothing else is touched)
  -resource-redis URL  keep the protected resource on this server instead
  -redlock URL,URL,... the redlock scene's five nodes, A to E, as five live servers
                       (without it a live run keeps its five nodes on the -redis
                       server, which makes them one process with one clock)
  -scale N             on a live server, divide story time by N (default 20: PX 30000 is sent as PX 1500)
  -label               mark each story step in the command stream with ECHO "step N: label"
                       (on a live server, for MONITOR) and in the y export
  -seed N              draw tokens from seed N, so a transcript repeats (the race's winner is real)
  -timeout D           on a live server, give up on a command after D (default 400ms); its
                       outcome is then unknown
  -trials N            run the race N times for real for each way of acquiring (SET NX PX,
                       SETNX + EXPIRE, GET then SET, GET then DEL) and count the holders
  -crash-rate P        with -trials: the chance, 0 to 1, that a SETNX winner crashes
                       before its EXPIRE (default 0.1)
  -cleanup             with -redis: remove the keys of locksim runs that were killed (their
                       heartbeat has expired) and of exported replays, print them, and exit
  -export-dir DIR      y writes the story for redis-cli here (default: the config
                       directory's locksim/exports)
  -export-scale N      y divides every PX, script TTL and wait by N, 1 to 1000, for a
                       live replay in class (default: the run's own, -scale on a live server)
`

// redlockNodes is how many nodes the redlock scene's stories use.
const redlockNodes = 5

// maxTrials bounds -trials: a million trials of each variant take hours.
const maxTrials = 1_000_000

// maxScale bounds -scale; each scene caps it further, so that its smallest
// margin stays at least scenes.MinWire on the wire (Scene.Shortest).
const maxScale = 1000

// config is what the flags asked for.
type config struct {
	scene, redis, resource string
	redlock                []string
	trials                 int
	crashRate              float64
	trialsSet, redisEmpty  bool
	list, plain, cleanup   bool
	scale                  int
	timeout                time.Duration
	seed                   uint64
	seedSet, scaleSet      bool
	timeoutSet             bool
	step                   int
	set, notes             string
	playlist               []string
	noQuiz, noSave, yes    bool
	resetProgress, noMouse bool
	present, noColor       bool
	settings               scenes.Params
	label                  bool
	theme                  string
	questions              bool
	exportDir              string
	exportScale            int
}

func parse(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("locksim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.scene, "scene", "", "")
	fs.IntVar(&c.step, "step", 0, "")
	fs.StringVar(&c.set, "set", "", "")
	fs.StringVar(&c.notes, "notes", "", "")
	fs.Func("scenes", "", func(v string) error {
		for _, id := range strings.Split(v, ",") {
			id = strings.TrimSpace(id)
			if scenes.Find(id) == nil {
				return fmt.Errorf("unknown scene %q (locksim -list shows them)", id)
			}
			c.playlist = append(c.playlist, id)
		}
		return nil
	})
	fs.BoolVar(&c.noQuiz, "no-quiz", false, "")
	fs.BoolVar(&c.noSave, "no-save", false, "")
	fs.BoolVar(&c.resetProgress, "reset-progress", false, "")
	fs.BoolVar(&c.yes, "yes", false, "")
	fs.BoolVar(&c.noMouse, "no-mouse", false, "")
	fs.BoolVar(&c.present, "present", false, "")
	fs.BoolVar(&c.noColor, "no-color", false, "")
	fs.StringVar(&c.theme, "theme", "default", "")
	fs.BoolVar(&c.list, "list", false, "")
	fs.BoolVar(&c.plain, "plain", false, "")
	fs.BoolVar(&c.questions, "questions", false, "")
	fs.StringVar(&c.redis, "redis", "", "")
	fs.StringVar(&c.resource, "resource-redis", "", "")
	fs.Func("redlock", "", func(v string) error {
		for _, u := range strings.Split(v, ",") {
			if u = strings.TrimSpace(u); u == "" {
				return errors.New("an empty address in the list")
			}
			c.redlock = append(c.redlock, strings.TrimSpace(u))
		}
		if len(c.redlock) != redlockNodes {
			return fmt.Errorf("needs %d servers, one for each node of the redlock scene (A to E), got %d", redlockNodes, len(c.redlock))
		}
		return nil
	})
	fs.IntVar(&c.scale, "scale", sim.DefaultLiveScale, "")
	fs.Uint64Var(&c.seed, "seed", 0, "")
	fs.DurationVar(&c.timeout, "timeout", sim.DefaultTimeout, "")
	fs.BoolVar(&c.cleanup, "cleanup", false, "")
	fs.StringVar(&c.exportDir, "export-dir", "", "")
	fs.IntVar(&c.exportScale, "export-scale", 0, "")
	fs.BoolVar(&c.label, "label", false, "")
	fs.IntVar(&c.trials, "trials", 0, "")
	fs.Float64Var(&c.crashRate, "crash-rate", 0.1, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, fmt.Errorf("%v (locksim -h lists the flags)", err)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(f *flag.Flag) {
		c.seedSet = c.seedSet || f.Name == "seed"
		c.scaleSet = c.scaleSet || f.Name == "scale"
		c.timeoutSet = c.timeoutSet || f.Name == "timeout"
		c.trialsSet = c.trialsSet || f.Name == "trials"
		if f.Name == "redis" && c.redis == "" {
			c.redisEmpty = true
		}
	})
	if c.redisEmpty {
		return c, errors.New("-redis needs a URL, e.g. redis://127.0.0.1:6379/0")
	}
	if c.trialsSet {
		switch {
		case c.trials < 1:
			return c, fmt.Errorf("-trials must be 1 or more, got %d", c.trials)
		case c.trials > maxTrials:
			return c, fmt.Errorf("-trials must be at most %d, got %d", maxTrials, c.trials)
		case c.scene != "" && c.scene != "race":
			return c, fmt.Errorf("-trials: scene %s has no trials; the race has (-trials N alone means -scene race)", c.scene)
		case c.step > 0:
			return c, errors.New("-trials and -step do not go together: trials have no steps")
		}
	}
	if c.crashRate != 0.1 && !c.trialsSet {
		return c, errors.New("-crash-rate needs -trials: it sets the SETNX trials' crashes")
	}
	if !(c.crashRate >= 0 && c.crashRate <= 1) { // NaN too
		return c, fmt.Errorf("-crash-rate must be from 0 to 1, got %v", c.crashRate)
	}
	if c.scene != "" && scenes.Find(c.scene) == nil {
		return c, fmt.Errorf("unknown scene %q (locksim -list shows them)", c.scene)
	}
	if c.step < 0 || c.step > 0 && c.scene == "" {
		return c, errors.New("-step N needs -scene and N of 0 or more")
	}
	if c.set != "" && c.scene == "" {
		return c, errors.New("-set needs -scene: settings belong to one scene")
	}
	if c.notes != "" && (c.plain || c.list || c.cleanup || c.trialsSet) {
		return c, errors.New("-notes follows the interactive screen: it does not go with -plain, -list, -cleanup or -trials")
	}
	if sc := scenes.Find(c.scene); sc != nil {
		if sc.Kind == scenes.Quiz && c.step > 0 {
			return c, fmt.Errorf("-step %d: scene %s is a quiz, with no steps: it opens at its first situation", c.step, c.scene)
		}
		if c.set != "" {
			p, err := scenes.ParseSettings(sc, c.set)
			if err != nil {
				return c, err
			}
			c.settings = p
		}
		if n := len(sc.Script(c.settings).Moves); c.step > n {
			return c, fmt.Errorf("-step %d: scene %s has %d steps", c.step, c.scene, n)
		}
	}
	if c.scale < 1 || c.scale > maxScale {
		return c, fmt.Errorf("-scale must be from 1 to %d, got %d", maxScale, c.scale)
	}
	exportScaleSet := false
	fs.Visit(func(f *flag.Flag) { exportScaleSet = exportScaleSet || f.Name == "export-scale" })
	if exportScaleSet && (c.exportScale < 1 || c.exportScale > maxScale) {
		return c, fmt.Errorf("-export-scale must be from 1 to %d, got %d", maxScale, c.exportScale)
	}
	if c.questions && !c.plain {
		return c, errors.New("-questions needs -plain: it shapes the transcript into a handout")
	}
	if c.questions && c.trialsSet {
		return c, errors.New("-questions and -trials do not go together: the trials ask nothing")
	}
	if c.resource != "" && c.redis == "" {
		return c, errors.New("-resource-redis needs -redis as well")
	}
	if c.theme != "default" && c.theme != "high-contrast" {
		return c, fmt.Errorf("-theme must be default or high-contrast, got %q", c.theme)
	}
	if c.cleanup && c.redis == "" && len(c.redlock) > 0 {
		return c, errors.New("-cleanup takes one server: run it with -redis for each -redlock node")
	}
	if c.cleanup && c.redis == "" {
		return c, errors.New("-cleanup needs -redis: the embedded server keeps nothing")
	}
	if c.timeout <= 0 || c.timeout > time.Minute {
		return c, fmt.Errorf("-timeout must be above 0 and at most 1m, got %v", c.timeout)
	}
	return c, nil
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, so tests can call it: 0 on success, 2 on
// bad input or an unreachable server, 1 on a failure along the way.
func run(args []string, stdout, stderr io.Writer) int {
	c, err := parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 2
	}
	if c.list {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, s := range scenes.All() {
			dive, title := scenes.Heading(s.ID)
			fmt.Fprintf(tw, "%s\t%s\t%s\n", s.ID, dive, title)
			if len(s.EmbeddedOnly) > 0 {
				fmt.Fprintf(tw, "\t\tneeds the embedded server: %s\n", strings.Join(s.EmbeddedOnly, ", "))
			}
		}
		tw.Flush()
		return 0
	}
	if !c.seedSet {
		// short enough to read off the screen and type back with -seed
		var b [8]byte
		_, _ = rand.Read(b[:])
		c.seed = 1 + binary.LittleEndian.Uint64(b[:])%99999
	}

	// Every way out runs the cleanup below: with SIGPIPE caught, a closed
	// pipe turns into a write error instead of killing the process with
	// keys still on a live server.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	defer stop()
	if c.cleanup {
		return cleanup(ctx, c, stdout, stderr)
	}
	if c.resetProgress {
		return resetProgress(c, os.Stdin, stdout, stderr)
	}
	if c.redis == "" && c.scaleSet {
		fmt.Fprintln(stderr, "locksim: -scale only applies with -redis: the embedded server's clock is virtual")
	}
	if c.redis == "" && c.timeoutSet {
		fmt.Fprintln(stderr, "locksim: -timeout only applies with -redis: the embedded server answers in-process")
	}
	b, err := open(ctx, c, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 2
	}
	b.Label = c.label
	code := 0
	tty := isatty.IsTerminal(os.Stdout.Fd()) && isatty.IsTerminal(os.Stdin.Fd())
	switch {
	case c.trialsSet && (c.plain || !tty || stdout != os.Stdout):
		code = plainTrials(ctx, c, b, stdout, stderr)
	case c.trialsSet:
		code = interactiveTrials(ctx, c, b, stderr)
	case c.plain || !tty || stdout != os.Stdout:
		code = plain(ctx, c, b, stdout, stderr)
	default:
		code = interactive(ctx, c, b, stderr)
	}
	// One deadline for everything that is left: a stalled server must not
	// turn quitting into a hang.
	cctx, cancel := context.WithTimeout(context.Background(), shutdownWithin*2/3)
	defer cancel()
	if err := b.Close(cctx); err != nil {
		fmt.Fprintf(stderr, "locksim: %v; once the server answers, locksim -cleanup -redis URL removes them\n", err)
		return 1
	}
	return code
}

// shutdownWithin bounds quitting: deleting the run's keys on a fresh
// connection, whatever the server is doing.
const shutdownWithin = time.Second

// plain writes the transcript.
func plain(ctx context.Context, c config, b *sim.Backend, stdout, stderr io.Writer) int {
	return printed(ctx, stdout, stderr, "the transcript", "interrupted", func(w io.Writer) error {
		return transcript.PlainWith(ctx, w, b, c.scene, c.seed, transcript.PlainOptions{Questions: c.questions, Settings: c.settings})
	})
}

// printed runs write on stdout and says how it ended: 0 when it finished
// or the reader closed the pipe (| head: it has all it wanted, and the keys
// are deleted next), 1 with one line when writing what, an interruption
// (said as interrupted) or write itself failed.
func printed(ctx context.Context, stdout, stderr io.Writer, what, interrupted string, write func(w io.Writer) error) int {
	w := &errWriter{w: stdout}
	err := write(w)
	switch {
	case errors.Is(w.err, syscall.EPIPE):
		return 0
	case w.err != nil:
		fmt.Fprintf(stderr, "locksim: writing %s: %v\n", what, w.err)
		return 1
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "locksim: "+interrupted)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	return 0
}

// trialsConfig is the trials' settings from the flags.
func trialsConfig(c config) race.Config {
	cfg := race.DefaultConfig(c.seed)
	cfg.CrashRate = c.crashRate
	return cfg
}

// plainTrials prints the table of -trials N; ctrl+c stops it with the
// counts so far.
func plainTrials(ctx context.Context, c config, b *sim.Backend, stdout, stderr io.Writer) int {
	return printed(ctx, stdout, stderr, "the table", "interrupted: the table counts the trials that finished", func(w io.Writer) error {
		return transcript.PlainTrials(ctx, w, b, c.trials, trialsConfig(c))
	})
}

// interactiveTrials shows -trials N with a progress bar and a histogram.
func interactiveTrials(ctx context.Context, c config, b *sim.Backend, stderr io.Writer) int {
	r := lipgloss.NewRenderer(os.Stdout)
	if c.noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	t, err := tui.NewTrials(b, c.trials, trialsConfig(c), views.NewStyles(r, c.theme == "high-contrast"))
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	t.Standalone = true
	defer func() {
		t.Close()
		wctx, cancel := context.WithTimeout(context.Background(), shutdownWithin/3)
		defer cancel()
		t.Wait(wctx)
	}()
	p := tea.NewProgram(trialsScreen{t}, tea.WithAltScreen(), tea.WithContext(ctx), tea.WithoutSignalHandler())
	_, err = p.Run()
	// the counts outlive the screen: the alternate screen is gone now
	fmt.Fprint(os.Stdout, t.Summary())
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	if n := t.Bugs(); n > 0 {
		fmt.Fprintf(stderr, "locksim: %d atomic trials did not end with one holder\n", n)
		return 1
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "locksim: interrupted")
		return 1
	}
	return 0
}

// trialsScreen sizes the trials page to the terminal.
type trialsScreen struct{ t *tui.Trials }

func (s trialsScreen) Init() tea.Cmd { return s.t.Init() }

func (s trialsScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(tea.WindowSizeMsg); ok {
		s.t.SetSize(m.Width, m.Height)
		return s, nil
	}
	_, cmd := s.t.Update(msg)
	return s, cmd
}

func (s trialsScreen) View() string { return s.t.View() }

// interactive runs the TUI until q, ctrl+c or a signal.
func interactive(ctx context.Context, c config, b *sim.Backend, stderr io.Writer) int {
	// the screen's own renderer: its colour profile follows the terminal
	// and NO_COLOR; -no-color forces monochrome
	r := lipgloss.NewRenderer(os.Stdout)
	if c.noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	st := views.NewStyles(r, c.theme == "high-contrast")
	o := tui.Options{Seed: c.seed, Scene: c.scene, Step: c.step, Settings: c.settings, Scenes: c.playlist, Notes: c.notes,
		NoQuiz: c.noQuiz, Present: c.present, Warn: stderr, Styles: &st}
	o.Export = scenes.Export{Dir: c.exportDir, Scale: c.exportScale}
	if c.notes != "" {
		// said now, in one line, rather than on the projector at the first step
		if err := os.WriteFile(c.notes, nil, 0o644); err != nil {
			fmt.Fprintf(stderr, "locksim: -notes: %v\n", err)
			return 2
		}
	}
	if !c.noSave {
		path, err := progress.DefaultPath()
		if err != nil {
			fmt.Fprintf(stderr, "locksim: %v; progress will not be saved\n", err)
		} else {
			o.Store = &progress.Store{Path: path}
		}
	}
	app, err := tui.NewCourse(b, o)
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	// The signals are ours (ctx above): Bubble Tea's own handler would race
	// the cancelled context and hang the shutdown. Mouse capture stops a
	// terminal from selecting text: -no-mouse leaves it to the terminal.
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx), tea.WithoutSignalHandler()}
	if !c.noMouse {
		opts = append(opts, tea.WithMouseAllMotion())
	}
	p := tea.NewProgram(app, opts...)
	if c.present {
		// the class clock in the footer moves on between clicks
		clock, done := time.NewTicker(15*time.Second), make(chan struct{})
		defer func() { clock.Stop(); close(done) }()
		go func() {
			for {
				select {
				case <-clock.C:
					p.Send(tui.ClockTick{})
				case <-done:
					return
				}
			}
		}()
	}
	_, err = p.Run()
	app.SaveProgress()
	// a third of the quitting deadline to let the moves in flight end; the rest
	// is the backend's cleanup, on a fresh connection
	sctx, cancel := context.WithTimeout(context.Background(), shutdownWithin/3)
	defer cancel()
	app.Shutdown(sctx)
	switch {
	case ctx.Err() != nil || app.Interrupted():
		// ctrl+c arrives as a key in raw mode; it ends the run as SIGINT
		// and SIGTERM do
		fmt.Fprintln(stderr, "locksim: interrupted")
		return 1
	case err != nil && !errors.Is(err, tea.ErrProgramKilled):
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	return 0
}

// resetProgress is -reset-progress: it asks first, unless -yes.
func resetProgress(c config, in io.Reader, stdout, stderr io.Writer) int {
	path, err := progress.DefaultPath()
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	if !c.yes {
		if f, ok := in.(*os.File); !ok || !isatty.IsTerminal(f.Fd()) {
			fmt.Fprintln(stderr, "locksim: -reset-progress asks before it deletes; without a terminal, add -yes")
			return 2
		}
		fmt.Fprintf(stdout, "delete the saved progress in %s? [y/N] ", path)
		var answer string
		fmt.Fscanln(in, &answer)
		if answer != "y" && answer != "Y" && answer != "yes" {
			fmt.Fprintln(stdout, "nothing deleted")
			return 0
		}
	}
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(stdout, "no saved progress to delete (%s)\n", path)
		return 0
	}
	if err := (&progress.Store{Path: path}).Reset(); err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "progress deleted (%s)\n", path)
	return 0
}

// cleanup is -cleanup: remove the keys of dead runs and of exported
// replays (locksim:replay:), and say which.
func cleanup(ctx context.Context, c config, stdout, stderr io.Writer) int {
	n, err := sim.CleanupLive(ctx, c.redis, c.timeout, func(k string) { fmt.Fprintf(stdout, "removed %s\n", k) })
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s of dead locksim runs and of exported replays removed; keys of runs still alive were left alone\n", sim.KeyCount(n))
	if n == 0 {
		fmt.Fprintf(stdout, "(a run killed less than %v ago still has its heartbeat: try again after that)\n", sim.HeartbeatTTL)
	}
	return 0
}

// open starts the embedded server, or connects to the live one(s).
func open(ctx context.Context, c config, stderr io.Writer) (*sim.Backend, error) {
	if c.redis == "" && len(c.redlock) == 0 {
		return sim.OpenEmbedded()
	}
	addr := c.redis
	if addr == "" {
		addr = c.redlock[0] // the other scenes run on the first node
	}
	o := sim.LiveOptions{Scale: c.scale, Timeout: c.timeout}
	b, err := sim.OpenLive(ctx, addr, o)
	if err != nil {
		return nil, err
	}
	if b.Swept > 0 {
		fmt.Fprintf(stderr, "locksim: removed %s left by locksim runs that were killed (their heartbeat had expired)\n", sim.KeyCount(b.Swept))
	}
	if c.resource != "" {
		r, err := sim.OpenLive(ctx, c.resource, o)
		if err != nil {
			_ = b.Close(context.Background())
			return nil, fmt.Errorf("-resource-redis: %w", err)
		}
		b.SetResourceStore(r)
	}
	if len(c.redlock) > 0 {
		if err := openNodes(ctx, b, c.redlock, o, stderr); err != nil {
			_ = b.Close(context.Background())
			return nil, err
		}
	}
	return b, nil
}

// openNodes connects to the redlock scene's live servers, each with the
// same preflight, prefix and cleanup as the main one. Nodes that are one
// server (two databases of it, or the same address twice) are accepted
// with a warning: they share one process and one clock.
func openNodes(ctx context.Context, b *sim.Backend, urls []string, o sim.LiveOptions, stderr io.Writer) error {
	var nodes []*sim.Backend
	seen := map[string]int{}
	for i, u := range urls {
		n, err := sim.OpenLive(ctx, u, o)
		if err != nil {
			for _, m := range nodes {
				_ = m.Close(context.Background())
			}
			return fmt.Errorf("-redlock node %d: %w", i+1, err)
		}
		if j, ok := seen[n.Addr()]; ok {
			fmt.Fprintf(stderr, "locksim: -redlock nodes %d and %d are on one server (%s): they share one process and one clock, so they are not independent\n", j+1, i+1, n.Addr())
		}
		seen[n.Addr()] = i
		nodes = append(nodes, n)
	}
	b.SetNodes(nodes)
	return nil
}

// errWriter remembers the first write error and swallows the rest, so a
// transcript into a closed pipe or a full disk fails once, clearly.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
