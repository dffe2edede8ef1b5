package scenes

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"locksim/sim"
)

// exportPrefix goes before every key of a story exported from the embedded
// server, whose keys have no prefix: replayed on a shared server, the
// script must not touch a user's own resource:lock (a live story's keys
// already carry the run's prefix).
const exportPrefix = sim.Namespace + "replay:"

// redisCLIScript is the story so far as a script for redis-cli: every
// command an actor sent, as sent (scripts in full), one per line, in the
// story's order; each wait of the story is a WAIT 100 <ms> (it blocks for
// that long on a server without a hundred replicas), so the TTLs run out
// where the story says. redis-cli has no comments: the file is commands
// only. Every key is under locksim's namespace.
func redisCLIScript(s sim.Snapshot) string {
	var b strings.Builder
	for _, e := range s.Events {
		switch e.Kind {
		case sim.Command:
			args := make([]any, len(e.Args))
			for i, a := range e.Args {
				args[i] = a
			}
			if s.Prefix == "" {
				for _, i := range keyArgs(e.Args) {
					args[i] = exportPrefix + e.Args[i]
				}
			}
			fmt.Fprintf(&b, "%s\n", sim.FormatCommand(args))
		case sim.Clock:
			fmt.Fprintf(&b, "WAIT 100 %d\n", clockWait(e, s))
		}
	}
	return b.String()
}

// clockWait is the wire milliseconds a clock event waited: the story's
// own time on the embedded server, divided by the scale on a live one.
func clockWait(e sim.Event, s sim.Snapshot) int64 {
	prev := time.Duration(0)
	for _, x := range s.Events[:e.Seq] {
		prev = x.At
	}
	return ((e.At - prev) / time.Duration(max(s.Scale, 1))).Milliseconds()
}

// keyArgs are the positions of the keys among a command's arguments: the
// first argument of the commands the stories send, the numkeys after
// EVAL's script.
func keyArgs(args []string) []int {
	if len(args) < 2 {
		return nil
	}
	if strings.EqualFold(args[0], "EVAL") && len(args) >= 3 {
		var out []int
		n, _ := strconv.Atoi(args[2])
		for i := 3; i < 3+n && i < len(args); i++ {
			out = append(out, i)
		}
		return out
	}
	return []int{1}
}

// export writes the story so far to a redis-cli script in the working
// directory and says where.
func (p *Player) export() {
	name := fmt.Sprintf("locksim-%s-seed%d.redis", p.sc.ID, p.seed)
	if err := os.WriteFile(name, []byte(redisCLIScript(p.snap)), 0o644); err != nil {
		p.flash = "could not write " + name + ": " + err.Error()
		return
	}
	p.flash = "wrote " + name + ": redis-cli < " + name + " replays it, waits included"
}
