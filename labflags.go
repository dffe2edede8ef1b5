// The lab's headless flags: -grade DIR -out OUT; and -lab, the lab's
// screen, refused with -redis.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"

	"locksim/lab"
	"locksim/lab/grade"
)

// labConfig is what the lab's headless flags asked for.
type labConfig struct {
	grade string // -grade: the directory of the lock to grade
	out   string // -out: where results.json goes
}

// errEmbeddedOnly is the one line -lab and -grade give with -redis.
var errEmbeddedOnly = errors.New("the lab runs on the embedded server only: a learner's script can name any key, " +
	"and nothing proves a live server's other keys safe from its writes")

func labFlags(fs *flag.FlagSet, c *labConfig) {
	fs.StringVar(&c.grade, "grade", "", "")
	fs.StringVar(&c.out, "out", "", "")
}

// check reports a usage error in the lab's flags once fs is parsed;
// redis is -redis. -lab (the lab's screen) is read from fs by name.
func (c labConfig) check(fs *flag.FlagSet, redis string) error {
	labDir := ""
	if f := fs.Lookup("lab"); f != nil {
		labDir = f.Value.String()
	}
	switch {
	case (labDir != "" || c.grade != "") && redis != "":
		return errEmbeddedOnly
	case c.grade != "" && c.out == "":
		return errors.New("-grade needs -out DIR: results.json is written there")
	case c.out != "" && c.grade == "":
		return errors.New("-out goes with -grade")
	case c.grade != "" && labDir != "":
		return errors.New("-grade and -lab do not go together: -grade runs headless")
	}
	return nil
}

// runGrade runs the adversary on c.grade and writes c.out/results.json: 0
// once it is written, whatever the lock's result; 2 for a usage error (no
// such directory, no acquire); 1 when the file cannot be written.
func runGrade(ctx context.Context, c labConfig, stdout, stderr io.Writer) int {
	res, err := grade.Dir(ctx, c.grade)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(stderr, "locksim: -grade %s: no such directory\n", c.grade)
		return 2
	case errors.Is(err, lab.ErrNoAcquire):
		fmt.Fprintf(stderr, "locksim: -grade: %v: the lock needs at least an acquire and a release\n", err)
		return 2
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "locksim: interrupted: no results written")
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "locksim: -grade: %v\n", err)
		return 2
	}
	if err := grade.Write(c.out, res); err != nil {
		fmt.Fprintf(stderr, "locksim: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %s\n", res.Status, c.out+"/results.json")
	return 0
}
