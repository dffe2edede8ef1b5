package transcript

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/scenes"
	"locksim/sim"
)

// RedisCLIScript is the story so far as a script for redis-cli: every
// command an actor sent, as sent (scripts in full), one per line, in the
// story's order; each wait of the story is a WAIT 100 <ms> (it blocks for
// that long on a server without a hundred replicas), so the TTLs run out
// where the story says. redis-cli has no comments: the file is commands
// only. Every key is under the replay's own prefix,
// sim.ReplayKeyPrefix(id), whether the story ran on the embedded server
// (keys with no prefix) or a live one (keys under the run's prefix, which
// the replay does not register): replayed on a shared server, the script
// touches no user's resource:lock. Its first command registers the prefix
// (sim.Registration), its last (sim.ReplayEnd) deletes, in one DEL, the
// keys the script names and then the registration; -cleanup removes what
// a replay cut short left, by that registration. The id and nonce are
// drawn afresh for each export (see replayID; Salt pins them). With label
// (-label) each
// move played starts with ECHO "step N: label", as the live server's
// stream does, so a replay under MONITOR shows where each step
// starts.
//
// scale divides every duration relative to story time (0: the run's own
// scale, as sent): the arguments after PX, EX and PEXPIRE and EXPIRE's
// TTL, the script arguments a script's source uses as a TTL or a lease
// (see durationArgs), and the waits.
func RedisCLIScript(s sim.Snapshot, scale int, label bool, opts ...ScriptOption) string {
	run := max(s.Scale, 1)
	if scale <= 0 {
		scale = run
	}
	// a value sent at the run's scale, sent again at scale: back to story
	// milliseconds, then divided
	rescale := func(v string, secs bool) string {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || scale == run {
			return v
		}
		story := n * int64(run)
		if secs {
			// seconds cannot carry a scaled TTL: EXPIRE k 30 at 20 is
			// PEXPIRE's 1500, so the arg stays whole and the command's
			// caller turns it to milliseconds (see below)
			story *= 1000
		}
		return strconv.FormatInt(max(story/int64(scale), 1), 10)
	}
	sources := scenes.ScriptSources(s.Events)
	var o scriptOptions
	for _, f := range opts {
		f(&o)
	}
	if o.salt == "" {
		o.salt = randomSalt()
	}
	id, nonce := replayID(s, scale, o.salt)
	prefix := sim.ReplayKeyPrefix(id)
	reg, val := sim.Registration(prefix, nonce)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", sim.FormatCommand([]any{"SET", reg, val}))
	// a script may build key names from an argument (a queue's job hashes
	// from "emq:{q}:job:"): such an argument, a prefix of a key the story
	// used, goes under the namespace too
	var keys []string
	for _, e := range s.Events {
		for _, i := range keyArgs(e.Args) {
			keys = append(keys, e.Args[i])
		}
	}
	sent := map[string]bool{}
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
					args[i] = prefix + e.Args[i]
				}
				for _, i := range scriptArgs(e.Args) {
					if a := e.Args[i]; strings.HasSuffix(a, ":") && slices.ContainsFunc(keys, func(k string) bool { return strings.HasPrefix(k, a) }) {
						args[i] = prefix + a
					}
				}
			} else {
				for i := 1; i < len(args); i++ {
					args[i] = sim.UnderReplay(e.Args[i], prefix)
				}
			}
			// the keys as sent, for the last command's DEL: only those
			// under the replay's prefix, so that an argument in a key's
			// place that is not one (nor under a run's prefix) is never
			// deleted
			for _, i := range keyArgs(e.Args) {
				if k, ok := args[i].(string); ok && strings.HasPrefix(k, prefix) {
					sent[k] = true
				}
			}
			for _, d := range durationArgs(e.Args, sources) {
				args[d.at] = rescale(e.Args[d.at], d.secs)
				if d.secs && scale != run {
					args[0], args[d.at-1] = secondsToMillis(args[0].(string), args[d.at-1])
				}
			}
			fmt.Fprintf(&b, "%s\n", sim.FormatCommand(args))
		case sim.Clock:
			fmt.Fprintf(&b, "WAIT 100 %d\n", clockWait(e, s)*int64(run)/int64(scale))
		}
	}
	echo(s.Pos - 1) // the moves played so far that left no event
	fmt.Fprintf(&b, "%s\n", sim.FormatCommand(sim.ReplayEnd(reg, slices.Sorted(maps.Keys(sent)))))
	return b.String()
}

// ScriptOption is an option of RedisCLIScript and Export.
type ScriptOption func(*scriptOptions)

type scriptOptions struct{ salt string }

// Salt pins the random part of the replay's id and nonce, which is
// otherwise drawn afresh for every export: a test or a golden file gets
// the same script for the same story.
func Salt(salt string) ScriptOption { return func(o *scriptOptions) { o.salt = salt } }

// randomSalt is 16 random bytes in hex: two students who export the same
// story replay it under different prefixes, and neither's last command
// deletes the other's keys.
func randomSalt() string {
	var n [16]byte
	_, _ = rand.Read(n[:])
	return hex.EncodeToString(n[:])
}

