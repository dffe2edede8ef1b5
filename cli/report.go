// The report verb: -report CODE, a saved class's report on the command
// line, in locksim's own CSV or as a gradebook for Canvas or Moodle.

package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"locksim/class"
	"locksim/gradebook"
	"locksim/sim"
)

// reportConfig is what -report's flags asked for.
type reportConfig struct {
	code     string // -report CODE: the class
	format   string // -format: locksim (the default), canvas or moodle
	roster   string // -roster FILE: the school's students (canvas, moodle)
	scoring  string // -scoring FILE: the teacher's weights (default gradebook.DefaultScoring)
	total    bool   // -total: one column, every item summed
	zero     bool   // -zero: 0 for a roster student who never joined, not an empty cell
	moodleID string // -moodle-id: the Moodle file's identifier column
}

func reportFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.report.code, "report", "", "")
	fs.StringVar(&c.report.format, "format", "locksim", "")
	fs.StringVar(&c.report.roster, "roster", "", "")
	fs.StringVar(&c.report.scoring, "scoring", "", "")
	fs.BoolVar(&c.report.total, "total", false, "")
	fs.BoolVar(&c.report.zero, "zero", false, "")
	fs.StringVar(&c.report.moodleID, "moodle-id", gradebook.MoodleEmail, "")
}

// checkReport checks -report and its flags: each of them needs it, the
// format is one of three, a gradebook needs a roster, and the class is
// read from -serve-dir or -class-redis.
func checkReport(fs *flag.FlagSet, c *config) error {
	var only []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "format", "roster", "scoring", "total", "zero", "moodle-id":
			only = append(only, "-"+f.Name)
		}
	})
	r := c.report
	if r.code == "" && (c.serve.addr != "" || c.serve.web != "") {
		// served, the roster and the scoring are ssh HOST report CODE -format …'s
		for _, f := range only {
			if f != "-roster" && f != "-scoring" {
				return fmt.Errorf("%s is report's, per call: ssh HOST report CODE -format canvas|moodle [-total] [-zero] [-moodle-id F]", f)
			}
		}
		return nil
	}
	if r.code == "" {
		if len(only) > 0 {
			return fmt.Errorf("%s needs -report CODE (a saved class's report) or -serve ADDR", only[0])
		}
		return nil
	}
	gb := r.format == string(gradebook.Canvas) || r.format == string(gradebook.Moodle)
	switch {
	case c.serve.addr != "" || c.serve.web != "":
		return errors.New("-report writes a saved class's report and exits: it does not go with -serve or -web (over SSH: ssh HOST report CODE)")
	case !class.ValidCode(r.code):
		return fmt.Errorf("-report wants a class code, %d letters as the class view shows it, got %q", class.CodeLen, r.code)
	case r.format != "locksim" && !gb:
		return fmt.Errorf("-format is locksim, canvas or moodle, got %q", r.format)
	case c.serve.dir == "" && c.serve.classRedis == "":
		return errors.New("-report reads the class where the server kept it: give its -serve-dir DIR or -class-redis URL")
	case c.serve.dir != "" && c.serve.classRedis != "":
		return errors.New("-report reads the class from one place: -serve-dir or -class-redis, not both")
	case gb && r.roster == "":
		return fmt.Errorf("-format %s needs -roster FILE: the school's students, a CSV with a name column (see docs/classroom.md)", r.format)
	case !gb && (r.roster != "" || r.scoring != "" || r.total || r.zero):
		return errors.New("-roster, -scoring, -total and -zero shape a gradebook: give -format canvas or -format moodle")
	case r.moodleID != gradebook.MoodleEmail && r.format != string(gradebook.Moodle):
		return errors.New("-moodle-id names the Moodle file's identifier column: give -format moodle")
	case r.moodleID != gradebook.MoodleEmail && r.moodleID != gradebook.MoodleUsername && r.moodleID != gradebook.MoodleIDNumber:
		return fmt.Errorf("-moodle-id is email, username or idnumber, got %q", r.moodleID)
	}
	return nil
}

