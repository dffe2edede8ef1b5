// The command line: the usage text, the flags and their checks.

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/lab"

	"locksim/play"
	"locksim/scenes"
	"locksim/serve"
	"locksim/sim"
)

const usage = `locksim: watch Redis locks behave and break

usage: locksim [flags]

  -scene ID            open this scene (without it: the contents; -list shows the ids)
  -step N              with -scene: open it at step N (a slide can link to the moment)
  -set K=V,K=V         with -scene: open it with these settings, e.g. -set pause=70s,TTL=60s
                       (the names and values its settings line shows)
  -scenes ID,ID,...    the lesson's playlist: > and < go through it, and in presenter mode
                       a step past each scene's last story opens the next; opens the first
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
  -version             print this build's version (its module version or git commit, if the
                       build carries one) and the story-code format it reads, then exit
  -plain               print the scene as a text transcript (the default without a terminal)
  -questions           with -plain: a handout for a class; each story stops at its question,
                       printed without its answer, and an answer key follows at the end
  -answer N            with -story CODE -plain: answer the question the code's story stops at
                       with choice N, and play on to the end, as the screen would
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
  -lab DIR             open the lab on your own lock in DIR (acquire.lua or .redis,
                       release, optional extend, lab.json), saved back there; a new
                       DIR in a directory that exists starts from a starter lock
  -crash-rate P        with -trials: the chance, 0 to 1, that a SETNX winner crashes
                       before its EXPIRE (default 0.1)
  -loss-rate P         with -trials: the chance, 0 to 1, that a reply to an acquire or a
                       release is lost after the server ran it (drawn from -seed; default 0);
                       above 0 it adds the trials of a release retried after a lost reply
  -cleanup             with -redis: remove the keys of registered locksim runs whose heartbeat
                       has expired and of registered replays, say what and why, and exit
  -export-dir DIR      y writes the story for redis-cli here (default: the config
                       directory's locksim/exports)
  -export-scale N      y divides every PX, script TTL and wait by N, 1 to 1000, for a
                       live replay in class (default: the run's own, -scale on a live server)
  -story CODE          open the story code y shows (or a transcript prints): its scene,
                       settings, seed, own moves, step and prediction; with -plain, its story
                       (a code at or before its open question: to the question, then -answer N).
                       A story of the lab's pointer (lab-1a2b3c4d5e) is read from the file y
                       wrote in -export-dir, or give that file's path
  -cast FILE           with -scene or -story: write the story as an asciicast v2 file
                       (asciinema play FILE plays it), to -step N or the code's step, else to
                       its end; without them, the whole course; - for stdout
  -size WxH            with -cast: the recorded terminal's size (default 80x24)
  -history FILE.html   with -scene (and -set, -step, -seed) or -story CODE: play the story
                       and write porcupine's view of it, checked as the server's lease, the
                       client's mutex and the fenced resource, with its faults, to FILE.html
  -grade DIR -out OUT  run the adversary on the lock in DIR headless and write
                       OUT/results.json (Exercism's test-runner format, version 2); the
                       search runs in a process of its own, ended at the limits below;
                       exit 0 when the lock passes, 1 when it does not, 2 for bad input
  -level ID            with -grade: grade against that level's faults, bound and properties
  -policy FILE         with -grade: grade against a teacher's policy (lab.json's format);
                       with either, the student's lab.json is not read; without them, the
                       default policy, which lab.json may widen but never narrow
  -grade-timeout D     with -grade: the whole grade's wall limit (default 1m)
  -grade-memory MB     with -grade: the search's resident memory cap (default 1024)

serving the course over SSH (see docs/classroom.md):
  -serve ADDR          serve the course on ADDR, e.g. :2222; students type ssh -p 2222 HOST
                       (with -redis, every session plays on that server under its own prefix;
                       -seed, -theme and -no-quiz apply to every session)
  -host-key FILE       the server's host key (created if missing; default: host_ed25519 in
                       the config directory's locksim/)
  -serve-dir DIR       write each student key's progress and name under DIR (default: kept
                       in memory for the server's life)
  -instructors FILE    authorized_keys file of the instructors' keys, read again when it changes
  -max-sessions N      terminal sessions at once (default 64, two of them kept for instructor
                       keys); the next one is told and closed, no session is closed for it
  -max-sessions-per-key N
                       terminal sessions at once from one key (default 3)
  -class-size N        sessions one class has on this server at once (default: every one not
                       kept for instructors, 62 of 64; more is refused); the next join is refused
  -max-sessions-per-address N
                       terminal sessions at once from one address (default 0: no cap; a class
                       often sits behind one router's address)
  -max-commands N      commands without a terminal (ssh HOST cast …) at once, apart from the
                       sessions (default 16)
  -max-commands-per-key N
                       such commands at once from one key, or one address without a key
                       (default 4)
  -command-time D      stop such a command after D, with a line saying so (default 10s)
  -idle D              close a session after D without a key, warning a minute before
                       (default 15m; 0 never)
  -max-session D       close a session D after it opened (default 3h; 0 never)
  -class-redis URL     keep the classes (roster, places, polls, progress) in this Redis or
                       Valkey server under locksim:class:, so several -serve processes serve
                       one class; needs -host-key, the same file on each (default: in memory)
  -public-addr H:P     the address students reach the server at, for the join line
                       (default: the address each instructor's own client reached)
  -class-retention D   a class outlives its last change by D, then its keys expire (default
                       720h, 30 days); a class lasts until its instructor closes it
                       (ssh HOST close CODE) and clear deletes its roster (ssh HOST clear CODE)

a saved class's report, and its gradebook for Canvas or Moodle (see docs/classroom.md):
  -report CODE         write class CODE's report to stdout, read from the server's -serve-dir
                       DIR or -class-redis URL (a server may be serving it meanwhile)
  -format F            locksim (default: the class report, as ssh HOST report CODE writes it),
                       canvas (Canvas's gradebook CSV) or moodle (Moodle's grade import CSV)
  -roster FILE         with canvas or moodle: the school's students, a CSV whose header names
                       its columns: name, and any of email, login, lms id, sis id, section,
                       ssh key (a public key line or its SHA256: fingerprint); given to
                       -serve, with -scoring, for ssh HOST report CODE -format canvas|moodle,
                       and for the class view's list of who has not joined (m matches by hand)
  -scoring FILE        the points of each scored item, JSON: scene_finished, prediction_given,
                       prediction_right (default 1 each), quiz (5), lab_level (3), scenes (all)
  -total               one column, every item summed (default: a column per scene, one for the lab)
  -zero                0 for a roster student who never joined (default: an empty cell)
  -moodle-id F         the Moodle file's identifier: email (default), username or idnumber

serving the course in a browser tab (see docs/web.md), beside -serve or alone:
  -web ADDR            serve the page on ADDR, e.g. :8080: / the course, /c/CODE joins class
                       CODE, /s/CODE opens a story code, /plain/SCENE and /cast/CODE
  -public-url URL      the page's address as students reach it (https://class.example.org/):
                       y shows a story code's link under it
  -web-tls-cert FILE   serve HTTPS with this certificate (PEM) and, with it,
  -web-tls-key FILE    its key
  -trust-proxy         behind a reverse proxy: read the client's address from the last
                       X-Forwarded-For entry (default off)
`

