package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputSaysWhat: a path or URL that is wrong gets one line naming
// the flag and what is wrong with it (a file where a directory goes, a
// port out of range), said before anything connects or asks for more.
func TestBadInputSaysWhat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nonexistent")
	cases := []struct {
		args []string
		want string
	}{
		// with -plain the flag is refused whatever DIR is: that line first
		{[]string{"-export-dir", file, "-plain"}, "-export-dir is where the interactive screen's y writes a story for redis-cli: it does not go with -plain"},
		// with -story it is where a pointer's file is read
		{[]string{"-plain", "-story", "lab-0123456789", "-export-dir", file}, "-export-dir " + file + ": it is a file, not a directory"},
		{[]string{"-redis", "redis://127.0.0.1:99999/0"}, "bad Redis URL redis://127.0.0.1:99999/0: port 99999 is out of range: a port is from 1 to 65535"},
		{[]string{"-redis", "redis://127.0.0.1:0/0"}, "port 0 is out of range"},
		{[]string{"-serve", "127.0.0.1:0", "-instructors", missing}, "-instructors " + missing + ": no such file: it names the authorized_keys file"},
		{[]string{"-serve", "127.0.0.1:0", "-instructors", t.TempDir()}, ": it is a directory, not a file: it names the authorized_keys file"},
		{[]string{"-grade", file}, "-grade " + file + ": it is a file, not a directory"},
		{[]string{"-grade", missing}, "-grade " + missing + ": no such directory"},
		{[]string{"-grade", file, "-out", t.TempDir()}, "-grade " + file + ": it is a file, not a directory"},
	}
	for _, c := range cases {
		code, out, errs := runMain(c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "locksim: ") || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line containing %q", c.args, code, out, errs, c.want)
		}
		if strings.Contains(errs, "cannot reach") || strings.Contains(errs, "stat ") {
			t.Errorf("%v: stderr %q: the input's fault, said as the system's", c.args, errs)
		}
	}
}
