package runner

import (
	"slices"
	"testing"
)

// TestQuickRaceExitEnv: the environment QuickRaceExit makes, read without
// a child and in any build (TestQuickRaceExit starts one, under -race
// alone): atexit_sleep_ms=0 added to a GORACE without it, or as a GORACE
// of its own; a GORACE that sets it kept; of two GORACE entries the last,
// the one exec.Cmd gives the child, is the one read and changed.
func TestQuickRaceExitEnv(t *testing.T) {
	for _, c := range []struct{ env, want []string }{
		{[]string{"HOME=/h"}, []string{"HOME=/h", "GORACE=atexit_sleep_ms=0"}},
		{[]string{"GORACE=halt_on_error=1"}, []string{"GORACE=halt_on_error=1 atexit_sleep_ms=0"}},
		{[]string{"GORACE="}, []string{"GORACE=atexit_sleep_ms=0"}},
		{[]string{"GORACE=atexit_sleep_ms=5"}, []string{"GORACE=atexit_sleep_ms=5"}},
		{[]string{"GORACE=atexit_sleep_ms=0", "HOME=/h", "GORACE=halt_on_error=1"},
			[]string{"GORACE=atexit_sleep_ms=0", "HOME=/h", "GORACE=halt_on_error=1 atexit_sleep_ms=0"}},
	} {
		if got := QuickRaceExit(slices.Clone(c.env)); !slices.Equal(got, c.want) {
			t.Errorf("QuickRaceExit(%q) = %q, want %q", c.env, got, c.want)
		}
	}
}
