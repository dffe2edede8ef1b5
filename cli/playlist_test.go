package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestPlaylistWithoutTerminal: without a terminal the plain transcript is
// the default, and -scenes (the screen's playlist) is refused there as it
// is with -plain: one line, exit 2, nothing on stdout. Here stdin is a
// reader and stdout a buffer, neither of them a terminal.
func TestPlaylistWithoutTerminal(t *testing.T) {
	for _, args := range [][]string{
		{"-scenes", "gc-pause,fencing"},
		{"-scenes", "race", "-seed", "3"},
	} {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb)
		errs := errb.String()
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "locksim: -scenes is the interactive screen's playlist") ||
			!strings.Contains(errs, "not a terminal") {
			t.Errorf("%v: stderr %q, want one line refusing -scenes without a terminal", args, errs)
		}
		if out.Len() != 0 {
			t.Errorf("%v: stdout has %d bytes, want nothing", args, out.Len())
		}
	}
}
