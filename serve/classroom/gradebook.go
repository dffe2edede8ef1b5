package classroom

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"locksim/class"
	"locksim/gradebook"
	"locksim/serve"
)

// ReportBook is the report command with the gradebook's formats: `ssh
// host report CODE [-format locksim|canvas|moodle] [-total] [-zero]
// [-moodle-id email|username|idnumber] > grades.csv`. locksim (the
// default) is the class report, as Report writes it; canvas and moodle
// are the class's gradebook (gradebook.Write) for roster ro with scoring
// s, the files the server was given (-roster, -scoring), and name on
// stderr the students of no roster row. Without a roster (ro nil) canvas
// and moodle are refused in one line, exit 2; like Report, only the key
// that leads the class runs it.
func ReportBook(hub class.Hub, ro *gradebook.Roster, s gradebook.Scoring) serve.Command {
	return ReportBookAt(hub, ro, s, time.Now)
}

// ReportBookAt is ReportBook with the clock that stamps the class report.
func ReportBookAt(hub class.Hub, ro *gradebook.Roster, s gradebook.Scoring, now func() time.Time) serve.Command {
	const usage = "ssh host report CODE [-format locksim|canvas|moodle] [-total] [-zero] [-moodle-id email|username|idnumber] > grades.csv"
	return serve.Command{Args: "CLASS [-format F]", Run: func(ctx context.Context, call serve.Call) int {
		if len(call.Args) < 1 || strings.HasPrefix(call.Args[0], "-") {
			return call.Usage("give the class's code first: %s", usage)
		}
		fs := flag.NewFlagSet("report", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		format := fs.String("format", "locksim", "")
		o := gradebook.Options{Scoring: s}
		fs.BoolVar(&o.Total, "total", false, "")
		fs.BoolVar(&o.Zero, "zero", false, "")
		fs.StringVar(&o.MoodleID, "moodle-id", gradebook.MoodleEmail, "")
		if err := fs.Parse(call.Args[1:]); err != nil {
			return call.Usage("%v: %s", err, usage)
		}
		if fs.NArg() > 0 {
			return call.Usage("unexpected argument %q: %s", fs.Arg(0), usage)
		}
		o.Format = gradebook.Format(*format)
		book := o.Format == gradebook.Canvas || o.Format == gradebook.Moodle
		switch {
		case *format != "locksim" && !book:
			return call.Usage("-format is locksim, canvas or moodle, got %q", *format)
		case book && ro == nil:
			return call.Usage("-format %s needs the class's roster: the server's operator starts it with -roster FILE (see docs/classroom.md)", *format)
		case !book && (o.Total || o.Zero || o.MoodleID != gradebook.MoodleEmail):
			return call.Usage("-total, -zero and -moodle-id shape a gradebook: give -format canvas or -format moodle")
		case o.MoodleID != gradebook.MoodleEmail && o.Format != gradebook.Moodle:
			return call.Usage("-moodle-id names the Moodle file's identifier column: give -format moodle")
		case o.MoodleID != gradebook.MoodleEmail && o.MoodleID != gradebook.MoodleUsername && o.MoodleID != gradebook.MoodleIDNumber:
			return call.Usage("-moodle-id is email, username or idnumber, got %q", o.MoodleID)
		}
		one := call
		one.Args = call.Args[:1]
		info, code := led(ctx, hub, one, usage)
		if code != 0 {
			return code
		}
		roster, err := hub.Roster(ctx, info.Code)
		if err != nil {
			return call.Fail(err)
		}
		if !book {
			if err := class.WriteReport(call.Out, info, roster, now()); err != nil {
				return call.Fail(err)
			}
			return 0
		}
		// written whole or not at all: a roster without the identifier the
		// file needs is refused before a byte goes out
		var out strings.Builder
		if _, err := gradebook.Write(&out, ro, roster, o); err != nil {
			return call.Fail(err)
		}
		for _, n := range gradebook.Notes(ro, roster, info.Code) {
			fmt.Fprintf(call.Err, "locksim: %s\n", n)
		}
		if _, err := io.WriteString(call.Out, out.String()); err != nil {
			return call.Fail(errors.New("the file was not sent whole: " + err.Error()))
		}
		return 0
	}}
}
