// The verbs the command line runs: each is a func(ctx, e, c, b) int of
// the table (cli.go), and the cores a verb shares with its SSH form.

package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"locksim/buildinfo"
	"locksim/check"
	"locksim/play"
	"locksim/race"
	"locksim/scenes"
	"locksim/scenes/progress"
	"locksim/sim"
	"locksim/storycode"
	"locksim/transcript"
	"locksim/tui"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-isatty"
	"github.com/muesli/termenv"
)

// list is -list: every scene's id, title and dive.
// printVersion prints -version: this build's version (buildinfo), and
// the story-code format it writes and reads (storycode.Version), which is
// what decides whether a code made by another build opens in this one.
func printVersion(_ context.Context, e *env, _ config, _ *sim.Backend) int {
	fmt.Fprintf(e.out, "locksim %s\nstory codes: format %d\n", buildinfo.Version(), storycode.Version)
	return 0
}

func list(_ context.Context, e *env, _ config, _ *sim.Backend) int {
	writeList(e.out, false)
	return 0
}

// writeList writes the scenes: on the command line the id and title on
// one line, the source and any story that needs the embedded server under
// them, every line within 80 columns; oneLine (ssh HOST list) puts the id,
// title and source on one line.
func writeList(w io.Writer, oneLine bool) {
	for _, s := range scenes.All() {
		dive, title := scenes.Heading(s.ID)
		if oneLine {
			fmt.Fprintf(w, "%-12s %s · %s\n", s.ID, title, dive)
			continue
		}
		fmt.Fprintf(w, "%-12s %s\n%-12s %s\n", s.ID, title, "", dive)
		if len(s.EmbeddedOnly) > 0 {
			fmt.Fprintf(w, "%-12s needs the embedded server: %s\n", "", strings.Join(s.EmbeddedOnly, ", "))
		}
	}
}

// plain is -plain, and -story CODE -plain: the transcript.
func plain(ctx context.Context, e *env, c config, b *sim.Backend) int {
	if r := formsRefused(c, b); r != "" {
		fmt.Fprintf(e.err, "locksim: %s\n", r)
		return 2
	}
	return printed(ctx, e.out, e.err, "the transcript", "interrupted", func(w io.Writer) error {
		return writeTranscript(ctx, w, b, c, transcript.PositionOptions{Role: play.Transcript, Answer: c.answer, GoOn: flagGoOn(c.story)})
	})
}

// flagGoOn, sshGoOn and webGoOn are the line a code's text stops with at
// its open question, on the command line, over SSH and on the web: how
// its reader answers and plays on, with the code as the reader gave it
// (a lab story's short pointer stays short).
func flagGoOn(code string) string {
	return fmt.Sprintf("give -answer N, N your choice's number: locksim -story %s -plain -answer N", code)
}

func sshGoOn(code string) string {
	return fmt.Sprintf("run it again with -answer N, N your choice's number: ssh HOST story %s -answer N", code)
}

func webGoOn(code string) string {
	return fmt.Sprintf("add ?answer=N to this page's address, N your choice's number: /plain/s/%s?answer=N", code)
}

// formsRefused is the one line that turns down the story -set or -story
// names when it sends a one-command form the server lacks ("DELIFEQ needs
// Valkey 9.0 or later; this server is Redis 7.0.15"); "" when it can play.
func formsRefused(c config, b *sim.Backend) string {
	switch {
	case c.position != nil:
		if sc := scenes.Find(c.position.Scene); sc != nil {
			return play.FormsRefusal(sc, scenes.Params(c.position.Settings), b)
		}
	case c.settings != nil:
		if sc := scenes.Find(c.scene); sc != nil {
			return play.FormsRefusal(sc, c.settings, b)
		}
	}
	return ""
}

// writeTranscript writes the transcript of -story's code (c.position) for
// its reader (who reads it, their answer and how they give one), or of
// -scene with its settings and seed, shaped by -questions.
func writeTranscript(ctx context.Context, w io.Writer, b *sim.Backend, c config, reader transcript.PositionOptions) error {
	if c.position != nil {
		return transcript.PlainPositionWith(ctx, w, b, *c.position, reader)
	}
	return transcript.PlainWith(ctx, w, b, c.scene, c.seed, transcript.PlainOptions{Questions: c.questions, Settings: c.settings})
}

