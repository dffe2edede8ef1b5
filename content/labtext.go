package content

import (
	"embed"
	"fmt"
)

// The lab's levels have text of their own in content/lab/<level id>.txt,
// in the scenes' format (sections opened by "# name"): part, the part of
// the lock the level is about (acquire, release or extend), which its
// page opens on; then staged hints for each mode, break-1, break-2, …
// and fix-1, fix-2, …, each a little nearer the answer than the one
// before (a nudge, the idea, nearly the code). They are no scene's, so
// they sit apart from text/.
//
//go:embed lab/*.txt
var labFiles embed.FS

// LabLevel reads the text of the lab's level id, in the screen's form; an
// error for a level with no text.
func LabLevel(id string) (Text, error) {
	b, err := labFiles.ReadFile("lab/" + id + ".txt")
	if err != nil {
		return nil, fmt.Errorf("no lab text for level %q", id)
	}
	return Parse(string(b)), nil
}
