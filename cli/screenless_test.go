package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestThemeWhereNoScreenDraws: -theme high-contrast (like every screen
// flag, screenFlags) is refused where no screen draws: -trials with
// -plain or without a terminal (its table), -list, -history. One line,
// exit 2, nothing on stdout; -theme default still goes with them.
func TestThemeWhereNoScreenDraws(t *testing.T) {
	html := t.TempDir() + "/h.html"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-trials", "3", "-plain"}, "it does not go with -plain"},
		{[]string{"-trials", "3"}, "locksim writes the trials' table"},
		{[]string{"-list"}, "-list writes the list of scenes and draws no screen"},
		{[]string{"-history", html, "-scene", "race"}, "-history writes the history page and draws no screen"},
	} {
		args := append([]string{"-theme", "high-contrast"}, c.args...)
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb)
		errs := errb.String()
		if code != 2 || out.Len() != 0 || strings.Count(errs, "\n") != 1 ||
			!strings.HasPrefix(errs, "locksim: -theme is the interactive screen's colours") || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line with %q", args, code, out.String(), errs, c.want)
		}
		args[1] = "default"
		out.Reset()
		errb.Reset()
		if code := Main(args, strings.NewReader(""), &out, &errb); code != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 0", args, code, errb.String())
		}
	}
}
