package serve

import (
	"strings"
	"testing"

	"locksim/storycode"
)

// TestFetchByPointer: y's fetch line carries a short code whole, and a
// story of the lab's long code by its pointer, which the server that gave
// it out resolves to the code for the command that names it; a pointer
// it never gave stays as typed.
func TestFetchByPointer(t *testing.T) {
	t.Parallel()
	s := &Server{stories: storycode.NewShelf(8)}
	fetch := fetchFor("2222", s.stories)
	short, _ := fencingCode(t)
	if got := fetch(short); got != "ssh -p 2222 HOST cli "+short+" > story.redis" {
		t.Errorf("a short code should go whole: %q", got)
	}
	long := "lab." + strings.Repeat("0123456789abcdefghjk", 20)
	line := fetch(long)
	ptr := storycode.Pointer(long)
	if line != "ssh -p 2222 HOST cli "+ptr+" > story.redis" || len(line) > 80 {
		t.Fatalf("a long code should go by its pointer, in one short line: %q", line)
	}
	if got := s.resolveCode(ptr); got != long {
		t.Errorf("the pointer should resolve to its code: %.40q", got)
	}
	if got := s.resolveCode("lab-0000000000"); got != "lab-0000000000" {
		t.Errorf("an unknown pointer should stay as typed: %q", got)
	}
	if got := s.resolveCode(short); got != short {
		t.Errorf("a code should stay as it is: %q", got)
	}
}