// redlockNodes is how many nodes the redlock scene's stories use.
const redlockNodes = 5

// maxTrials bounds -trials: a million trials of each variant take hours.
const maxTrials = 1_000_000

// plainPlaylist refuses -scenes with -plain: the playlist is the
// interactive screen's (screenRefused says so without a terminal).
const plainPlaylist = "-scenes is the interactive screen's playlist: it does not go with -plain (use -plain -scene ID, once per scene)"

// maxScale bounds -scale; each scene caps it further, so that its smallest
// margin stays at least scenes.MinWire on the wire (Scene.Shortest).
const maxScale = 1000

// config is what the flags asked for.
type config struct {
	scene, redis, resource string
	redlock                []string
	trials                 int
	crashRate, lossRate    float64
	trialsSet, redisEmpty  bool
	list, plain, cleanup   bool
	version                bool // -version: print the build's and the story codes' versions
	scale                  int
	timeout                time.Duration
	seed                   uint64
	seedSet, scaleSet      bool
	timeoutSet             bool
	heartbeatTTL           time.Duration // a test's shorter heartbeat; not a flag
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
	serve                  serveConfig
	report                 reportConfig // -report CODE and its flags (report.go)
	// story is -story CODE; position is what it carries, once read
	story    string
	position *play.Position
	// answer is -answer N: the reader's answer to the code's open question
	answer int
	// cast is -cast FILE, and castW, castH its -size
	cast         string
	castW, castH int
	stepSet      bool
	history      string // -history: the HTML file to write
	lab          labConfig
	labDir       string // -lab DIR
}

