//go:build unix

package grade

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"locksim/lab"
)

// TestGradeRefusesWhatIsNotAFile grades a directory for each thing a
// student may leave where release.redis should be: a symlink to a secret,
// one to /dev/zero, a FIFO, a directory, a 100 MB file and, as root, a
// device node. Each ends at once with results.json of status error whose
// message is one line naming the file, and nothing of the secret in it.
// A BOM and CRLF line ends grade as the plain part does, with a note.
func TestGradeRefusesWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	secret := filepath.Join(root, "secret.txt")
	if err := os.WriteFile(secret, []byte("GET password-of-the-teacher\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, want string
		make       func(p string) error
	}{
		{"symlink", "release.redis is a symlink", func(p string) error { return os.Symlink(secret, p) }},
		{"devlink", "release.redis is a symlink", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"fifo", "release.redis is a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"directory", "release.redis is a directory", func(p string) error { return os.Mkdir(p, 0o755) }},
		{"huge", "release.redis holds 104857600 bytes, over the lab's limit of 65536 (64 KB)", func(p string) error {
			return errors.Join(os.WriteFile(p, nil, 0o644), os.Truncate(p, 100<<20)) // sparse
		}},
	}
	if os.Geteuid() == 0 && runtime.GOOS == "linux" {
		cases = append(cases, struct {
			name, want string
			make       func(p string) error
		}{"device", "release.redis is a device", func(p string) error { return syscall.Mknod(p, syscall.S_IFCHR|0o644, 1<<8|5) }})
	}
	for _, c := range cases {
		dir := filepath.Join(root, c.name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "acquire.lua"), []byte(acquireSET), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := c.make(filepath.Join(dir, "release.redis")); err != nil {
			t.Fatal(err)
		}
		for _, pin := range []Pin{{}, {Level: "get-then-del"}} {
			res, err := Dir(context.Background(), dir, pin)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			valid(t, c.name, res)
			data := written(t, res)
			if res.Status != lab.Error || !strings.HasPrefix(res.Message, c.want) || strings.Contains(res.Message, "\n") {
				t.Errorf("%s under %s: %s %q, want error, one line starting %q", c.name, pin.Name(), res.Status, res.Message, c.want)
			}
			if strings.Contains(data, "password") {
				t.Errorf("%s: the secret reached results.json: %s", c.name, data)
			}
		}
	}

	bom := lockDir(t, map[string]string{"acquire.lua": "\ufeff" + strings.ReplaceAll(acquireSET, "\n", "\r\n"),
		"release.redis": "\ufeffGET {key}\r\nif token: DEL {key}\r\n"})
	plain := lockDir(t, map[string]string{"acquire.lua": acquireSET, "release.redis": "GET {key}\nif token: DEL {key}\n"})
	pin := Pin{Level: "get-then-del"}
	a, err := Dir(context.Background(), bom, pin)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Dir(context.Background(), plain, pin)
	if err != nil {
		t.Fatal(err)
	}
	if statuses(a) != statuses(b)+" note: acquire.lua=pass note: release.redis=pass" || !strings.Contains(a.Tests[len(a.Tests)-1].Output, "byte order mark") {
		t.Errorf("a BOM and CRLF: %s, want %s and a note for each file", statuses(a), statuses(b))
	}
}
