// The grade verb: -grade DIR -out OUT, the lab run headless in a child
// process of its own with OS limits; the hidden verb that child runs; and
// the -lab screen's refusal of a live server, which -grade shares.

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"locksim/lab"
	"locksim/lab/grade"
	"locksim/runner"
	"locksim/sim"
)

// labConfig is what the lab's headless flags asked for.
type labConfig struct {
	grade   string        // -grade: the directory of the lock to grade
	out     string        // -out: where results.json goes
	timeout time.Duration // -grade-timeout: the wall limit of the whole grade
	memory  int           // -grade-memory: the child's resident memory cap, in MB
	level   string        // -level ID: grade against the level's policy
	policy  string        // -policy FILE: grade against a teacher's policy
	// child is the hidden verb's directory (-grade-child DIR): the search
	// itself, run by -grade in a process of its own, results on stdout
	child string
	// search is the hidden verb -lab-child: a served lab session's search
	// in a process of its own (lab.ServeChild on stdin and stdout)
	search bool
}

// The limits of a grade by default: a minute of wall time (the largest
// bound lab.json may ask for is about a minute of searching on one core),
// and 1 GB of resident memory (a script may make 64 MB a run; a -race
// build's shadow memory takes several times a plain one's).
const (
	defaultGradeTimeout = time.Minute
	defaultGradeMemory  = 1024
)

// errEmbeddedOnly is the one line -lab and -grade give with -redis.
var errEmbeddedOnly = errors.New("the lab runs on the embedded server only: a learner's script can name any key, " +
	"and nothing proves a live server's other keys safe from its writes")

func gradeFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.lab.grade, "grade", "", "")
	fs.StringVar(&c.lab.out, "out", "", "")
	fs.DurationVar(&c.lab.timeout, "grade-timeout", defaultGradeTimeout, "")
	fs.IntVar(&c.lab.memory, "grade-memory", defaultGradeMemory, "")
	fs.StringVar(&c.lab.level, "level", "", "")
	fs.StringVar(&c.lab.policy, "policy", "", "")
	fs.StringVar(&c.lab.child, "grade-child", "", "")
	fs.BoolVar(&c.lab.search, "lab-child", false, "")
}

// checkGrade reports a usage error in the lab's flags once fs is parsed:
// -grade and -out, and -lab (the course's) with -redis.
func checkGrade(_ *flag.FlagSet, c *config) error {
	switch {
	case (c.labDir != "" || c.lab.grade != "") && c.redis != "":
		return errEmbeddedOnly
	case c.lab.grade != "" && dirProblem(c.lab.grade) != "":
		// before -out is asked for: DIR is the first thing to put right
		return fmt.Errorf("-grade %s: %s", c.lab.grade, dirProblem(c.lab.grade))
	case c.lab.grade != "" && c.lab.out == "":
		return errors.New("-grade needs -out DIR: results.json is written there")
	case c.lab.out != "" && c.lab.grade == "":
		return errors.New("-out goes with -grade")
	case c.lab.grade != "" && c.labDir != "":
		return errors.New("-grade and -lab do not go together: -grade runs headless")
	case c.lab.level != "" && c.lab.policy != "":
		return errors.New("-level and -policy do not go together: each pins the policy the lock is graded against")
	case (c.lab.level != "" || c.lab.policy != "") && c.lab.grade == "" && c.lab.child == "":
		return errors.New("-level and -policy go with -grade")
	case c.lab.timeout <= 0:
		return errors.New("-grade-timeout must be above 0")
	case c.lab.memory <= 0:
		return errors.New("-grade-memory must be above 0 MB")
	case c.lab.grade != "":
		// before the search runs for a minute: results.json must land,
		// and in no directory made with a name a terminal obeys
		if err := lab.CheckPath("-out", c.lab.out); err != nil {
			return err
		}
		return writableDir("-out", c.lab.out)
	}
	return nil
}

// runGrade grades -grade DIR against the policy -level ID or -policy FILE
// pins (the student's lab.json then unread), or the default policy that
// lab.json may only widen, and writes OUT/results.json. The search runs
// in a child process (this binary, the hidden -grade-child verb) under
// runner's limits (labConfig.limits): killed at -grade-timeout, at
// -grade-memory of resident memory, at its CPU rlimit, or when this
// process is asked to stop (SIGTERM, SIGINT), each where the OS allows;
// stdout's second line says which hold. Exit status, as a script that
// grades a class tests it: 0 when results.json is written and says pass;
// 1 when it says fail or error (a check failed, the script erred, a
// limit's end: the message names it), and when the file cannot be
// written, the child cannot start, or the grade was stopped (results.json
// then says so); 2 for a usage error (no such directory, no acquire).
func runGrade(ctx context.Context, e *env, cf config, _ *sim.Backend) int {
	c := cf.lab
	res, usage, err := gradeInChild(ctx, c)
	switch {
	case usage != "":
		fmt.Fprint(e.err, usage)
		return 2
	case err != nil:
		fmt.Fprintf(e.err, "locksim: -grade: %v\n", err)
		return 1
	}
	if err := grade.Write(c.out, res); err != nil {
		fmt.Fprintf(e.err, "locksim: %v\n", err)
		return 1
	}
	if ctx.Err() != nil {
		fmt.Fprintf(e.err, "locksim: -grade was stopped: %s says so\n", filepath.Join(c.out, "results.json"))
		return 1
	}
	line := string(res.Status) + ": " + filepath.Join(c.out, "results.json")
	if res.Status == lab.Error {
		// why it could not be graded, in one line: a refused file, a
		// script's error at its line, a limit
		why, _, _ := strings.Cut(res.Message, "\n")
		if len(why) > 300 {
			why = why[:297] + "..."
		}
		line += ": " + why
	}
	// the message is the learner's script's (its error(...)), the path
	// the user's: escaped, so no byte of either reaches the terminal as a
	// command
	fmt.Fprintln(e.out, sim.Escape(line))
	fmt.Fprintln(e.out, c.limits().Holds())
	if res.Status != lab.Pass {
		return 1 // a grading script's `if locksim -grade …` passes the lock only here
	}
	return 0
}

