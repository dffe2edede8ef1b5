package sim_test

import (
	"testing"
	"time"

	"locksim/sim"
)

func TestFormatSpan(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{30 * time.Second, "30 s"},
		{1500 * time.Millisecond, "1.5 s"},
		{9898 * time.Millisecond, "9.898 s"},
		{1000400 * time.Microsecond, "1 s"},
		{50 * time.Millisecond, "50 ms"},
		{2500 * time.Microsecond, "2.5 ms"},
		{2540 * time.Microsecond, "2.5 ms"},
		{2560 * time.Microsecond, "2.6 ms"},
		{300 * time.Microsecond, "0.3 ms"},
		{20 * time.Microsecond, "0 ms"},
		{999960 * time.Microsecond, "1 s"},
		{999940 * time.Microsecond, "999.9 ms"},
		{-2500 * time.Microsecond, "-2.5 ms"},
		{-400 * time.Microsecond, "-0.4 ms"},
		{-50 * time.Millisecond, "-50 ms"},
		{0, "0 s"},
	} {
		if got := sim.FormatSpan(c.d); got != c.want {
			t.Errorf("FormatSpan(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
