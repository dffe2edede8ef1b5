// Package cli is locksim's commands: one table of verbs (open the course,
// plain, story, cast, cli, list, history, trials, grade, serve, cleanup,
// reset-progress), each with its flags, its one-line errors and its exit
// codes, used alike by the command line and by the SSH server's commands.
//
// The command line keeps its flags (locksim -scene fencing -plain): the
// flags are parsed and checked once (flags.go), and the table's first verb
// whose flags are given runs. Over SSH (ssh HOST plain race), a verb with
// an SSH form runs by its name: cli hands the SSH server those forms
// (serve.Config.Commands), so a verb is written once for both.
//
// Exit codes: 0 on success, 2 on bad input (one line on stderr, before
// anything is done) or an unreachable server, 1 on a failure along the
// way (one line too).
package cli

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
	"runtime"
	"syscall"
	"time"

	"locksim/runner"
	"locksim/serve"
	"locksim/sim"

	"github.com/mattn/go-isatty"
)

// Main runs locksim's command line, args without the program's name, and
// returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runHeartbeat(args, 0, stdin, stdout, stderr)
}

// Process is Main for a process of its own (main.go's): it first sets
// what only a whole process may (asProcess), then runs Main.
func Process(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	asProcess()
	return Main(args, stdin, stdout, stderr)
}

// asProcess sets the runtime as locksim runs in a process of its own: it
// writes no heap profile, so it samples no allocation for one (a stack
// trace every 512 KiB allocated was a twentieth of what a -plain start
// does beyond its floor). A test that runs Main keeps the test binary's.
func asProcess() { runtime.MemProfileRate = 0 }

// verb is one thing locksim does: one entry of the table, for the command
// line and for SSH.
type verb struct {
	// name is its name: the SSH command's, and the docs'.
	name string
	// chosen reports whether the command line's flags ask for this verb;
	// the table's first verb chosen runs. nil: the verb has no command
	// line of its own (cli, an SSH command only).
	chosen func(c config, e *env) bool
	// flags defines the flags the verb owns on the command line's one
	// flag set (the ones every story shares are parse's).
	flags func(fs *flag.FlagSet, c *config)
	// check checks the flags the verb owns once every flag is parsed,
	// whether the verb is chosen or not; its error is the one line of a
	// usage error (exit 2). nil: nothing to check.
	check func(fs *flag.FlagSet, c *config) error
	// bare verbs run before anything is set up: no seed is drawn and no
	// signal is caught (-list is a plain print).
	bare bool
	// backend: run gets the server the flags name (the embedded one, or
	// -redis and its companions), opened before run and closed after it;
	// otherwise b is nil.
	backend bool
	// run runs the verb from the command line and returns the exit status.
	run func(ctx context.Context, e *env, c config, b *sim.Backend) int
	// ssh is the verb as an SSH command (ssh HOST NAME ARGS…) without a
	// terminal; nil when it has none.
	ssh *serve.Command
}

// env is a command line's run: its standard streams, and whether they are
// the process's own terminal.
type env struct {
	in       io.Reader
	out, err io.Writer
	// term: stdin and stdout are the process's terminal, so a screen can
	// be drawn; a transcript is printed otherwise.
	term bool
}

