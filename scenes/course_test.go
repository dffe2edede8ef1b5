package scenes

import (
	"strings"
	"testing"

	"locksim/content"
)

// TestEverySceneHasTheCourseParts: a registered scene without one of the
// course's parts fails here.
func TestEverySceneHasTheCourseParts(t *testing.T) {
	parts := []string{"title", "dive", "summary", "intro", "start", "predict", "choices", "hint-1", "notes", "recap", "library", "references"}
	for _, sc := range All() {
		text, err := content.Load(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range parts {
			if !text.Has(part) {
				t.Errorf("content/text/%s.txt has no %q section", sc.ID, part)
			}
		}
		if sc.Predict == nil && sc.Kind != Quiz { // a quiz asks at every situation
			t.Errorf("%s has no prediction point", sc.ID)
		}
		// every story's choices, as its settings fill them
		for _, p := range sc.Stories() {
			if n := len(strings.Split(sc.Question(text, p, "choices"), "\n")); n < 2 || n > 4 {
				t.Errorf("%s (%s): %d choices, want 2 to 4", sc.ID, sc.Describe(p), n)
			}
		}
	}
}