// writeCast is -cast FILE: the story of -story CODE, or of -scene (to
// -step N, else to its end), or the whole course, as an asciicast v2
// file, written whole or not at all; "-" is stdout.
func writeCast(ctx context.Context, e *env, c config, b *sim.Backend) int {
	stdout, stderr := e.out, e.err
	var out bytes.Buffer
	if err := castStory(ctx, &out, b, c); err != nil {
		fmt.Fprintf(stderr, "locksim: -cast: %v\n", err)
		return 1
	}
	if c.cast == "-" {
		return printed(ctx, stdout, stderr, "the cast", "interrupted", func(w io.Writer) error {
			_, err := out.WriteTo(w)
			return err
		})
	}
	if err := os.WriteFile(c.cast, out.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "locksim: -cast: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (asciinema play %s plays it)\n", c.cast, c.cast)
	return 0
}

// castStory writes the cast of -story's code, or of -scene, or of the
// course, at -size (c.castW by c.castH).
func castStory(ctx context.Context, w io.Writer, b *sim.Backend, c config) error {
	o := tui.CastOptions{Width: c.castW, Height: c.castH, NoQuiz: c.noQuiz, HighContrast: c.theme == "high-contrast"}
	switch {
	case c.position != nil:
		return tui.Cast(ctx, w, b, *c.position, o)
	case c.scene != "":
		pos := play.Position{Version: play.PositionVersion, Scene: c.scene, Settings: c.settings, Seed: c.seed, Step: c.step}
		if !c.stepSet && scenes.Find(c.scene).Sends() {
			pos.Step = len(scenes.Find(c.scene).Script(c.settings).Moves)
		}
		return tui.Cast(ctx, w, b, pos, o)
	default:
		return tui.CastCourse(ctx, w, b, c.seed, o)
	}
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

// historyWaits is what -history says for the verdicts of a page written
// at or before its story's question.
const historyWaits = "the verdicts wait for the answer to the story's question: the page shows what each client sent and got back; write it from a step past the question for the rest"

// writeHistory is -history FILE.html: the story played to -step (or its
// end), checked, and written as porcupine's page; each model's finding goes to
// stdout.
func writeHistory(ctx context.Context, e *env, c config, b *sim.Backend) int {
	stdout, stderr := e.out, e.err
	// at or before the story's question the page holds what answers it
	// (transcript.History asks the disclosure rule), and so no verdict
	pos, toEnd := historyPlace(c)
	f, err := os.Create(c.history)
	if err != nil {
		fmt.Fprintf(stderr, "locksim: -history: %v\n", err)
		return 1
	}
	rep, err := transcript.History(ctx, f, b, pos, toEnd, check.DefaultTimeout)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(c.history)
		fmt.Fprintf(stderr, "locksim: -history: %v\n", err)
		return 1
	}
	if len(rep.Findings) == 0 {
		fmt.Fprintf(stdout, "wrote %s (seed %d): %s\n", c.history, c.seed, historyWaits)
		return 0
	}
	fmt.Fprintf(stdout, "wrote %s (seed %d): %s\n", c.history, c.seed, rep.Line())
	return 0
}

// trialsConfig is the trials' settings from the flags.
func trialsConfig(c config) race.Config {
	cfg := race.DefaultConfig(c.seed)
	cfg.CrashRate, cfg.Loss = c.crashRate, c.lossRate
	return cfg
}

