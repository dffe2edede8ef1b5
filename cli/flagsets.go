package cli

import (
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"

	"locksim/class"
	"locksim/scenes"
	"locksim/serve"
)

func listFlags(fs *flag.FlagSet, c *config) { fs.BoolVar(&c.list, "list", false, "") }

func versionFlags(fs *flag.FlagSet, c *config) { fs.BoolVar(&c.version, "version", false, "") }

func cleanupFlags(fs *flag.FlagSet, c *config) { fs.BoolVar(&c.cleanup, "cleanup", false, "") }

func serveFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.serve.addr, "serve", "", "")
	fs.StringVar(&c.serve.hostKey, "host-key", "", "")
	fs.StringVar(&c.serve.dir, "serve-dir", "", "")
	fs.StringVar(&c.serve.instructors, "instructors", "", "")
	fs.IntVar(&c.serve.maxSessions, "max-sessions", serve.DefaultMaxSessions, "")
	fs.IntVar(&c.serve.sessionsPerKey, "max-sessions-per-key", serve.DefaultSessionsPerKey, "")
	fs.IntVar(&c.serve.sessionsPerAddress, "max-sessions-per-address", 0, "")
	fs.IntVar(&c.serve.classSize, "class-size", 0, "") // 0: serve.ClassSeats
	fs.IntVar(&c.serve.maxCommands, "max-commands", serve.DefaultCommands, "")
	fs.IntVar(&c.serve.commandsPerKey, "max-commands-per-key", serve.DefaultCommandsPerKey, "")
	fs.DurationVar(&c.serve.commandTime, "command-time", serve.DefaultCommandTime, "")
	fs.DurationVar(&c.serve.idle, "idle", serve.DefaultIdle, "")
	fs.DurationVar(&c.serve.maxTime, "max-session", serve.DefaultMaxTime, "")
	fs.StringVar(&c.serve.classRedis, "class-redis", "", "")
	fs.DurationVar(&c.serve.classRetention, "class-retention", class.TTL, "")
	fs.StringVar(&c.serve.publicAddr, "public-addr", "", "")
	fs.StringVar(&c.serve.web, "web", "", "")
	fs.StringVar(&c.serve.publicURL, "public-url", "", "")
	fs.StringVar(&c.serve.tlsCert, "web-tls-cert", "", "")
	fs.StringVar(&c.serve.tlsKey, "web-tls-key", "", "")
	fs.BoolVar(&c.serve.trustProxy, "trust-proxy", false, "")
}

func resetFlags(fs *flag.FlagSet, c *config) {
	fs.BoolVar(&c.resetProgress, "reset-progress", false, "")
	fs.BoolVar(&c.yes, "yes", false, "")
}

func castFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.cast, "cast", "", "")
	fs.String("size", "", "") // read by checkCast
}

func historyFlags(fs *flag.FlagSet, c *config) { fs.StringVar(&c.history, "history", "", "") }

func trialsFlags(fs *flag.FlagSet, c *config) {
	fs.IntVar(&c.trials, "trials", 0, "")
	fs.Float64Var(&c.crashRate, "crash-rate", 0.1, "")
	fs.Float64Var(&c.lossRate, "loss-rate", 0, "")
}

func storyFlags(fs *flag.FlagSet, c *config) { fs.StringVar(&c.story, "story", "", "") }

func plainFlags(fs *flag.FlagSet, c *config) {
	fs.BoolVar(&c.plain, "plain", false, "")
	fs.BoolVar(&c.questions, "questions", false, "")
	fs.IntVar(&c.answer, "answer", 0, "")
}

// courseFlags are the screen's: the playlist, the notes, the presenter,
// the saved progress, the mouse, colour, y's export and -lab.
func courseFlags(fs *flag.FlagSet, c *config) {
	fs.Func("scenes", "", func(v string) error {
		for _, id := range strings.Split(v, ",") {
			id = strings.TrimSpace(id)
			if id == "" {
				return fmt.Errorf("the list %q has an empty entry: name the scenes between commas (locksim -list shows them)", v)
			}
			if scenes.Find(id) == nil {
				return fmt.Errorf("unknown scene %q (locksim -list shows them)", id)
			}
			c.playlist = append(c.playlist, id)
		}
		return nil
	})
	fs.StringVar(&c.notes, "notes", "", "")
	fs.BoolVar(&c.noSave, "no-save", false, "")
	fs.BoolVar(&c.noMouse, "no-mouse", false, "")
	fs.BoolVar(&c.present, "present", false, "")
	fs.BoolVar(&c.noColor, "no-color", false, "")
	fs.StringVar(&c.exportDir, "export-dir", "", "")
	fs.IntVar(&c.exportScale, "export-scale", 0, "")
	fs.StringVar(&c.labDir, "lab", "", "")
}

// validHostPort reports an address of the form HOST:PORT with a port from
// 1 to 65535 and a host that is not empty.
func validHostPort(addr string) bool {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535
}
