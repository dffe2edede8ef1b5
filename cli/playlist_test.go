package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestPlaylistWithoutTerminal: without a terminal the plain transcript is
// the default, and -scenes (the screen's playlist) is refused there as it
// is with -plain: one line, exit 2, nothing on stdout. Here stdin is a
// reader and stdout a buffer, neither of them a terminal.
func TestPlaylistWithoutTerminal(t *testing.T) {
	for _, args := range [][]string{
		{"-scenes", "gc-pause,fencing"},
		{"-scenes", "race", "-seed", "3"},
	} {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb)
		errs := errb.String()
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "locksim: -scenes is the interactive screen's playlist") ||
			!strings.Contains(errs, "not a terminal") {
			t.Errorf("%v: stderr %q, want one line refusing -scenes without a terminal", args, errs)
		}
		if out.Len() != 0 {
			t.Errorf("%v: stdout has %d bytes, want nothing", args, out.Len())
		}
	}
}

// TestPlaylistWithoutPresent: -scenes is a learner's lesson as well as a
// presenter's. Without -present it was taken and then ignored (> from
// fencing opened timeout, the course's next, with nothing said): the
// screen gets the list whichever mode it runs in, and its > and < go
// through it (tui's TestLessonKeysWithoutPresenter).
func TestPlaylistWithoutPresent(t *testing.T) {
	c, err := parse([]string{"-scenes", "fencing,redlock"})
	if err != nil {
		t.Fatal(err)
	}
	o := screenOptions(c, io.Discard)
	if strings.Join(o.Scenes, ",") != "fencing,redlock" || o.Present {
		t.Errorf("-scenes fencing,redlock: the screen's lesson %v, presenter %v; want fencing,redlock, no presenter", o.Scenes, o.Present)
	}
}

// TestSceneResumeOption: -scene X (and -scenes) alone reopen where the
// learner left it (tui's TestSceneResumes); -seed, -step or -set open as
// they say.
func TestSceneResumeOption(t *testing.T) {
	for _, c := range []struct {
		args   []string
		resume bool
	}{
		{[]string{"-scene", "gc-pause"}, true},
		{[]string{"-scenes", "gc-pause,fencing"}, true},
		{[]string{"-scene", "gc-pause", "-seed", "4"}, false},
		{[]string{"-scene", "gc-pause", "-step", "0"}, false},
		{[]string{"-scene", "gc-pause", "-set", "pause=70s"}, false},
	} {
		cf, err := parse(c.args)
		if err != nil {
			t.Fatal(err)
		}
		if o := screenOptions(cf, io.Discard); o.Resume != c.resume {
			t.Errorf("%v: Resume %v, want %v", c.args, o.Resume, c.resume)
		}
	}
}
