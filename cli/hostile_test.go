package cli

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"locksim/shown"
)

// hostileAcquire is a lab lock whose acquire answers an error reply of
// escape sequences: clear the screen, set the terminal's title, turn the
// text red, then a right-to-left override.
const hostileAcquire = `return redis.error_reply("\27[2J\27]0;PWNED\7\27[31mRED\226\128\174rev")` + "\n"

// hostileShown is how that reply reads wherever it is shown, escaped as
// a bulk string's bytes are.
const hostileShown = `(error) ERR \x1b[2J\x1b]0;PWNED\a\x1b[31mRED\u202erev`

// obeyed is the first character of s a terminal (or a browser's bidi
// algorithm) would obey rather than show: a C0 control other than \n and
// \t, DEL, a C1 control, a bidirectional control, invalid UTF-8; "" for
// none.
func obeyed(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && strings.HasPrefix(s[i:], "\xff"),
			r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f, shown.Bidi(r):
			return s[max(0, i-20):min(len(s), i+20)]
		}
	}
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	return ""
}

// TestHostileErrorReply: a lab script's error reply reaches no surface as
// the bytes it chose: its story code's transcript, at the question and
// answered, and the web page of it show the reply escaped, as a bulk
// string's bytes are, and send no control character.
func TestHostileErrorReply(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evil")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"acquire.lua": hostileAcquire, "release.redis": "DEL {key}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(root, "out")
	if code, stdout, errs := runMain("-grade", dir, "-out", out); code != 1 {
		t.Fatalf("-grade: exit %d; want 1, a lock that does not pass\n%s%s", code, stdout, errs)
	}
	if bad := obeyed(readAll(t, filepath.Join(out, "results.json"))); bad != "" {
		t.Errorf("results.json sends %q", bad)
	}
	codes, _ := filepath.Glob(filepath.Join(out, "lab-*.code"))
	if len(codes) != 1 {
		t.Fatalf("story codes: %v", codes)
	}
	sc := strings.TrimSpace(readAll(t, codes[0]))
	for _, args := range [][]string{{"-story", sc, "-plain"}, {"-story", sc, "-plain", "-answer", "2"}} {
		code, stdout, errs := runMain(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args[2:], code, stdout, errs)
		}
		if bad := obeyed(stdout + errs); bad != "" {
			t.Errorf("%v sends %q:\n%s", args[2:], bad, stdout)
		}
		if len(args) > 3 && !strings.Contains(words(stdout), words(hostileShown)) {
			t.Errorf("%v does not show the reply as %s:\n%s", args[2:], hostileShown, stdout)
		}
		// the grade's verdict and the story's answer are one judgement
		// of the same replies: the lock never lets a client in
		if len(args) > 3 && !answerNames.MatchString(words(stdout)) {
			t.Errorf("%v: the replies should answer deadlock-freedom, as the grade's verdict:\n%s", args[2:], stdout)
		}
	}
	if res := readAll(t, filepath.Join(out, "results.json")); !strings.Contains(res, `"name": "deadlock-freedom",
      "status": "fail"`) {
		t.Errorf("results.json should fail deadlock-freedom:\n%s", res)
	}
	code, _, body := webGet(t, "/plain/s/"+sc+"?answer=2")
	if code != http.StatusOK {
		t.Fatalf("/plain/s/CODE?answer=2: %d\n%s", code, body)
	}
	if bad := obeyed(body); bad != "" {
		t.Errorf("the web page sends %q:\n%s", bad, body)
	}
	if !strings.Contains(words(body), words(hostileShown)) {
		t.Errorf("the web page does not show the reply as %s:\n%s", hostileShown, body)
	}
}

// answerNames is the -plain line that reveals the answer deadlock-freedom.
var answerNames = regexp.MustCompile(`\[the replies answer: \d+\) deadlock-freedom:`)

func readAll(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
