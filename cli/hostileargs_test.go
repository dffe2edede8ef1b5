package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileArgumentsShown: a control character in the user's own
// argument (a path, a URL, an address) is escaped in the one line a usage
// error prints, as -scene and -theme quote theirs: exit 2, one line on
// stderr, nothing a terminal would obey.
func TestHostileArgumentsShown(t *testing.T) {
	const bad = "\x1b]0;T\a\u202e"
	const want = `\x1b]0;T\a\u202e`
	missing := filepath.Join(t.TempDir(), "nonexist"+bad)
	for _, args := range [][]string{
		{"-lab", filepath.Join(missing, "x")},
		{"-redis", "redis://h" + bad + ":1"},
		{"-redis", "redis://127.0.0.1:1/0" + bad},
		{"-history", filepath.Join(missing, "x.html"), "-scene", "race"},
		{"-history", filepath.Join(t.TempDir(), "x"+bad+".htm"), "-scene", "race"},
		{"-serve", "bad" + bad},
		{"-serve", "127.0.0.1:0" + bad},
		{"-web", "bad" + bad},
		{"-scene", "x" + bad},
		{"-scenes", "race,x" + bad},
		{"-theme", "x" + bad},
	} {
		code, stdout, errs := runMain(args...)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "locksim: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and one line on stderr", args, code, stdout, errs)
		}
		if o := obeyed(errs); o != "" || !strings.Contains(errs, want) {
			t.Errorf("%q: stderr %q sends %q; want the argument shown as %s", args, errs, o, want)
		}
	}
}

// TestHostileGradeLine: -grade's line of a lock that cannot be graded
// gives the script's error(...) message escaped: the learner's bytes
// reach the grader's terminal as text.
func TestHostileGradeLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "evil")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"acquire.lua": `error("\27]0;PWNED\7\226\128\174")` + "\n", "release.redis": "DEL {key}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, errs := runMain("-grade", dir, "-out", filepath.Join(t.TempDir(), "out"))
	if code != 1 || !strings.HasPrefix(stdout, "error: ") || !strings.Contains(stdout, `acquire.lua:1: \x1b]0;PWNED\a\u202e`) {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the script's error escaped", code, stdout, errs)
	}
	if o := obeyed(stdout + errs); o != "" {
		t.Errorf("-grade sends %q", o)
	}
}

// TestLabPathWithControlsRefused: -lab DIR whose path holds a control
// character is refused in one line, exit 2, the path escaped, whether
// the directory exists or not (its parent does: the screen would have
// made it, bytes and all, at the first save); nothing is made.
func TestLabPathWithControlsRefused(t *testing.T) {
	parent := t.TempDir()
	existing := filepath.Join(parent, "old\x1b[2J")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(parent, "new\u202e\a"), existing, filepath.Join(parent, "bad\xff")} {
		code, stdout, errs := runMain("-lab", dir)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "the path holds control characters") {
			t.Errorf("-lab %q: exit %d, stdout %q, stderr %q; want 2 and the one line that refuses it", dir, code, stdout, errs)
		}
		if o := obeyed(errs); o != "" {
			t.Errorf("-lab %q: stderr %q sends %q", dir, errs, o)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("%d entries in %s; want only the one made here", len(entries), parent)
	}
}

// TestGradeOutWithControlsRefused: -grade's -out DIR whose path holds a
// control character is refused as -lab's is, in one line, exit 2, the
// path escaped, before anything is graded, whether it exists or not;
// nothing is made (a missing -out was made, bytes and all).
func TestGradeOutWithControlsRefused(t *testing.T) {
	lock := filepath.Join(t.TempDir(), "lock")
	if err := os.Mkdir(lock, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"acquire.redis": "SET {key} {token} NX PX {ttl}\n", "release.redis": "DEL {key}\n"} {
		if err := os.WriteFile(filepath.Join(lock, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	parent := t.TempDir()
	existing := filepath.Join(parent, "old\x1b[2J")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(parent, "new\u202e\a"), filepath.Join(parent, "new\u202e", "sub"), existing, filepath.Join(parent, "bad\xff")} {
		code, stdout, errs := runMain("-grade", lock, "-out", out)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "-out ") || !strings.Contains(errs, "the path holds control characters") {
			t.Errorf("-out %q: exit %d, stdout %q, stderr %q; want 2 and the one line that refuses it", out, code, stdout, errs)
		}
		if o := obeyed(errs); o != "" {
			t.Errorf("-out %q: stderr %q sends %q", out, errs, o)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("%d entries in %s; want only the one made here", len(entries), parent)
	}
}
