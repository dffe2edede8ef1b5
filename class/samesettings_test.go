package class

import (
	"maps"
	"testing"
)

// TestSameSettings: a setting left out is its first value (0), on either
// side; sameSettings agrees with comparing the settings set away from it.
func TestSameSettings(t *testing.T) {
	sets := []map[string]int{nil, {}, {"px": 0}, {"px": 1}, {"px": 1, "nx": 0}, {"px": 2}, {"nx": 1}, {"px": 1, "nx": 1}}
	for _, a := range sets {
		for _, b := range sets {
			want := maps.Equal(nonZero(a), nonZero(b))
			if got := sameSettings(a, b); got != want {
				t.Errorf("sameSettings(%v, %v) = %v, want %v", a, b, got, want)
			}
		}
	}
	if !sameSettings(map[string]int{"px": 0}, nil) || sameSettings(map[string]int{"px": 1}, nil) || sameSettings(nil, map[string]int{"px": 1}) {
		t.Error("a setting left out is its first value")
	}
}
