//go:build unix

package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestGradeHostileDirectories runs -grade on what a class of thirty may
// hand in to beat the grader: a part that is a symlink to a secret, a
// FIFO, a 100 MB file, an extend added to a level that has none (every
// holder gives up before the release the level is about), a string.byte
// over 10 MB and an error reply of 60 MB. Each exits 0 with one line
// naming why, a results.json of status error, nothing on stderr (no Go
// trace), and nothing of the secret anywhere.
func TestGradeHostileDirectories(t *testing.T) {
	root := t.TempDir()
	secret := filepath.Join(root, "secret.txt")
	if err := os.WriteFile(secret, []byte("GET password-of-the-teacher\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const acquire = "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n"
	cases := []struct {
		name  string
		files map[string]string
		part  func(p string) error // makes release.redis, when files has none
		args  []string
		want  string
	}{
		{name: "symlink", part: func(p string) error { return os.Symlink(secret, p) }, want: "release.redis is a symlink"},
		{name: "fifo", part: func(p string) error { return syscall.Mkfifo(p, 0o644) }, want: "release.redis is a FIFO"},
		{name: "huge", part: func(p string) error { return errors.Join(os.WriteFile(p, nil, 0o644), os.Truncate(p, 100<<20)) },
			want: "release.redis holds 104857600 bytes"},
		{name: "gamed", files: map[string]string{"release.redis": "GET {key}\nif token: DEL {key}\n", "extend.lua": "return 0\n"},
			args: []string{"-level", "get-then-del"}, want: "extend.lua: level get-then-del has no extend"},
		{name: "gamed-blind", files: map[string]string{"release.redis": "DEL {key}\n", "extend.lua": "return 0\n"},
			args: []string{"-level", "blind-release"}, want: "extend.lua: level blind-release has no extend"},
		{name: "byte", files: map[string]string{"release.redis": "DEL {key}\n",
			"acquire.lua": "local s = string.rep('a', 1e7)\nlocal t = {string.byte(s, 1, -1)}\n" + acquire}, want: "acquire.lua:2: string slice too long"},
		// 40 MB made, then its reply's copy past the 64 MB cap: the
		// child's most costly grade here (its memory's pages and their
		// shadow under -race), so no larger than it takes
		{name: "error-reply", files: map[string]string{"release.redis": "DEL {key}\n",
			"acquire.lua": "local s = string.rep('E', 4e7)\nreturn redis.error_reply(s)\n"}, want: "acquire.lua:2: stopped: the script made more than 64 MB"},
	}
	for _, c := range cases {
		dir := filepath.Join(root, c.name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{"acquire.lua": acquire}
		for name, src := range c.files {
			files[name] = src
		}
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if c.part != nil {
			if err := c.part(filepath.Join(dir, "release.redis")); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(root, "out-"+c.name)
		code, stdout, errs := runMain(append([]string{"-grade", dir, "-out", out}, c.args...)...)
		want := "error: " + filepath.Join(out, "results.json") + ": " + c.want
		// the result in one line, then the line of the limits that hold here
		limits := labConfig{timeout: defaultGradeTimeout, memory: defaultGradeMemory}.limits().Holds()
		if code != 1 || errs != "" || !strings.HasPrefix(stdout, want) || strings.Count(stdout, "\n") != 2 || !strings.HasSuffix(stdout, "\n"+limits+"\n") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 1, a line starting %q and the limits' line", c.name, code, stdout, errs, want)
		}
		data, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err != nil || !strings.Contains(string(data), `"status": "error"`) || !strings.Contains(string(data), c.want) {
			t.Errorf("%s: results.json %s (%v)", c.name, data, err)
		}
		if strings.Contains(stdout+errs+string(data), "password") || strings.Contains(stdout+errs, "goroutine") {
			t.Errorf("%s: the secret or a Go trace got out: %s %s %s", c.name, stdout, errs, data)
		}
	}
}