// verbs is the table, in the order the command line chooses by: the first
// verb whose flags are given runs; the course, last, is the default.
func verbs() []verb {
	return []verb{
		{name: "version", bare: true, flags: versionFlags, chosen: func(c config, _ *env) bool { return c.version }, run: printVersion},
		{name: "list", bare: true, flags: listFlags, chosen: func(c config, _ *env) bool { return c.list }, run: list,
			ssh: &serve.Command{Run: listSSH}},
		{name: "cleanup", flags: cleanupFlags, chosen: func(c config, _ *env) bool { return c.cleanup }, run: cleanup},
		{name: "report", flags: reportFlags, check: checkReport, chosen: func(c config, _ *env) bool { return c.report.code != "" }, run: runReport},
		{name: "serve", flags: serveFlags, check: checkServe, chosen: func(c config, _ *env) bool { return c.serve.addr != "" || c.serve.web != "" }, run: serveCourse},
		// hidden: the search -grade runs in a child process of its own
		// hidden: a served lab session's search runs in a child process
		{name: "lab-child", chosen: func(c config, _ *env) bool { return c.lab.search }, run: labChild},
		{name: "grade-child", chosen: func(c config, _ *env) bool { return c.lab.child != "" }, run: gradeChild},
		{name: "grade", flags: gradeFlags, check: checkGrade, chosen: func(c config, _ *env) bool { return c.lab.grade != "" }, run: runGrade},
		{name: "reset-progress", flags: resetFlags, chosen: func(c config, _ *env) bool { return c.resetProgress }, run: resetProgress},
		{name: "cast", flags: castFlags, check: checkCast, chosen: func(c config, _ *env) bool { return c.cast != "" }, backend: true, run: writeCast,
			ssh: &serve.Command{Args: "CODE [WxH]", Run: castSSH, Child: true}},
		{name: "history", flags: historyFlags, check: checkHistory, chosen: func(c config, _ *env) bool { return c.history != "" }, backend: true, run: writeHistory},
		{name: "trials", flags: trialsFlags, chosen: func(c config, _ *env) bool { return c.trialsSet }, backend: true, run: trials},
		{name: "story", flags: storyFlags, check: readStory, chosen: func(c config, e *env) bool { return c.position != nil && (c.plain || !e.term) }, backend: true, run: plain,
			ssh: &serve.Command{Args: "CODE", Run: storySSH, Child: true}},
		{name: "plain", flags: plainFlags, chosen: func(c config, e *env) bool { return (c.plain || !e.term) && c.labDir == "" }, backend: true, run: plain,
			ssh: &serve.Command{Args: "SCENE [SEED]", Run: plainSSH, Child: true}},
		{name: "cli", ssh: &serve.Command{Args: "SCENE [SEED] | CODE", Run: cliSSH, Child: true}},
		{name: "course", flags: courseFlags, check: checkLab, chosen: func(config, *env) bool { return true }, backend: true, run: course},
	}
}

// sshCommands are the table's verbs that run over SSH, by name.
func sshCommands() map[string]serve.Command {
	m := map[string]serve.Command{}
	for _, v := range verbs() {
		if v.ssh != nil {
			m[v.name] = *v.ssh
		}
	}
	return m
}

// errLine is a usage error's text as its one line on stderr: each
// control character (from the user's own arguments: a path, a URL, an
// address) escaped as %q escapes it, as -scene's and -theme's quoted
// values are, so no argument's bytes reach the terminal as commands or
// break the line.
func errLine(err error) string { return sim.Escape(err.Error()) }

// runHeartbeat is Main with the live heartbeat's TTL set (0: the default),
// for a test that kills runs and sweeps them without a 15 s wait.
func runHeartbeat(args []string, heartbeatTTL time.Duration, stdin io.Reader, stdout, stderr io.Writer) int {
	// a child process of runner's (a search, a grade, an SSH command)
	// takes on the CPU limit its parent asked for before anything else
	if err := runner.Enter(); err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	if os.Getenv(childEnv) == "1" {
		return runChild(args, stdout, stderr)
	}
	c, err := parse(args)
	c.heartbeatTTL = heartbeatTTL
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %s\n", errLine(err))
		return 2
	}
	if u, ok := sim.ExpandAddr(c.redis); ok {
		// host:port as redis-cli takes it; the URL used is said once
		fmt.Fprintf(stderr, "locksim: -redis %s: using %s\n", c.redis, u)
		c.redis = u
	}
	// a screen only on the process's own terminal: a test's buffer, or a
	// pipe, gets the transcript
	e := &env{in: stdin, out: stdout, err: stderr,
		term: stdout == os.Stdout && isatty.IsTerminal(os.Stdout.Fd()) && isatty.IsTerminal(os.Stdin.Fd())}
	var v verb
	for _, v = range verbs() {
		if v.chosen != nil && v.chosen(c, e) {
			break
		}
	}
	if r := screenRefused(v.name, c, e.term); r != "" {
		// a flag only the screen can honour, where the transcript runs
		fmt.Fprintln(stderr, "locksim: "+r)
		return 2
	}
	if v.bare {
		return v.run(context.Background(), e, c, nil)
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
	if !v.backend {
		return v.run(ctx, e, c, nil)
	}
	if c.redis == "" && c.scaleSet {
		fmt.Fprintln(stderr, "locksim: -scale only applies with -redis: the embedded server's clock is virtual")
	}
	if c.redis == "" && c.timeoutSet {
		fmt.Fprintln(stderr, "locksim: -timeout only applies with -redis: the embedded server answers in-process")
	}
	b, err := open(ctx, c, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "locksim: %s\n", errLine(err))
		return 2
	}
	b.Label = c.label
	code := v.run(ctx, e, c, b)
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
