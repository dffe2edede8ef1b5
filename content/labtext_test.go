package content

import (
	"strconv"
	"strings"
	"testing"
)

// TestLabLevelHints: every level's text has three staged hints for each
// mode, none empty and none the same as another; a level with no file is
// an error.
func TestLabLevelHints(t *testing.T) {
	entries, err := labFiles.ReadDir("lab")
	if err != nil || len(entries) == 0 {
		t.Fatalf("no lab texts embedded: %v", err)
	}
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".txt")
		txt, err := LabLevel(id)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, mode := range []string{"break", "fix"} {
			for i := 1; i <= 3; i++ {
				h := txt[mode+"-"+strconv.Itoa(i)]
				if len(h) < 30 || seen[h] {
					t.Errorf("%s: %s-%d is missing, too short or a repeat: %q", id, mode, i, h)
				}
				seen[h] = true
			}
		}
	}
	if _, err := LabLevel("no-such-level"); err == nil {
		t.Error("a level with no text should be an error")
	}
}
