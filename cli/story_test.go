package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/play"
	"locksim/storycode"
)

// TestStoryFlag: -story CODE -plain plays the code's story, own moves and
// prediction included; a damaged code, or one with flags it carries
// itself, gets one line and exit 2.
func TestStoryFlag(t *testing.T) {
	pos, err := play.ParsePosition([]byte(`{"version":1,"scene":"gc-pause","settings":{"pause":1},"seed":7,"own":[{"at":2,"kind":"wait","ms":5000}],"step":6,"prediction":{"chosen":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	code, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	quiz, err := storycode.Encode(play.Position{Version: play.PositionVersion, Scene: "choose", Quiz: &play.QuizPlace{At: 1, Answers: []int{1, -1, -1, -1, -1, -1, -1, -1}}})
	if err != nil {
		t.Fatal(err)
	}
	// a code at its open question stops there, whatever its author
	// answered, with the way on; -answer N plays on
	gc, _ := questionCode(t)
	exit, out, errs := runMain("-plain", "-story", gc)
	if exit != 0 || errs != "" || !strings.Contains(out, "[  3) an error") || !strings.Contains(words(out), "locksim -story "+gc+" -plain -answer N]") ||
		strings.Contains(out, "B> SET") || strings.Contains(out, "your prediction") {
		t.Fatalf("-story %s -plain, at its question: exit %d, stderr %q, stdout:\n%s", gc, exit, errs, out)
	}
	exit, out, errs = runMain("-plain", "-story", gc, "-answer", "2")
	if exit != 0 || errs != "" || !strings.Contains(words(out), "[your prediction: 2) OK") || !strings.Contains(words(out), "[the replies answer: 2) OK") {
		t.Fatalf("-story %s -plain -answer 2: exit %d, stderr %q, stdout:\n%s", gc, exit, errs, out)
	}
	exit, out, errs = runMain("-plain", "-story", code)
	if exit != 0 || errs != "" {
		t.Fatalf("-story %s: exit %d, stderr %q", code, exit, errs)
	}
	out = words(out)
	for _, want := range []string{"server: embedded · seed 7", "wait 5 s after 2 moves", "== pause: 70 s, TTL: 30 s ==", "[your prediction: 2) OK"} {
		if !strings.Contains(out, want) {
			t.Errorf("the story of %s lacks %q:\n%s", code, want, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-plain", "-story", code[:len(code)-1]}, "locksim: story code: the code is damaged"},
		{[]string{"-plain", "-story", "hello"}, `locksim: -story "hello": a story code reads <scene>.<letters and digits>`},
		{[]string{"-plain", "-story", "nope." + code[strings.Index(code, ".")+1:]}, "locksim: story code: the code is damaged"},
		{[]string{"-story", code, "-scene", "gc-pause"}, "locksim: -story carries its own scene, settings, seed and step: it does not go with -scene"},
		{[]string{"-story", code, "-seed", "3"}, "it does not go with -seed"},
		{[]string{"-plain", "-story", quiz}, "-story: the code is a place in the quiz choose, which has no story to print"},
		{[]string{"-plain", "-story", code, "-answer", "1"}, "-answer: the code stands at step 6, past its story's question (at step 4)"},
		{[]string{"-story", gc, "-answer", "1"}, "-answer N needs -story CODE and -plain"},
		{[]string{"-plain", "-story", gc, "-answer", "4"}, "-answer: the answer is the number of a choice, from 1 to 3, got 4"},
		{[]string{"-plain", "-story", gc, "-answer", "0"}, "-answer must be a choice's number, 1 or more, got 0"},
		{[]string{"-plain", "-scene", "gc-pause", "-answer", "1"}, "-answer N needs -story CODE and -plain"},
	} {
		exit, out, errs := runMain(c.args...)
		if exit != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, exit, out, errs, c.want)
		}
	}
}

// TestCastFlag: -cast FILE writes the scene's story as asciicast v2 and
// says where; -size sets its size; a bad size, or -cast with a flag it
// cannot go with, gets one line and exit 2.
func TestCastFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gc.cast")
	exit, out, errs := runMain("-scene", "gc-pause", "-seed", "1", "-step", "3", "-size", "100x30", "-cast", path)
	if exit != 0 || errs != "" || !strings.Contains(out, "wrote "+path) {
		t.Fatalf("exit %d, stdout %q, stderr %q", exit, out, errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(data), "\n"); !strings.HasPrefix(first, `{"version":2,"width":100,"height":30,`) {
		t.Errorf("the cast starts %q", first)
	}
	// three steps: four frames, the last asking the question B's SET
	// answers, with its marker; then the player's terminal given back
	if n := strings.Count(string(data), `, "o", `); n != 5 || strings.Count(string(data), `, "m", "predict: `) != 1 || !strings.HasSuffix(string(data), `"o", "\u001b[?25h\u001b[?1049l"]`+"\n") {
		t.Errorf("%d frames in\n%.400s", n, data)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-scene", "gc-pause", "-cast", path, "-size", "60x20"}, "-size must be from 80x24 to 400x200, got 60x20"},
		{[]string{"-scene", "gc-pause", "-cast", path, "-size", "big"}, "-size must be WxH"},
		{[]string{"-scene", "gc-pause", "-size", "100x30"}, "-size needs -cast"},
		{[]string{"-scene", "gc-pause", "-cast", path, "-plain"}, "-cast records a story on the embedded server into a file: it does not go with -plain"},
		{[]string{"-cast", path, "-redis", "redis://127.0.0.1:1/0"}, "it does not go with -redis"},
		{[]string{"-scene", "gc-pause", "-cast", filepath.Join(t.TempDir(), "missing", "x.cast")}, "missing does not exist (locksim makes none)"},
		{[]string{"-scene", "gc-pause", "-cast", t.TempDir()}, "that is a directory; give a file's name"},
		{[]string{"-scene", "gc-pause", "-history", filepath.Join(t.TempDir(), "missing", "x.html")}, "missing does not exist (locksim makes none)"},
	} {
		exit, out, errs := runMain(c.args...)
		if exit != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, exit, out, errs, c.want)
		}
	}
}

// TestStoryPointer: -story takes a story of the lab's short pointer, read
// from the file y wrote in -export-dir, or that file's path; a pointer
// with no file gets one line and exit 2.
func TestStoryPointer(t *testing.T) {
	pos, err := play.ParsePosition([]byte(`{"version":1,"scene":"gc-pause","seed":7,"step":3}`))
	if err != nil {
		t.Fatal(err)
	}
	code, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ptr := storycode.Pointer(code)
	path := filepath.Join(dir, storycode.PointerFile(ptr))
	if err := os.WriteFile(path, []byte(code+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-plain", "-export-dir", dir, "-story", ptr}, {"-plain", "-story", path}} {
		exit, out, errs := runMain(args...)
		if exit != 0 || errs != "" || !strings.Contains(words(out), "server: embedded · seed 7") {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", args, exit, errs, out)
		}
		// the code stands before its question: the way on names the code
		// as it was given, a pointer short, not the code it resolves to
		if goOn := "locksim -story " + args[len(args)-1] + " -plain -answer N]"; !strings.Contains(words(out), goOn) || strings.Contains(out, code) {
			t.Errorf("%q: the way on is not %q:\n%s", args, goOn, out)
		}
	}
	exit, out, errs := runMain("-plain", "-export-dir", dir, "-story", "lab-0123456789")
	if exit != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "no such story here") {
		t.Errorf("a pointer with no file: exit %d, stdout %q, stderr %q", exit, out, errs)
	}
}

// TestBlankFlagValues: a flag whose value is a name, an address or a
// path, given blank (an unset shell variable: -cast "$OUT"), is one line
// and exit 2, not the flag left out (which printed the whole course); so
// is an -export-dir that does not exist, which locksim would have made.
func TestBlankFlagValues(t *testing.T) {
	for _, args := range [][]string{
		{"-plain", "-story", ""}, {"-plain", "-scene", " "}, {"-cast", ""}, {"-grade", "", "-out", t.TempDir()},
		{"-plain", "-scene", "race", "-history", ""}, {"-serve", ""}, {"-plain", "-set", ""},
	} {
		name := ""
		for i, a := range args {
			if strings.TrimSpace(a) == "" {
				name = args[i-1]
			}
		}
		exit, out, errs := runMain(args...)
		if exit != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, name+" was given an empty value") {
			t.Errorf("%q: exit %d, %d bytes on stdout, stderr %q; want 2 and one line naming %s", args, exit, len(out), errs, name)
		}
	}
	missing := filepath.Join(t.TempDir(), "nope")
	// (with -plain and no -story -export-dir is refused whatever it is)
	exit, out, errs := runMain("-plain", "-story", "lab-0123456789", "-export-dir", missing)
	if exit != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "-export-dir "+missing+": no such directory") {
		t.Errorf("-export-dir %s: exit %d, %d bytes on stdout, stderr %q", missing, exit, len(out), errs)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("-export-dir made %s", missing)
	}
}
