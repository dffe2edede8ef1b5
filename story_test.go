package main

import (
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
	exit, out, errs := runMain("-plain", "-story", code)
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
		{[]string{"-plain", "-story", "hello"}, "locksim: story code: not a story code"},
		{[]string{"-plain", "-story", "nope." + code[strings.Index(code, ".")+1:]}, "locksim: story code: the code is damaged"},
		{[]string{"-story", code, "-scene", "gc-pause"}, "locksim: -story carries its own scene, settings, seed and step: it does not go with -scene"},
		{[]string{"-story", code, "-seed", "3"}, "it does not go with -seed"},
	} {
		exit, out, errs := runMain(c.args...)
		if exit != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, exit, out, errs, c.want)
		}
	}
}
