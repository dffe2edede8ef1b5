package scenes

import (
	"fmt"
	"os"
	"slices"
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
// only. Every key is under locksim's namespace. With label (-label) each
// move played starts with ECHO "step N: label", as the live server's
// stream does, so a replay under MONITOR shows where each step
// starts.
func redisCLIScript(s sim.Snapshot, label bool) string {
	var b strings.Builder
	// a script may build key names from an argument (a queue's job hashes
	// from "emq:{q}:job:"): such an argument, a prefix of a key the story
	// used, goes under the namespace too
	var keys []string
	for _, e := range s.Events {
		for _, i := range keyArgs(e.Args) {
			keys = append(keys, e.Args[i])
		}
	}
	next := 0 // the next move to mark
	echo := func(upTo int) {
		for ; label && next <= upTo && next < len(s.Moves); next++ {
			fmt.Fprintf(&b, "%s\n", sim.FormatCommand([]any{"ECHO", sim.StepEcho(next, s.Moves[next])}))
		}
	}
	for _, e := range s.Events {
		if e.Move >= 0 {
			echo(e.Move)
		}
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
				for _, i := range scriptArgs(e.Args) {
					if a := e.Args[i]; strings.HasSuffix(a, ":") && slices.ContainsFunc(keys, func(k string) bool { return strings.HasPrefix(k, a) }) {
						args[i] = exportPrefix + a
					}
				}
			}
			fmt.Fprintf(&b, "%s\n", sim.FormatCommand(args))
		case sim.Clock:
			fmt.Fprintf(&b, "WAIT 100 %d\n", clockWait(e, s))
		}
	}
	echo(s.Pos - 1) // the moves played so far that left no event
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
// EVAL's script or EVALSHA's SHA.
func keyArgs(args []string) []int {
	if len(args) < 2 {
		return nil
	}
	if isScript(args[0]) && len(args) >= 3 {
		var out []int
		n, _ := strconv.Atoi(args[2])
		for i := 3; i < 3+n && i < len(args); i++ {
			out = append(out, i)
		}
		return out
	}
	return []int{1}
}

func isScript(cmd string) bool {
	return strings.EqualFold(cmd, "EVAL") || strings.EqualFold(cmd, "EVALSHA")
}

// scriptArgs are the positions of a script's ARGV.
func scriptArgs(args []string) []int {
	if len(args) < 3 || !isScript(args[0]) {
		return nil
	}
	n, _ := strconv.Atoi(args[2])
	var out []int
	for i := 3 + n; i < len(args); i++ {
		out = append(out, i)
	}
	return out
}

// export writes the story so far to a redis-cli script in the working
// directory and says where.
func (p *Player) export() {
	if len(p.snap.Nodes) > 0 {
		p.flash = "this story runs on " + itoa(int64(len(p.snap.Nodes))) + " servers: one redis-cli cannot replay it"
		return
	}
	name := fmt.Sprintf("locksim-%s-seed%d.redis", p.sc.ID, p.seed)
	if err := os.WriteFile(name, []byte(redisCLIScript(p.snap, p.b.Label)), 0o644); err != nil {
		p.flash = "could not write " + name + ": " + err.Error()
		return
	}
	p.flash = "wrote " + name + ": redis-cli < " + name + " replays it, waits included"
}
