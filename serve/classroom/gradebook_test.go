package classroom

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"locksim/class"
	"locksim/gradebook"
	"locksim/scenes/progress"
	"locksim/serve"
)

// TestReportBook: `report CODE -format canvas|moodle` over SSH writes the
// class's gradebook for the server's roster (a student matched by name,
// one who never joined, one of no row named on stderr), the class report
// without -format, and refuses bad input in one line, exit 2, nothing on
// stdout; another key than the class's leader gets nothing.
func TestReportBook(t *testing.T) {
	ctx := context.Background()
	hub := class.NewMemory(nil)
	info, err := hub.OpenNamed(ctx, "lead-hash", "tuesday")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []class.Member{
		{ID: "web-0123456789ab", Name: "ADA lovelace", Role: class.Student, Prog: progress.Progress{
			Done: map[string]bool{"race": true}, Answers: map[string]progress.Answer{"race": {Right: true}}}},
		{ID: "web-bbbbbbbbbbbb", Name: "+Mallory", Role: class.Student},
	} {
		if err := hub.Put(ctx, info.Code, m); err != nil {
			t.Fatal(err)
		}
	}
	ro, err := gradebook.ReadRoster(strings.NewReader("name,email,login,sis id\nAda Lovelace,ada@example.edu,ada,S-1\nAlan Turing,alan@example.edu,,S-3\n"))
	if err != nil {
		t.Fatal(err)
	}
	scoring, err := gradebook.ReadScoring(strings.NewReader(`{"scenes": ["race"], "lab_level": 0}`))
	if err != nil {
		t.Fatal(err)
	}
	run := func(cmd serve.Command, key string, args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := cmd.Run(ctx, serve.Call{Name: "report", Args: args, Out: &out, Err: &errs,
			Who: serve.Identity{Instructor: true, KeyHash: key}})
		return code, out.String(), errs.String()
	}
	cmd := ReportBookAt(hub, ro, scoring, atReport)
	unmatched := "locksim: 1 of class " + info.Code + "'s students match no roster row and are not in the file: \"+Mallory\" (web-bbbbbbbb)\n"
	for _, c := range []struct {
		args      []string
		out, errs string
	}{
		{[]string{info.Code, "-format", "canvas"}, "Student,ID,SIS User ID,SIS Login ID,Section,locksim race\nPoints Possible,,,,,3\n" +
			"\"Lovelace, Ada\",,S-1,ada,,3\n\"Turing, Alan\",,S-3,alan@example.edu,,\n", unmatched},
		{[]string{info.Code, "-format", "moodle", "-moodle-id", "idnumber", "-zero"}, "idnumber,locksim race\nS-1,3\nS-3,0\n", unmatched},
	} {
		code, out, errs := run(cmd, "lead-hash", c.args...)
		if code != 0 || out != c.out || errs != c.errs {
			t.Errorf("%v: exit %d\nstdout:\n%s\nwant:\n%s\nstderr %q, want %q", c.args, code, out, c.out, errs, c.errs)
		}
	}
	var want bytes.Buffer
	roster, _ := hub.Roster(ctx, info.Code)
	if err := class.WriteReport(&want, info, roster, atReport()); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{info.Code}, {info.Code, "-format", "locksim"}} {
		if code, out, errs := run(cmd, "lead-hash", args...); code != 0 || out != want.String() || errs != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout:\n%s\nwant the class report:\n%s", args, code, errs, out, want.String())
		}
	}
	for _, c := range []struct {
		cmd  serve.Command
		key  string
		args []string
		code int
		want string
	}{
		{cmd, "lead-hash", []string{info.Code, "-format", "excel"}, 2, `-format is locksim, canvas or moodle, got "excel"`},
		{cmd, "lead-hash", []string{"-format", "canvas", info.Code}, 2, "give the class's code first"},
		{cmd, "lead-hash", []string{info.Code, "-format", "canvas", "extra"}, 2, `unexpected argument "extra"`},
		{cmd, "lead-hash", []string{info.Code, "-total"}, 2, "-total, -zero and -moodle-id shape a gradebook"},
		{cmd, "lead-hash", []string{info.Code, "-format", "canvas", "-moodle-id", "username"}, 2, "give -format moodle"},
		{cmd, "lead-hash", []string{info.Code, "-nope"}, 2, "flag provided but not defined: -nope"},
		{cmd, "lead-hash", []string{info.Code, "-format", "moodle", "-moodle-id", "username"}, 1, "roster line 3 (Alan Turing) has no login"},
		{ReportBookAt(hub, nil, scoring, atReport), "lead-hash", []string{info.Code, "-format", "canvas"}, 2, "needs the class's roster"},
		{cmd, "other-hash", []string{info.Code, "-format", "canvas"}, 1, "led by another instructor's key"},
	} {
		code, out, errs := run(c.cmd, c.key, c.args...)
		if code != c.code || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, out, errs, c.code, c.want)
		}
	}
}