// replayID is the replay's id (8 hex digits) and its registration's nonce
// (32), a hash of salt (random for each export unless Salt pins it), the
// scale and the story's commands without any run's prefix: two exports,
// of one story or of two, do not share keys, since a class replaying the
// same story at once would otherwise delete each other's keys.
func replayID(s sim.Snapshot, scale int, salt string) (id, nonce string) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", salt, scale)
	for _, e := range s.Events {
		if e.Kind != sim.Command {
			continue
		}
		for _, a := range e.Args {
			fmt.Fprintf(h, "%s\x00", sim.UnderReplay(a, ""))
		}
		h.Write([]byte{1})
	}
	sum := hex.EncodeToString(h.Sum(nil))
	return sum[:8], sum[8:40]
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
	if scenes.IsScript(args[0]) && len(args) >= 3 {
		var out []int
		n, _ := strconv.Atoi(args[2])
		for i := 3; i < 3+n && i < len(args); i++ {
			out = append(out, i)
		}
		return out
	}
	return []int{1}
}

// scriptArgs are the positions of a script's ARGV.
func scriptArgs(args []string) []int {
	if len(args) < 3 || !scenes.IsScript(args[0]) {
		return nil
	}
	n, _ := strconv.Atoi(args[2])
	var out []int
	for i := 3 + n; i < len(args); i++ {
		out = append(out, i)
	}
	return out
}

// Export is the story in s as a redis-cli script (see RedisCLIScript, at
// x's scale) and the file name it goes by, locksim-<id>-seed<N>.redis
// (with -div<scale> before .redis when scaled).
func Export(x scenes.Export, label bool, id string, seed uint64, s sim.Snapshot, opts ...ScriptOption) (name string, script []byte) {
	name = fmt.Sprintf("locksim-%s-seed%d", id, seed)
	if x.Scale > 0 {
		name += fmt.Sprintf("-div%d", x.Scale)
	}
	return name + ".redis", []byte(RedisCLIScript(s, x.Scale, label, opts...))
}

// Sink is where an export goes: a directory for a terminal of one's own,
// the session itself for a learner served over SSH. Save stores script
// under name and says where, for the status line.
type Sink interface {
	Save(name string, script []byte) (where string, err error)
}

// Files saves exports as files in Dir (made if missing); "" means the
// user's config directory, os.UserConfigDir()/locksim/exports. Where is
// the file's absolute path.
type Files struct{ Dir string }

// Save writes script to Dir/name.
func (f Files) Save(name string, script []byte) (string, error) {
	dir, err := scenes.Export{Dir: f.Dir}.Where()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", errors.New("could not make " + dir + ": " + err.Error())
	}
	path, err := filepath.Abs(filepath.Join(dir, name))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, script, 0o644); err != nil {
		return "", errors.New("could not write " + path + ": " + err.Error())
	}
	return path, nil
}

// durationArg is a command argument that is a duration: at its position,
// in seconds or milliseconds.
type durationArg struct {
	at   int
	secs bool
}

// ttlUse matches an ARGV a script uses as a duration: PX's argument, the
// TTL of PEXPIRE, or the lease added to the server's now in milliseconds.
var ttlUse = regexp.MustCompile(`(?:"PX",\s*|PEXPIRE['"],\s*[^,]+,\s*(?:math\.max\(tonumber\()?|now \+ tonumber\()ARGV\[(\d+)\]`)

// durationArgs finds the durations among a command's arguments: after
// PX or EX in SET, the TTL of PEXPIRE and EXPIRE, and the ARGV a script's
// source (from sources, by SHA for EVALSHA) uses as a duration.
func durationArgs(args []string, sources map[string]string) []durationArg {
	if len(args) == 0 {
		return nil
	}
	var out []durationArg
	switch cmd := strings.ToUpper(args[0]); {
	case cmd == "SET":
		for i := 3; i+1 < len(args); i++ {
			switch strings.ToUpper(args[i]) {
			case "PX":
				out = append(out, durationArg{at: i + 1})
			case "EX":
				out = append(out, durationArg{at: i + 1, secs: true})
			}
		}
	case cmd == "PEXPIRE" && len(args) >= 3:
		out = append(out, durationArg{at: 2})
	case cmd == "EXPIRE" && len(args) >= 3:
		out = append(out, durationArg{at: 2, secs: true})
	case scenes.IsScript(cmd) && len(args) >= 3:
		src := args[1]
		if cmd == "EVALSHA" {
			src = sources[strings.ToLower(args[1])]
		}
		n, _ := strconv.Atoi(args[2])
		seen := map[int]bool{}
		for _, m := range ttlUse.FindAllStringSubmatch(src, -1) {
			i, _ := strconv.Atoi(m[1])
			if at := 2 + n + i; i > 0 && at < len(args) && !seen[at] {
				seen[at] = true
				out = append(out, durationArg{at: at})
			}
		}
	}
	return out
}

// secondsToMillis turns a TTL in seconds into milliseconds for a scaled
// export: EXPIRE becomes PEXPIRE, SET's EX becomes PX.
func secondsToMillis(cmd string, before any) (any, any) {
	switch strings.ToUpper(cmd) {
	case "EXPIRE":
		return "PEXPIRE", before
	}
	return cmd, "PX"
}

// WireDuration is a duration a command sends: as on the wire ("1500 ms",
// "2 s") and in story time at the run's ÷scale.
type WireDuration struct {
	Wire  string
	Story time.Duration
}

// WireDurations is each duration among command args (see durationArgs;
// sources, scenes.ScriptSources, names EVALSHA's scripts) at ÷scale.
func WireDurations(args []string, sources map[string]string, scale int) []WireDuration {
	var out []WireDuration
	for _, d := range durationArgs(args, sources) {
		n, err := strconv.ParseInt(args[d.at], 10, 64)
		if err != nil {
			continue
		}
		unit, ms := " ms", n
		if d.secs {
			unit, ms = " s", n*1000
		}
		out = append(out, WireDuration{Wire: args[d.at] + unit, Story: time.Duration(ms*int64(scale)) * time.Millisecond})
	}
	return out
}
