package tui

import (
	"locksim/views"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileErrorReplyOnScreen: a lab script's error reply of escape
// sequences (clear the screen, set the terminal's title, red, a
// right-to-left override) is drawn escaped, as a bulk string's bytes
// are, on every screen of its story: none of its sequences reaches the
// terminal, before the question or after it is answered.
func TestHostileErrorReplyOnScreen(t *testing.T) {
	dir := labDir(t)
	for name, src := range map[string]string{
		"acquire.lua":   `return redis.error_reply("\27[2J\27]0;PWNED\7\27[31mRED\226\128\174rev")` + "\n",
		"release.redis": "DEL {key}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := openLab(t, Options{Seed: 1, Lab: dir}, 80, 24, "[ctrl+r][ctrl+o]")
	if !a.labStory {
		t.Fatalf("ctrl+o should open the break as a story:\n%s", a.View())
	}
	check := func(when string) {
		t.Helper()
		v := a.View()
		for _, bad := range []string{"\x1b[2J", "\x1b]0;", "PWNED\a", "\x1b[31mRED", "\u202e"} {
			if strings.Contains(v, bad) {
				t.Fatalf("%s: the screen sends %q:\n%s", when, bad, v)
			}
		}
	}
	check("opened")
	for i := 0; !a.pl.Asking && i < 20; i++ {
		drive(t, a, keys("n")...)
		check("before the question")
	}
	if !a.pl.Asking {
		t.Fatalf("the story should ask:\n%s", a.View())
	}
	drive(t, a, keys("2")...)
	check("answered")
	// the lab's verdict (the lock never lets a client in) is the answer
	// the replies give: one judgement of the same replies
	if ch := a.pl.Choices(); a.pl.Actual < 0 || a.pl.Actual >= len(ch) || !strings.HasPrefix(ch[a.pl.Actual], "deadlock-freedom:") {
		t.Errorf("the replies answer choice %d of %q, want deadlock-freedom", a.pl.Actual, ch)
	}
	seen := false
	for i := 0; i < 20; i++ {
		if strings.Contains(views.Strip(a.View()), `\x1b[2J\x1b]0;PWNED\a`) {
			seen = true
		}
		if a.storyOver() {
			break
		}
		drive(t, a, keys("n")...)
		check("played on")
	}
	if !seen {
		t.Errorf("no screen showed the reply escaped:\n%s", a.View())
	}
}

// TestHostileScriptErrorOnScreen: a lab script's error(...) of escape
// sequences, named under the editor after a run, reaches the terminal as
// text.
func TestHostileScriptErrorOnScreen(t *testing.T) {
	dir := labDir(t)
	for name, src := range map[string]string{
		"acquire.lua":   `error("\27[2J\27]0;PWNED\7\226\128\174")` + "\n",
		"release.redis": "DEL {key}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := openLab(t, Options{Seed: 1, Lab: dir}, 80, 24, "[ctrl+r]")
	v := a.View()
	for _, bad := range []string{"\x1b[2J", "\x1b]0;", "PWNED\a", "\u202e"} {
		if strings.Contains(v, bad) {
			t.Fatalf("the screen sends %q:\n%s", bad, v)
		}
	}
	if !strings.Contains(views.Strip(v), "PWNED") {
		t.Errorf("the screen does not name the script's error:\n%s", v)
	}
}