// trials is -trials N: the table, or on a terminal without -plain the
// trials' screen.
func trials(ctx context.Context, e *env, c config, b *sim.Backend) int {
	if c.plain || !e.term {
		return plainTrials(ctx, c, b, e.out, e.err)
	}
	return interactiveTrials(ctx, c, b, e.err)
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
	t, err := tui.NewTrials(b, c.trials, trialsConfig(c), tui.NewCommon(views.NewStyles(r, c.theme == "high-contrast"), scenes.Export{}))
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

// course opens the course on the terminal (the default verb): the
// contents, -scene, -scenes, -story's code, or -lab's screen.
func course(ctx context.Context, e *env, c config, b *sim.Backend) int {
	if c.labDir != "" && !e.term {
		fmt.Fprintln(e.err, "locksim: -lab needs a terminal: the lab is a screen")
		return 2
	}
	if r := formsRefused(c, b); r != "" {
		fmt.Fprintf(e.err, "locksim: %s\n", r)
		return 2
	}
	return interactive(ctx, c, b, e.err)
}

// screenOptions are the screen's options the flags in c ask for: the
// lesson's playlist (-scenes) with or without -present.
func screenOptions(c config, stderr io.Writer) tui.Options {
	o := tui.Options{Seed: c.seed, Scene: c.scene, Step: c.step, Settings: c.settings, Scenes: c.playlist, Notes: c.notes,
		NoQuiz: c.noQuiz, Present: c.present, Warn: stderr, Lab: c.labDir}
	o.Export = scenes.Export{Dir: c.exportDir, Scale: c.exportScale}
	o.Position = c.position // -story CODE: a visit, never the saved place
	// -scene X (or -scenes) alone reopens where the learner left it: a
	// fresh start saved on quitting would lose that place
	o.Resume = !c.seedSet && !c.stepSet && c.set == ""
	o.Visit = c.position != nil
	return o
}

// interactive runs the TUI until q, ctrl+c or a signal.
func interactive(ctx context.Context, c config, b *sim.Backend, stderr io.Writer) int {
	// the screen's own renderer: its colour profile follows the terminal
	// and NO_COLOR; -no-color forces monochrome
	r := lipgloss.NewRenderer(os.Stdout)
	if c.noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	st := views.NewStyles(r, c.theme == "high-contrast")
	o := screenOptions(c, stderr)
	o.Styles = &st
	// said on stderr too, but before the alternate screen hides it
	o.Notice = sweptNote(b)
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
	if c.labDir != "" {
		if err := tui.CheckLab(c.labDir); err != nil {
			fmt.Fprintf(stderr, "locksim: %v\n", err)
			return 2
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
func resetProgress(_ context.Context, e *env, c config, _ *sim.Backend) int {
	in, stdout, stderr := e.in, e.out, e.err
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

// cleanup is -cleanup: remove the keys of registered runs whose heartbeat
// has expired and of registered replays, and say, a line each, what was
// removed and what was left alone, and why.
func cleanup(ctx context.Context, e *env, c config, _ *sim.Backend) int {
	stdout, stderr := e.out, e.err
	r, err := sim.CleanupLive(ctx, c.redis, c.timeout)
	for _, l := range r.Lines() {
		fmt.Fprintln(stdout, l)
	}
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		if _, before := errors.AsType[*sim.CheckError](err); before {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stdout, "%s removed, each under a registration locksim wrote; nothing else under locksim: was touched\n", sim.KeyCount(r.Keys()))
	if len(r.Alive) > 0 {
		fmt.Fprintf(stdout, "(a run killed less than %v ago still has its heartbeat: try again after that)\n", sim.HeartbeatTTL)
	}
	return 0
}

// sweptNote says what b's start sweep removed; "" when nothing.
func sweptNote(b *sim.Backend) string { return b.Swept.StartNote() }

// open starts the embedded server, or connects to the live one(s).
func open(ctx context.Context, c config, stderr io.Writer) (*sim.Backend, error) {
	if c.redis == "" && len(c.redlock) == 0 {
		return sim.OpenEmbedded()
	}
	addr := c.redis
	if addr == "" {
		addr = c.redlock[0] // the other scenes run on the first node
	}
	o := sim.LiveOptions{Scale: c.scale, Timeout: c.timeout, HeartbeatTTL: c.heartbeatTTL}
	b, err := sim.OpenLive(ctx, addr, o)
	if err != nil {
		return nil, err
	}
	if note := sweptNote(b); note != "" {
		fmt.Fprintf(stderr, "locksim: %s\n", note)
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
