package cli

import (
	"strings"
	"testing"
)

// TestClassSizeFitsTheServer: a class cannot be told it has more seats
// than the server gives students (-max-sessions less the slots kept for
// instructors): -class-size 80 on the default 64 sessions, or 9 on 10, is
// one line and status 2, naming the most it may be.
func TestClassSizeFitsTheServer(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-serve", ":0", "-class-size", "80"}, "-class-size 80 is more than the server can seat: -max-sessions 64 keeps 2 for instructors, so a class has at most 62"},
		{[]string{"-web", ":0", "-max-sessions", "10", "-class-size", "9"}, "so a class has at most 8"},
	} {
		code, out, errs := runRefused(t, c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line with %q", c.args, code, out, errs, c.want)
		}
	}
}
