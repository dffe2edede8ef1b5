package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// evilAcquire is a learner's acquire.lua with raw control bytes in a
// comment and in a string: ESC, BEL, a right-to-left override (U+202E)
// and a C1 CSI.
const evilAcquire = "-- \x1b\u202e\a note\n" +
	"return redis.error_reply(\"\x1b[2J\x1b]0;PWNED\a\x1b[31mRED\u202erev\u009b\")\n"

// TestLabEditorShowsControls: a part whose file holds control characters
// is drawn with a sign for each (␛ for ESC, ␇ for BEL, ␦ for a bidi or C1
// control), with a line saying so; no byte of them reaches the screen
// (which is what an instructor's watch forwards too). Saved unchanged the
// file keeps its bytes; a character typed after a sign lands after it, and
// the save puts the bytes back around it.
func TestLabEditorShowsControls(t *testing.T) {
	dir := labDir(t)
	for name, src := range map[string]string{"acquire.lua": evilAcquire, "release.redis": "DEL {key}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "acquire.lua"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a := openLab(t, Options{Seed: 1, Lab: dir}, 80, 24, "[shift+tab]")
	l := a.labPage()
	if l.focus != 0 {
		t.Fatalf("shift+tab should put the acquire in view, focus %d:\n%s", l.focus, a.View())
	}
	v := a.View()
	if strings.ContainsAny(v, "\x1b\a\u202e\u009b") {
		t.Fatalf("the screen sends the script's control bytes:\n%q", v)
	}
	// the cursor's mark (cursorStyle) left out: the first line is as written
	unmarked := strings.ReplaceAll(v, "\u0332", "")
	for _, want := range []string{"-- ␛␦␇ note", `error_reply("␛[2J␛]0;PWNED␇␛[31mRED␦rev␦")`, "holds 9 control characters"} {
		if !strings.Contains(unmarked, want) && !strings.Contains(strings.ReplaceAll(unmarked, "\n", " "), want) {
			t.Errorf("the screen lacks %q:\n%s", want, v)
		}
	}
	drive(t, a, labPresses("[ctrl+s]")...)
	if got := read(); got != evilAcquire {
		t.Fatalf("saved unchanged, acquire.lua is %q; want %q", got, evilAcquire)
	}
	// the cursor to after the ␛ of the first line: "-- " and the sign
	right := tea.KeyMsg{Type: tea.KeyRight}
	drive(t, a, labPresses("[ctrl+home]")...)
	drive(t, a, right, right, right, right)
	drive(t, a, labPresses("X[ctrl+s]")...)
	if row := lineWith(ansi.Strip(a.View()), "note"); !strings.Contains(row, "-- ␛X␦\u0332␇ note") {
		// without colour (the tests' ASCII profile) the cursor's cell, the
		// ␦ after the X, is marked (underlined): reverse video draws nothing
		t.Errorf("X typed after the ␛ shows as %q", row)
	}
	want := strings.Replace(evilAcquire, "\x1b", "\x1bX", 1)
	if got := read(); got != want {
		t.Errorf("saved after an edit, acquire.lua is %q; want %q", got, want)
	}
}

// TestEditorTextRoundTrip: editorText gives every control character, a
// byte that is not UTF-8 and U+FFFD (which the editor drops) a sign of
// one column, and fileText puts the bytes back, a sign the file itself
// held included; a sign deleted or typed keeps the text as shown. A bidi
// control typed or pasted into the editor is left out.
func TestEditorTextRoundTrip(t *testing.T) {
	src := "a\x1bb\u202ec\xffd\ufffde␛f\rg\x7fh\ti\n"
	text, signs, n := editorText(src)
	if want := "a␛b␦c␦d␦e␛f␍g␡h\ti\n"; text != want || n != 6 {
		t.Fatalf("editorText(%q) = %q, %d controls; want %q, 6", src, text, n, want)
	}
	if got, ok := fileText(text, signs); !ok || got != src {
		t.Errorf("fileText(unchanged) = %q, %v; want %q", got, ok, src)
	}
	if got, ok := fileText(strings.Replace(text, "b", "bb", 1), signs); !ok || got != strings.Replace(src, "b", "bb", 1) {
		t.Errorf("fileText(typed around) = %q, %v", got, ok)
	}
	for _, v := range []string{strings.Replace(text, "␦", "", 1), "␛" + text} {
		if got, ok := fileText(v, signs); ok || got != v {
			t.Errorf("fileText(%q) = %q, %v; want it as shown", v, got, ok)
		}
	}
	if plain, signs, n := editorText("return 1\n"); plain != "return 1\n" || signs != nil || n != 0 {
		t.Errorf("a plain script should come as it is: %q %v %d", plain, signs, n)
	}
	if got := string(typedRunes([]rune("x\u202ey\u2066z\u2028"))); got != "xyz" {
		t.Errorf("typedRunes = %q; want xyz", got)
	}
}

// TestLabStoryPageShowsControls: the story page (i) of a lab story, which
// prints each script as sent with EVAL, shows the learner's control bytes
// as control pictures, not as they are.
func TestLabStoryPageShowsControls(t *testing.T) {
	dir := labDir(t)
	for name, src := range map[string]string{"acquire.lua": evilAcquire, "release.redis": "DEL {key}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := openLab(t, Options{Seed: 1, Lab: dir, NoQuiz: true}, 80, 24, "[ctrl+r][ctrl+o]")
	if !a.labStory {
		t.Fatalf("ctrl+o should open the break as a story:\n%s", a.View())
	}
	page := a.pl.about(a.com.Styles, 80)
	for i := 0; i < 20 && !strings.Contains(page, "as sent with EVAL"); i++ {
		drive(t, a, keys("n")...) // the scripts show once the story may show them
		page = a.pl.about(a.com.Styles, 80)
	}
	if strings.ContainsAny(page, "\x1b\a\u202e\u009b") || !strings.Contains(page, "-- ␛\uFFFD␇ note") {
		t.Errorf("the story page shows the script as %q", page)
	}
}

// TestLabFocusShown: at 80x24 the part or policy field that takes the
// keys is marked (>) without colour, the line under the editor names a
// policy field in focus and where tab and shift+tab go, the footer says
// where tab goes, and code typed into a field is refused with a note
// rather than taken (it gave `delay: "return r" is not a duration`).
func TestLabFocusShown(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, "")
	v := ansi.Strip(a.View())
	if !strings.Contains(v, "[acquire: Lua] >[release: ") || !strings.Contains(v, "tab → extend") {
		t.Errorf("the release in focus should be marked, tab's next named:\n%s", v)
	}
	drive(t, a, labPresses("[tab][tab][tab][tab]return r")...)
	v = ansi.Strip(a.View())
	rows := strings.Split(v, "\n")
	if len(rows) != 24 {
		t.Errorf("%d rows; want 24:\n%s", len(rows), v)
	}
	for _, want := range []string{"retries [0        ] >delay [200ms█   ] watchdog" /* the cursor, marked without colour */, "policy field delay: ", "tab watchdog, shift+tab retries",
		"not typed: r · the policy's delay field takes a duration", "tab → watchdog"} {
		if !strings.Contains(strings.ReplaceAll(v, "\n", " "), want) {
			t.Errorf("the screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, ">[") || strings.Contains(v, "ctrl+l") {
		t.Errorf("no part is in focus, and a field has no language:\n%s", v)
	}
	if got := a.labPage().fields[fieldDelay].Value(); got != "200ms" {
		t.Errorf("the delay field holds %q; want 200ms, the code refused", got)
	}
	drive(t, a, labPresses(strings.Repeat("[backspace]", 5)+"1.5s")...)
	if got := a.labPage().fields[fieldDelay].Value(); got != "1.5s" {
		t.Errorf("the delay field holds %q; want 1.5s typed", got)
	}
}