// serveConfig is -serve and its companions.
type serveConfig struct {
	addr, hostKey, dir, instructors string
	classRedis                      string
	publicAddr                      string // -public-addr HOST:PORT, the students' way in
	maxSessions, sessionsPerKey     int
	sessionsPerAddress, classSize   int
	maxCommands, commandsPerKey     int
	idle, maxTime, commandTime      time.Duration
	classRetention                  time.Duration
	// the web front (-web ADDR and its companions)
	web, publicURL, tlsCert, tlsKey string
	trustProxy                      bool
}

func parse(args []string) (config, error) {
	var c config
	fs := newFlagSet(&c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		if msg := badValue(fs, err); msg != "" {
			return c, errors.New(msg)
		}
		if _, own, ok := strings.Cut(err.Error(), "for flag "); ok && strings.HasPrefix(own, "-") {
			// a flag whose check names itself: "-seed must be …", not
			// `invalid value "-1" for flag -seed: -seed must be …`
			if name, msg, _ := strings.Cut(own, ": "); strings.HasPrefix(msg, name+" ") {
				return c, errors.New(msg)
			}
		}
		if strings.Contains(err.Error(), "(locksim -") {
			// the flag's own error already says where to look
			return c, err
		}
		return c, fmt.Errorf("%v (locksim -h lists the flags)", err)
	}
	return checkFlags(fs, c)
}

