package scenes

import (
	"fmt"
	"os"
	"strings"

	"locksim/sim"
)

// redisCLIScript is the story so far as a script for redis-cli: every
// command an actor sent, as sent (scripts in full), one per line, with the
// story's waits and faults as comments. `redis-cli < FILE` replays it by
// hand (without the timing: the waits are for the reader).
func redisCLIScript(sc *Scene, s sim.Snapshot, seed uint64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# locksim %s, seed %d, on %s: the story's commands as sent.\n", sc.ID, seed, s.Backend)
	fmt.Fprintln(&b, "# replay by hand with: redis-cli < this-file (waits are comments: wait them yourself)")
	for _, e := range s.Events {
		switch e.Kind {
		case sim.Command:
			args := make([]any, len(e.Args))
			for i, a := range e.Args {
				args[i] = a
			}
			fmt.Fprintf(&b, "%s\n", sim.FormatCommand(args))
		case sim.Clock, sim.Fault, sim.Info:
			fmt.Fprintf(&b, "# %s %s: %s\n", stamp(e.At), e.Actor, e.Note)
		}
	}
	return b.String()
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