// stopped is results.json for a grade a limit or a signal ended.
func stopped(why string) grade.Results {
	return grade.Results{Version: 2, Status: lab.Error, Message: "stopped: " + why, Tests: []grade.TestResult{}}
}

// gradeInChild runs the hidden verb on c.grade and returns its results;
// usage is the child's one line for a usage error (exit 2), err a failure
// to run it at all.
func gradeInChild(ctx context.Context, c labConfig) (res grade.Results, usage string, err error) {
	self, err := os.Executable()
	if err != nil {
		return res, "", err
	}
	args := []string{"-grade-child", c.grade}
	switch {
	case c.level != "":
		args = append(args, "-level", c.level)
	case c.policy != "":
		args = append(args, "-policy", c.policy)
	}
	cmd := exec.Command(self, args...)
	// the cli's tests start their own binary as locksim with this set
	cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	werr := runner.Run(ctx, cmd, c.limits())
	var limit *runner.LimitError
	switch {
	case errors.As(werr, &limit):
		return stoppedAt(limit), "", nil
	case ctx.Err() != nil && errors.Is(werr, ctx.Err()):
		return stopped("locksim -grade was interrupted before the search ended (SIGTERM or SIGINT)"), "", nil
	case cmd.ProcessState == nil:
		return res, "", fmt.Errorf("cannot start the search: %w", werr)
	}
	return childResults(werr, cmd, stdout.Bytes(), stderr.String())
}

// stoppedAt is results.json for a search a limit ended, naming the limit
// and the flag that sets it.
func stoppedAt(limit *runner.LimitError) grade.Results {
	l := limit.Limits
	switch limit.Limit {
	case runner.WallTime:
		return stopped(fmt.Sprintf("the grade ran past its time limit of %s (-grade-timeout)", l.Wall))
	case runner.Memory:
		return stopped(fmt.Sprintf("the search used more than %d MB of memory (-grade-memory)", l.MemoryMB))
	}
	return stopped(fmt.Sprintf("the search ran past its CPU limit of %d s (the kernel's)", l.CPU))
}

// childResults reads how the child ended by itself: its results on
// stdout, or its usage error.
func childResults(werr error, cmd *exec.Cmd, stdout []byte, stderr string) (grade.Results, string, error) {
	var res grade.Results
	switch cmd.ProcessState.ExitCode() {
	case 0:
		if err := json.Unmarshal(stdout, &res); err != nil {
			return res, "", fmt.Errorf("the search's results cannot be read: %v", err)
		}
		return res, "", nil
	case 2:
		return res, stderr, nil
	}
	line := strings.TrimSpace(stderr)
	if line == "" {
		line = fmt.Sprint(werr)
	}
	return stopped("the search failed: " + line), "", nil
}

// limits are the runner's limits of the grade's search: -grade-timeout,
// -grade-memory, and a CPU limit of twice the wall limit and one second,
// so that the collector's work on a second core does not end a grade the
// wall limit would have let finish (the backstop for a parent that cannot
// kill it). It keeps the normal priority: a grader runs it on its own.
func (c labConfig) limits() runner.Limits {
	return runner.Limits{Wall: c.timeout, MemoryMB: c.memory,
		CPU: 2*int((c.timeout+time.Second-1)/time.Second) + 1}
}

// gradeChild is the hidden verb -grade-child DIR (its CPU limit set by
// runner.Enter in Main): it runs the search and prints the results as
// JSON on stdout. Exit status 0 with
// the results; 2 and one line on stderr for a usage error; 1 otherwise.
func gradeChild(ctx context.Context, e *env, cf config, _ *sim.Backend) int {
	c := cf.lab
	res, err := grade.Dir(ctx, c.child, grade.Pin{Level: c.level, Policy: c.policy})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(e.err, "locksim: -grade %s: no such directory\n", sim.Escape(c.child))
		return 2
	case errors.Is(err, lab.ErrNoAcquire):
		fmt.Fprintf(e.err, "locksim: -grade: %s: the lock needs at least an acquire and a release\n", errLine(err))
		return 2
	case err != nil && ctx.Err() == nil:
		fmt.Fprintf(e.err, "locksim: -grade: %s\n", errLine(err))
		return 2
	case err != nil:
		fmt.Fprintln(e.err, "locksim: interrupted")
		return 1
	}
	data, err := json.Marshal(res)
	if err != nil {
		fmt.Fprintf(e.err, "locksim: %v\n", err)
		return 1
	}
	_, _ = e.out.Write(data)
	return 0
}
