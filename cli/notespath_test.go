package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotesPathWithoutTerminal: -notes in a missing directory is refused
// in one line, exit 2, without a terminal as on one, before any
// transcript; a path that can be written still prints the transcript.
func TestNotesPathWithoutTerminal(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "nonexistent", "n.txt")
	var out, errOut bytes.Buffer
	code := Main([]string{"-notes", bad, "-scene", "race"}, strings.NewReader(""), &out, &errOut)
	if code != 2 || out.Len() != 0 || strings.Count(errOut.String(), "\n") != 1 || !strings.HasPrefix(errOut.String(), "locksim: -notes: ") {
		t.Fatalf("status %d, stderr %q, stdout %d bytes; want 2, one -notes line, nothing", code, errOut.String(), out.Len())
	}
	out.Reset()
	errOut.Reset()
	good := filepath.Join(t.TempDir(), "n.txt")
	if code := Main([]string{"-notes", good, "-scene", "race"}, strings.NewReader(""), &out, &errOut); code != 0 || !strings.Contains(out.String(), "NX PX") {
		t.Fatalf("a writable -notes: status %d, stderr %q", code, errOut.String())
	}
}
