package cli

import (
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
