package lab

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Readme is the README.md a lab directory gets with its first lock: what
// each file is, the placeholders, how to run the lab and a grade, and how
// to read a break and its story code. It answers no level's question.
const Readme = `# A lock for locksim's lab

This directory is a lock the lab's adversary tries to break.

| file | what it is |
| --- | --- |
| acquire.lua or acquire.redis | takes the lock: OK or an integer above 0 means granted (an integer a Lua acquire returns is the client's fencing token) |
| release.lua or release.redis | gives it back: 1 or OK means released |
| extend.lua or extend.redis | optional: renews the lease; 1 or OK means extended, anything else tells the holder it lost the lock |
| lab.json | optional: the TTL, retries, watchdog, the faults in scope, the bound, the properties judged |

A .lua part runs as EVAL runs it: KEYS[1] is the lock key, ARGV[1] the
client's token, ARGV[2] the TTL in milliseconds. A .redis part is one
command a line; in it {key} is the lock key, {token} the client's token,
{ttl} the TTL in milliseconds and {ttl_s} in seconds, and a line may start
with a guard on the reply before it (if nil:, if ok:, if token:, if 1:).

Run the lab on it: locksim -lab DIR (ctrl+r runs the adversary, ctrl+s
saves). Grade it as a course would: locksim -grade DIR -out OUT, which
writes OUT/results.json (-level ID grades it against a level's policy).

Reading a break: each property is ✓ (no break within the bound) or ✗ with
the shortest schedule that broke it: its moves (a client's step, a pause,
a crash, a lost reply), the faults it needed, and what the last move did.
A break that only a fault ending every lease makes (a pause past the TTL,
the clock jumping, a restart) is a lesson, not a bug of your lock. Each
break has a story code: locksim -story CODE (or the file OUT/lab-....code
the grade names) plays it step by step, as the search saw it.

See docs/lab.md in locksim for everything else.
`

// writeReadme puts Readme in dir as README.md, unless a file of that name
// is there already (a learner's own notes are never overwritten).
func writeReadme(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, "README.md"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = f.WriteString(Readme)
	return errors.Join(err, f.Close())
}
