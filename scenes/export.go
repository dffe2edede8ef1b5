package scenes

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"locksim/sim"
)

// exportPrefix goes before every key of a story exported from the embedded
// server, whose keys have no prefix: replayed on a shared server, the
// script must not touch a user's own resource:lock.
const exportPrefix = sim.Namespace + "replay:"

// redisCLIScript is the story so far as a script for redis-cli: every
// command an actor sent, as sent (scripts in full), one per line, with the
// story's waits and faults as comments. `redis-cli < FILE` replays it by
// hand (without the timing: the waits are for the reader). Every key is
// under locksim's namespace.
func redisCLIScript(sc *Scene, s sim.Snapshot, seed uint64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# locksim %s, seed %d, on %s: the story's commands as sent.\n", sc.ID, seed, s.Backend)
	fmt.Fprintln(&b, "# replay by hand with: redis-cli < this-file (waits are comments: wait them yourself)")
	if s.Prefix == "" {
		fmt.Fprintf(&b, "# keys are put under %s so the replay touches nothing of yours; DEL them after\n", exportPrefix)
	}
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
		case sim.Clock, sim.Fault, sim.Info:
			fmt.Fprintf(&b, "# %s %s: %s\n", stamp(e.At), e.Actor, e.Note)
		}
	}
	return b.String()
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
	if err := os.WriteFile(name, []byte(redisCLIScript(p.sc, p.snap, p.seed)), 0o644); err != nil {
		p.flash = "could not write " + name + ": " + err.Error()
		return
	}
	p.flash = "wrote " + name + ": redis-cli < " + name + " replays the commands by hand"
}