// newFlagSet is every flag of the command line, each set into c.
func newFlagSet(c *config) *flag.FlagSet {
	fs := flag.NewFlagSet("locksim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	// the flags every verb that plays a story shares; each verb adds its own
	fs.StringVar(&c.scene, "scene", "", "")
	fs.IntVar(&c.step, "step", 0, "")
	fs.StringVar(&c.set, "set", "", "")
	fs.Func("seed", "", func(v string) error {
		// flag's own "parse error" does not say what a seed is
		n, err := parseSeed("-seed", v)
		c.seed = n
		return err
	})
	fs.BoolVar(&c.noQuiz, "no-quiz", false, "")
	fs.StringVar(&c.theme, "theme", "default", "")
	fs.BoolVar(&c.label, "label", false, "")
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
	fs.DurationVar(&c.timeout, "timeout", sim.DefaultTimeout, "")
	for _, v := range verbs() {
		if v.flags != nil {
			v.flags(fs, c)
		}
	}
	return fs
}

// checkFlags checks the flags fs parsed into c, each and together.
func checkFlags(fs *flag.FlagSet, c config) (config, error) {
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(f *flag.Flag) {
		c.seedSet = c.seedSet || f.Name == "seed"
		c.scaleSet = c.scaleSet || f.Name == "scale"
		c.timeoutSet = c.timeoutSet || f.Name == "timeout"
		c.trialsSet = c.trialsSet || f.Name == "trials"
		c.stepSet = c.stepSet || f.Name == "step"
		if f.Name == "redis" && c.redis == "" {
			c.redisEmpty = true
		}
	})
	if c.redisEmpty {
		return c, errors.New("-redis needs a URL, e.g. redis://127.0.0.1:6379/0")
	}
	if name := blankFlag(fs); name != "" {
		// an unset shell variable (-cast "$OUT") must not read as no flag
		return c, fmt.Errorf("-%s was given an empty value: give it one, or leave the flag out", name)
	}
	if err := writtenPathsShown(c); err != nil {
		return c, err
	}
	// with -plain and no -story screenRefused refuses it: that line first
	if c.exportDir != "" && !(c.plain && c.story == "") {
		if fi, err := os.Stat(c.exportDir); err == nil && !fi.IsDir() {
			return c, fmt.Errorf("-export-dir %s: it is a file, not a directory", c.exportDir)
		} else if err != nil {
			return c, fmt.Errorf("-export-dir %s: no such directory (locksim makes none)", c.exportDir)
		}
	}
	if c.version && fs.NFlag() > 1 {
		return c, errors.New("-version prints the versions and exits: it goes alone")
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
	if c.lossRate != 0 && !c.trialsSet {
		return c, errors.New("-loss-rate needs -trials: it sets the trials' lost replies")
	}
	if !(c.lossRate >= 0 && c.lossRate <= 1) { // NaN too
		return c, fmt.Errorf("-loss-rate must be from 0 to 1, got %v", c.lossRate)
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
		if !sc.Sends() && c.step > 0 {
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
			return c, fmt.Errorf("-step %d: scene %s has %s", c.step, c.scene, plural(n, "step"))
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
	if c.plain && len(c.playlist) > 0 {
		return c, errors.New(plainPlaylist)
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
	// then each verb's own flags, in the table's order
	for _, v := range verbs() {
		if v.check == nil {
			continue
		}
		if err := v.check(fs, &c); err != nil {
			return c, err
		}
	}
	return c, checkAnswer(fs, c)
}

// checkLab checks -lab DIR, the course's flag that opens the lab's screen.
func checkLab(fs *flag.FlagSet, c *config) error {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "lab" })
	if set && strings.TrimSpace(c.labDir) == "" {
		// an empty DIR would open the course, as if -lab were not given
		return errors.New("-lab needs a directory to keep your lock in: -lab DIR")
	}
	if c.labDir != "" && (c.plain || c.list || c.cleanup || c.trialsSet || c.scene != "" || len(c.playlist) > 0 || c.story != "" || c.cast != "" || c.history != "") {
		return errors.New("-lab opens the lab's screen: it does not go with -plain, -list, -cleanup, -trials, -scene, -scenes, -story, -cast or -history")
	}
	if c.labDir != "" {
		// before anything opens: the screen saves the starter there
		return lab.CheckDir(c.labDir)
	}
	return nil
}

// checkServe checks -serve and the flags that only mean something with it.
func checkServe(fs *flag.FlagSet, c *config) error {
	var only, webOnly []string
	classSizeSet := false
	fs.Visit(func(f *flag.Flag) {
		classSizeSet = classSizeSet || f.Name == "class-size"
		switch f.Name {
		case "serve-dir", "class-redis":
			if c.report.code == "" { // -report reads a saved class from them
				only = append(only, "-"+f.Name)
			}
		case "host-key", "instructors", "max-sessions", "idle", "max-session",
			"max-sessions-per-key", "max-sessions-per-address", "class-size", "max-commands", "max-commands-per-key", "command-time", "class-retention", "public-addr":
			only = append(only, "-"+f.Name)
		case "public-url", "web-tls-cert", "web-tls-key", "trust-proxy":
			webOnly = append(webOnly, "-"+f.Name)
		}
	})
	if c.serve.addr == "" && c.serve.web == "" {
		if len(only) > 0 {
			return fmt.Errorf("%s needs -serve ADDR or -web ADDR", only[0])
		}
		if len(webOnly) > 0 {
			return fmt.Errorf("%s needs -web ADDR", webOnly[0])
		}
		return nil
	}
	if err := checkWeb(c.serve, webOnly); err != nil {
		return err
	}
	switch {
	case c.scene != "" || c.plain || c.list || c.cleanup || c.trialsSet || c.notes != "" || c.present || len(c.playlist) > 0 || c.story != "" || c.cast != "" || c.history != "" || c.lab.grade != "" || c.labDir != "":
		return fmt.Errorf("%s serves the whole course: it does not go with -scene, -scenes, -plain, -list, -cleanup, -trials, -notes, -present, -story, -cast, -history, -grade or -lab", serveFlag(c.serve))
	case c.resetProgress || c.noSave || c.noColor || c.noMouse || c.label || c.exportDir != "" || c.exportScale != 0 || c.set != "":
		return fmt.Errorf("%s: -reset-progress, -no-save, -no-color, -no-mouse, -label, -set and the export flags are each student's own matter when served (NO_COLOR from an SSH client is honoured)", serveFlag(c.serve))
	case len(c.redlock) > 0 || c.resource != "":
		return errors.New("-serve takes one live server (-redis): -redlock and -resource-redis are not served")
	case c.serve.maxSessions < 1:
		return fmt.Errorf("-max-sessions must be 1 or more, got %d", c.serve.maxSessions)
	case c.serve.sessionsPerKey < 1:
		return fmt.Errorf("-max-sessions-per-key must be 1 or more, got %d", c.serve.sessionsPerKey)
	case classSizeSet && c.serve.classSize < 1:
		return fmt.Errorf("-class-size must be 1 or more, got %d", c.serve.classSize)
	case serve.CheckClassSize(c.serve.classSize, c.serve.maxSessions) != nil:
		return serve.CheckClassSize(c.serve.classSize, c.serve.maxSessions)
	case c.serve.sessionsPerAddress < 0:
		return fmt.Errorf("-max-sessions-per-address must be 0 (no cap) or more, got %d", c.serve.sessionsPerAddress)
	case c.serve.maxCommands < 1:
		return fmt.Errorf("-max-commands must be 1 or more, got %d", c.serve.maxCommands)
	case c.serve.commandsPerKey < 1:
		return fmt.Errorf("-max-commands-per-key must be 1 or more, got %d", c.serve.commandsPerKey)
	case c.serve.commandTime < time.Second:
		return fmt.Errorf("-command-time must be at least 1s, got %v", c.serve.commandTime)
	case c.serve.classRetention < time.Hour:
		return fmt.Errorf("-class-retention must be at least 1h, got %v", c.serve.classRetention)
	case c.serve.publicAddr != "" && !validHostPort(c.serve.publicAddr):
		return fmt.Errorf("-public-addr wants HOST:PORT, the address students reach the server at (e.g. class.example.org:2222), got %q", c.serve.publicAddr)
	case c.serve.idle < 0 || c.serve.idle > 0 && c.serve.idle < 2*serve.IdleWarning:
		return fmt.Errorf("-idle must be 0 (never) or at least %v, got %v", 2*serve.IdleWarning, c.serve.idle)
	case c.serve.maxTime < 0:
		return fmt.Errorf("-max-session must be 0 (never) or above, got %v", c.serve.maxTime)
	case c.serve.instructors != "" && fileProblem(c.serve.instructors) != "":
		return fmt.Errorf("-instructors %s: %s: it names the authorized_keys file of the instructors' keys", c.serve.instructors, fileProblem(c.serve.instructors))
	case c.serve.classRedis != "" && c.serve.hostKey == "":
		// each server would make a host key of its own, and a student sent
		// to another server would meet OpenSSH's "host key changed"
		return errors.New("-class-redis serves one class from several servers: give them all one host key with -host-key FILE")
	}
	return nil
}

// serveFlag is the serving flag given: -serve, or -web alone.
func serveFlag(c serveConfig) string {
	if c.addr == "" {
		return "-web"
	}
	return "-serve"
}

// checkWeb checks -web and its companions (given names those set).
func checkWeb(c serveConfig, given []string) error {
	if c.web == "" {
		if len(given) > 0 {
			return fmt.Errorf("%s needs -web ADDR", given[0])
		}
		return nil
	}
	switch {
	case !validHostPort(c.web) && !strings.HasPrefix(c.web, ":"):
		return fmt.Errorf("-web wants [HOST]:PORT, e.g. :8080, got %q", c.web)
	case (c.tlsCert == "") != (c.tlsKey == ""):
		return errors.New("-web-tls-cert and -web-tls-key go together: the certificate and its key")
	case c.publicURL != "":
		u, err := url.Parse(c.publicURL)
		if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("-public-url wants the web front's address as students reach it, e.g. https://class.example.org/, got %q", c.publicURL)
		}
	}
	return nil
}

// plural is n and noun, with an s unless n is 1: "1 step", "11 steps".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// valued is every flag whose value is a name, an address or a path: given
// blank, it is a mistake, never a choice. (-lab and -redis say their own.)
var valued = []string{"story", "scene", "cast", "history", "grade", "out", "level", "policy",
	"export-dir", "set", "resource-redis", "notes", "serve", "web", "serve-dir", "class-redis",
	"host-key", "instructors", "public-addr", "public-url", "web-tls-cert", "web-tls-key", "theme",
	"report", "format", "roster", "scoring", "moodle-id"}

// blankFlag is the first flag of valued that fs was given with a blank
// value, or "".
func blankFlag(fs *flag.FlagSet) string {
	blank := ""
	fs.Visit(func(f *flag.Flag) {
		if blank == "" && slices.Contains(valued, f.Name) && strings.TrimSpace(f.Value.String()) == "" {
			blank = f.Name
		}
	})
	return blank
}

// parseSeed reads a token seed, on the command line (-seed) and over SSH
// (plain SCENE SEED) alike: the same range, the same message.
func parseSeed(name, v string) (uint64, error) {
	n, err := strconv.ParseUint(v, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("%s must be a whole number from 0 to %d, got %s", name, uint64(math.MaxUint64), v)
	}
	return n, nil
}
