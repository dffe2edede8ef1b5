// The grade verb: -grade DIR -out OUT, the lab run headless; and the -lab
// screen's refusal of a live server, which -grade shares.

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"

	"locksim/lab"
	"locksim/lab/grade"
	"locksim/sim"
)

// labConfig is what the lab's headless flags asked for.
type labConfig struct {
	grade string // -grade: the directory of the lock to grade
	out   string // -out: where results.json goes
}

// errEmbeddedOnly is the one line -lab and -grade give with -redis.
var errEmbeddedOnly = errors.New("the lab runs on the embedded server only: a learner's script can name any key, " +
	"and nothing proves a live server's other keys safe from its writes")

func gradeFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.lab.grade, "grade", "", "")
	fs.StringVar(&c.lab.out, "out", "", "")
}

// checkGrade reports a usage error in the lab's flags once fs is parsed:
// -grade and -out, and -lab (the course's) with -redis.
func checkGrade(_ *flag.FlagSet, c *config) error {
	switch {
	case (c.labDir != "" || c.lab.grade != "") && c.redis != "":
		return errEmbeddedOnly
	case c.lab.grade != "" && c.lab.out == "":
		return errors.New("-grade needs -out DIR: results.json is written there")
	case c.lab.out != "" && c.lab.grade == "":
		return errors.New("-out goes with -grade")
	case c.lab.grade != "" && c.labDir != "":
		return errors.New("-grade and -lab do not go together: -grade runs headless")
	}
	return nil
}

// runGrade runs the adversary on -grade DIR and writes OUT/results.json:
// 0 once it is written, whatever the lock's result; 2 for a usage error
// (no such directory, no acquire); 1 when the file cannot be written.
func runGrade(ctx context.Context, e *env, cf config, _ *sim.Backend) int {
	c := cf.lab
	res, err := grade.Dir(ctx, c.grade)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(e.err, "locksim: -grade %s: no such directory\n", c.grade)
		return 2
	case errors.Is(err, lab.ErrNoAcquire):
		fmt.Fprintf(e.err, "locksim: -grade: %v: the lock needs at least an acquire and a release\n", err)
		return 2
	case ctx.Err() != nil:
		fmt.Fprintln(e.err, "locksim: interrupted: no results written")
		return 1
	case err != nil:
		fmt.Fprintf(e.err, "locksim: -grade: %v\n", err)
		return 2
	}
	if err := grade.Write(c.out, res); err != nil {
		fmt.Fprintf(e.err, "locksim: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.out, "%s: %s\n", res.Status, c.out+"/results.json")
	return 0
}
