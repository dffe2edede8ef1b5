package sim

import "testing"

// TestKeyCount: a count of keys in a message agrees with its number.
func TestKeyCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 keys", 1: "1 key", 2: "2 keys", 11: "11 keys"} {
		if got := KeyCount(n); got != want {
			t.Errorf("KeyCount(%d) = %q, want %q", n, got, want)
		}
	}
}
