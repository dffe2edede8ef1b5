package class

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/alicebob/miniredis/v2"
)

// TestFindNamed: FindNamed finds the open class an instructor's name
// opened, on the hub that opened it or another of its store, opens none
// itself, and finds none once it is closed or under another instructor.
func TestFindNamed(t *testing.T) {
	mem := NewMemory(at0)
	s := miniredis.RunT(t)
	for _, tc := range []struct {
		name      string
		one, from Hub
	}{
		{"memory", mem, mem},
		{"miniredis", redisHub(t, "redis://"+s.Addr()), redisHub(t, "redis://"+s.Addr())},
	} {
		ctx := context.Background()
		before := s.Keys()
		if _, err := tc.from.FindNamed(ctx, "teacher", "prof"); !errors.Is(err, ErrNoClass) {
			t.Fatalf("%s: before any class, FindNamed: %v, want ErrNoClass", tc.name, err)
		}
		if keys := s.Keys(); !slices.Equal(keys, before) {
			t.Fatalf("%s: FindNamed wrote: the keys were %q, are %q", tc.name, before, keys)
		}
		opened, err := tc.one.OpenNamed(ctx, "teacher", "prof")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := tc.from.FindNamed(ctx, "teacher", "prof"); err != nil || got.Code != opened.Code {
			t.Errorf("%s: FindNamed found %q (%v), want the class opened, %q", tc.name, got.Code, err, opened.Code)
		}
		for _, other := range [][2]string{{"other", "prof"}, {"teacher", "other"}, {"teacher", ""}} {
			if got, err := tc.from.FindNamed(ctx, other[0], other[1]); !errors.Is(err, ErrNoClass) {
				t.Errorf("%s: FindNamed(%q, %q) found %q (%v), want ErrNoClass", tc.name, other[0], other[1], got.Code, err)
			}
		}
		if err := tc.one.CloseClass(ctx, opened.Code); err != nil {
			t.Fatal(err)
		}
		if got, err := tc.from.FindNamed(ctx, "teacher", "prof"); !errors.Is(err, ErrNoClass) {
			t.Errorf("%s: a closed class is found: %q (%v)", tc.name, got.Code, err)
		}
	}
}