// runReport is -report CODE: the class's report on stdout, written whole
// or not at all. A roster or scoring file that does not read, or a class
// not found, is a usage error (2) before anything is written; the
// students of no roster row are named on stderr.
func runReport(ctx context.Context, e *env, c config, _ *sim.Backend) int {
	r := c.report
	ro, scoring, ok := readBook(c, e.err)
	if !ok {
		return 2
	}
	o := gradebook.Options{Format: gradebook.Format(r.format), Scoring: scoring, Total: r.total, Zero: r.zero, MoodleID: r.moodleID}
	if ro != nil {
		// a roster without the identifier the file needs is refused before the class is read
		if _, err := gradebook.Write(io.Discard, ro, nil, o); err != nil {
			fmt.Fprintf(e.err, "locksim: %s: %v\n", r.roster, err)
			return 2
		}
	}
	info, ms, err := savedClass(ctx, c, r.code)
	if errors.Is(err, class.ErrNoClass) {
		where := filepath.Join(c.serve.dir, "classes")
		if c.serve.classRedis != "" {
			where = "that server"
		}
		fmt.Fprintf(e.err, "locksim: no class has code %q in %s (closed over -class-retention ago, or cleared?)\n", r.code, where)
		return 2
	}
	if err != nil {
		fmt.Fprintf(e.err, "locksim: -report: %v\n", err)
		return 2
	}
	var out bytes.Buffer
	if r.format == "locksim" {
		err = class.WriteReport(&out, info, ms, time.Now())
	} else {
		_, err = gradebook.Write(&out, ro, ms, o)
		if err == nil {
			for _, n := range gradebook.Notes(ro, ms, r.code) {
				fmt.Fprintf(e.err, "locksim: %s\n", n)
			}
		}
	}
	if err != nil {
		fmt.Fprintf(e.err, "locksim: -report: %v\n", err)
		return 1
	}
	if _, err := out.WriteTo(e.out); err != nil {
		fmt.Fprintf(e.err, "locksim: -report: %v\n", err)
		return 1
	}
	return 0
}

// savedClass is class code and its rows, from -serve-dir's classes or
// the -class-redis server.
func savedClass(ctx context.Context, c config, code string) (class.Info, []class.Member, error) {
	if c.serve.dir != "" {
		return class.ReadSaved(filepath.Join(c.serve.dir, "classes"), code)
	}
	h, err := class.NewRedis(ctx, c.serve.classRedis, nil)
	if err != nil {
		return class.Info{}, nil, err
	}
	defer h.Close()
	info, err := h.Find(ctx, code)
	if err != nil {
		return info, nil, err
	}
	ms, err := h.Roster(ctx, code)
	return info, ms, err
}

// readBook reads -roster (nil without it) and -scoring (the defaults
// without it); ok is false once one line on stderr said why not.
func readBook(c config, stderr io.Writer) (ro *gradebook.Roster, scoring gradebook.Scoring, ok bool) {
	scoring = gradebook.DefaultScoring()
	if c.report.roster != "" {
		f, err := os.Open(c.report.roster)
		if err != nil {
			fmt.Fprintf(stderr, "locksim: -roster: %v\n", err)
			return nil, scoring, false
		}
		ro, err = gradebook.ReadRoster(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "locksim: %s: %v\n", c.report.roster, err)
			return nil, scoring, false
		}
	}
	if c.report.scoring != "" {
		f, err := os.Open(c.report.scoring)
		if err != nil {
			fmt.Fprintf(stderr, "locksim: -scoring: %v\n", err)
			return nil, scoring, false
		}
		var err2 error
		scoring, err2 = gradebook.ReadScoring(f)
		f.Close()
		if err2 != nil {
			fmt.Fprintf(stderr, "locksim: %s: %v\n", c.report.scoring, err2)
			return nil, scoring, false
		}
	}
	return ro, scoring, true
}
