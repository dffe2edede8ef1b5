package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/class"
	"locksim/scenes/progress"
)

// savedTestClass saves a class the way a -serve-dir server does (its
// classes directory, through class.OpenDir), with two students, one of
// whom is on the roster, and an instructor; it returns the -serve-dir,
// the code and a roster file.
func savedTestClass(t *testing.T) (dir, code, roster string) {
	t.Helper()
	dir = t.TempDir()
	h, err := class.OpenDir(filepath.Join(dir, "classes"), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	info, err := h.OpenNamed(ctx, "lead-key", "tuesday")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []class.Member{
		{ID: "lead-key", Name: "Prof", Role: class.Instructor},
		{ID: "web-0123456789ab", Name: "ada lovelace", Role: class.Student, Prog: progress.Progress{
			Done: map[string]bool{"race": true}, Answers: map[string]progress.Answer{"race": {Right: true}}}},
		{ID: "web-bbbbbbbbbbbb", Name: "=Mallory", Role: class.Student, Prog: progress.Progress{Done: map[string]bool{"race": true}}},
	} {
		if err := h.Put(ctx, info.Code, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	roster = filepath.Join(t.TempDir(), "roster.csv")
	if err := os.WriteFile(roster, []byte("name,email,sis id,section\nAda Lovelace,ada@example.edu,S-1,A\nAlan Turing,alan@example.edu,S-3,B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, info.Code, roster
}

// TestReportGradebook: -report CODE reads a saved class, and writes the
// Canvas and Moodle files of its roster with the scoring given, naming on
// stderr (kept from a terminal's and a spreadsheet's reading: quoted) the
// student of no row; the locksim format is the class report.
func TestReportGradebook(t *testing.T) {
	dir, code, roster := savedTestClass(t)
	scoring := filepath.Join(t.TempDir(), "scoring.json")
	if err := os.WriteFile(scoring, []byte(`{"scenes": ["race", "gc-pause"], "lab_level": 0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	unmatched := "locksim: 1 of class " + code + "'s students match no roster row and are not in the file: \"=Mallory\" (web-bbbbbbbb)\n"
	for _, c := range []struct {
		args      []string
		out, errs string
	}{
		{[]string{"-format", "canvas", "-roster", roster, "-scoring", scoring},
			"Student,ID,SIS User ID,SIS Login ID,Section,locksim race,locksim gc-pause\n" +
				"Points Possible,,,,,3,3\n" +
				"\"Lovelace, Ada\",,S-1,ada@example.edu,A,3,0\n" +
				"\"Turing, Alan\",,S-3,alan@example.edu,B,,\n", unmatched},
		{[]string{"-format", "moodle", "-roster", roster, "-scoring", scoring, "-total", "-zero"},
			"email,locksim\nada@example.edu,3\nalan@example.edu,0\n", unmatched},
	} {
		status, stdout, errs := runMain(append([]string{"-report", code, "-serve-dir", dir}, c.args...)...)
		if status != 0 || stdout != c.out || errs != c.errs {
			t.Errorf("%v: exit %d\nstdout:\n%s\nwant:\n%s\nstderr %q, want %q", c.args, status, stdout, c.out, errs, c.errs)
		}
	}
	status, stdout, errs := runMain("-report", code, "-serve-dir", dir)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if status != 0 || errs != "" || !strings.HasPrefix(lines[0], strings.Join(class.ReportHeader, ",")) ||
		!strings.Contains(stdout, ",'=Mallory,") || !strings.Contains(stdout, ",ada lovelace,") {
		t.Errorf("-format locksim: exit %d, stderr %q, stdout:\n%s", status, errs, stdout)
	}
}

// TestReportRefuses: bad input is one line on stderr, exit 2, nothing on
// stdout.
func TestReportRefuses(t *testing.T) {
	dir, code, roster := savedTestClass(t)
	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte("name,login\nAda,ada\nBob,ada\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badScoring := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(badScoring, []byte(`{"quizz": 5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-report", code, "-serve-dir", dir, "-format", "canvas"}, "-format canvas needs -roster FILE"},
		{[]string{"-report", code, "-serve-dir", dir, "-format", "excel", "-roster", roster}, `-format is locksim, canvas or moodle, got "excel"`},
		{[]string{"-report", code, "-format", "canvas", "-roster", roster}, "give its -serve-dir DIR or -class-redis URL"},
		{[]string{"-report", code, "-serve-dir", dir, "-roster", roster}, "-roster, -scoring, -total and -zero shape a gradebook"},
		{[]string{"-roster", roster}, "-roster needs -report CODE"},
		{[]string{"-report", "nope!", "-serve-dir", dir}, "-report wants a class code"},
		{[]string{"-report", "zzzzz", "-serve-dir", dir}, `no class has code "zzzzz"`},
		{[]string{"-report", code, "-serve-dir", dir, "-format", "canvas", "-roster", bad}, "roster: line 3 (Bob): duplicate login: line 2 has it too"},
		{[]string{"-report", code, "-serve-dir", dir, "-format", "canvas", "-roster", roster, "-scoring", badScoring}, `scoring: unknown field "quizz"`},
		{[]string{"-report", code, "-serve-dir", dir, "-format", "moodle", "-roster", roster, "-moodle-id", "username"}, "roster line 2 (Ada Lovelace) has no login"},
		{[]string{"-report", code, "-serve-dir", dir, "-serve", ":0"}, "does not go with -serve"},
		{[]string{"-serve", "127.0.0.1:0", "-format", "canvas"}, "-format is report's, per call: ssh HOST report CODE -format"},
		{[]string{"-serve", "127.0.0.1:0", "-host-key", filepath.Join(t.TempDir(), "k"), "-roster", bad}, "roster: line 3 (Bob): duplicate login"},
		{[]string{"-serve", "127.0.0.1:0", "-host-key", filepath.Join(t.TempDir(), "k"), "-roster", roster, "-scoring", badScoring}, `scoring: unknown field "quizz"`},
	} {
		status, stdout, errs := runMain(c.args...)
		want := 2
		if status != want || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, status, stdout, errs, want, c.want)
		}
	}
}
