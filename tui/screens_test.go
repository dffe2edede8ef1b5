package tui

import (
	"strings"
	"testing"
)

// verdictRow is the screen's verdict line ("" when none is drawn).
func verdictRow(view string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, "verdict ") {
			return l
		}
	}
	return ""
}

// TestTimeoutFailFastCountsNoRetries: failing fast, no client retries, so
// the verdict says so rather than "0 of 0 retries in step"; a retrying
// policy before its first retry says there are none yet.
func TestTimeoutFailFastCountsNoRetries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ presses, want string }{
		{"mmmnnnnnnn", " · no retries"}, // fail fast, to the end
		{"nnn", " · no retries yet"},    // every 100 ms, the first SETs refused
	} {
		a := openScene(t, embedded(t), "timeout", 1, 80, 24, c.presses)
		v := verdictRow(a.View())
		if !strings.HasSuffix(v, c.want) || strings.Contains(v, "0 of 0") {
			t.Errorf("after %q the verdict reads %q, want it to end %q\n%s", c.presses, v, c.want, a.View())
		}
	}
}
