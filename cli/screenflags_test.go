package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestScreenFlagsWithoutTerminal: each flag that asks the interactive
// screen for something (screenFlags) is refused where the transcript runs,
// with -plain and without a terminal (stdin a reader, stdout a buffer),
// for a scene and for a story code: one line naming the flag and why,
// exit 2, nothing on stdout, instead of a transcript that passed it over.
// A -notes path that can be written is refused too: no notes are written
// without the screen.
func TestScreenFlagsWithoutTerminal(t *testing.T) {
	dir := t.TempDir()
	value := map[string][]string{
		"present":      nil,
		"scenes":       {"gc-pause,fencing"},
		"notes":        {filepath.Join(dir, "notes.txt")}, // writable: refused all the same
		"theme":        {"high-contrast"},
		"export-dir":   {dir},
		"export-scale": {"5"},
	}
	for _, f := range screenFlags() {
		v, ok := value[f.name]
		if !ok && f.name != "present" {
			t.Fatalf("-%s: no value in this test's table", f.name)
		}
		flagArgs := append([]string{"-" + f.name}, v...)
		for _, rest := range [][]string{
			{"-scene", "race"},
			{"-scene", "race", "-plain"},
			{"-story", "gc-pause.26hj7g6ctt0ga0r20400fa50a8"},
		} {
			if f.name == "scenes" && rest[0] == "-story" {
				continue // parse refuses -story with -scenes, terminal or not
			}
			if f.name == "export-dir" && rest[0] == "-story" {
				continue // where -story reads a lab pointer's file (TestStoryPointer)
			}
			if f.name == "scenes" && rest[0] == "-scene" {
				rest = rest[2:] // -scenes opens its first scene itself
			}
			args := append(append([]string{}, flagArgs...), rest...)
			var out, errb bytes.Buffer
			code := Main(args, strings.NewReader(""), &out, &errb)
			errs := errb.String()
			why := "not a terminal"
			if strings.Contains(strings.Join(args, " "), "-plain") {
				why = "-plain"
			}
			if code != 2 || out.Len() != 0 {
				t.Errorf("%v: exit %d, %d bytes on stdout; want 2 and nothing", args, code, out.Len())
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "locksim: -"+f.name+" ") || !strings.Contains(errs, why) {
				t.Errorf("%v: stderr %q, want one line refusing -%s (%s)", args, errs, f.name, why)
			}
		}
	}
}

// TestScreenRefusalsHoldWithoutTerminal: the flags that only ask the
// screen not to do something are not refused without a terminal, since
// the transcript does what they ask (no colour, no mouse, no saved
// progress, no stop); nor is -theme default, which asks for nothing.
func TestScreenRefusalsHoldWithoutTerminal(t *testing.T) {
	for _, flag := range []string{"-no-color", "-no-mouse", "-no-save", "-no-quiz", "-theme=default"} {
		var out, errb bytes.Buffer
		code := Main([]string{flag, "-scene", "race", "-seed", "1"}, strings.NewReader(""), &out, &errb)
		if code != 0 || !strings.Contains(out.String(), "NX PX") {
			t.Errorf("%s: exit %d, stderr %q; want the transcript", flag, code, errb.String())
		}
	}
}
