//go:build unix

package lab

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// hostileDirs are lab directories whose release is what a hostile
// student's directory may hold instead of a file, each with the words its
// one line must have. The secret is text a followed link would leak.
func hostileDirs(t *testing.T) map[string]string {
	t.Helper()
	root := t.TempDir()
	secret := filepath.Join(root, "secret.txt")
	if err := os.WriteFile(secret, []byte("GET password-of-the-teacher\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mk := func(name string, release func(path string) error) string {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "acquire.lua"), []byte(acquireSET), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := release(filepath.Join(dir, "release.redis")); err != nil {
			t.Skipf("%s: %v", name, err)
		}
		return dir
	}
	dirs := map[string]string{
		mk("symlink", func(p string) error { return os.Symlink(secret, p) }):      "release.redis is a symlink",
		mk("fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }):      "release.redis is a FIFO",
		mk("devlink", func(p string) error { return os.Symlink("/dev/zero", p) }): "release.redis is a symlink",
		mk("directory", func(p string) error { return os.Mkdir(p, 0o755) }):       "release.redis is a directory",
		// sparse: 100 MB on the file's size, none on the disk
		mk("huge", func(p string) error { return errors.Join(os.WriteFile(p, nil, 0o644), os.Truncate(p, 100<<20)) }): "release.redis holds 104857600 bytes",
	}
	if os.Geteuid() == 0 && runtime.GOOS == "linux" {
		// only root makes a device node where a part should be; anyone
		// else can reach one only through a symlink (devlink above)
		dir := mk("device", mkCharDevice)
		dirs[dir] = "release.redis is a device"
	}
	return dirs
}

// TestReadLabFileRefusesWhatIsNotAFile: a symlink (to a secret, to
// /dev/zero), a FIFO, a directory, a 100 MB file and, as root, a device
// node where release.redis should be are each refused by Load with one
// line naming the file, without a wait and without the secret's text.
func TestReadLabFileRefusesWhatIsNotAFile(t *testing.T) {
	for dir, want := range hostileDirs(t) {
		_, err := Load(dir)
		var rf *RefusedFile
		if !errors.As(err, &rf) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a refusal with %q", filepath.Base(dir), err, want)
			continue
		}
		if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "password") {
			t.Errorf("%s: the refusal %q is more than one line naming the file", filepath.Base(dir), err)
		}
	}
}

// TestReadLabFileBOMAndCRLF: a part saved by an editor that writes a byte
// order mark and CRLF line ends reads as the same part without them, and
// the lock's notes say the mark was dropped.
func TestReadLabFileBOMAndCRLF(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "acquire.lua"), []byte("\ufeff"+strings.ReplaceAll(acquireSET, "\n", "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "release.redis"), []byte("\ufeffGET {key}\r\nif token: DEL {key}\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if l.Acquire.Src != acquireSET || l.Release.Src != "GET {key}\nif token: DEL {key}\n" {
		t.Errorf("read %q and %q, want them without the mark and CRs", l.Acquire.Src, l.Release.Src)
	}
	var files []string
	for _, n := range Lint(l) {
		if strings.Contains(n.Text, "byte order mark") {
			files = append(files, n.File)
		}
	}
	if strings.Join(files, " ") != "acquire.lua release.redis" {
		t.Errorf("byte order mark notes for %v, want acquire.lua and release.redis", files)
	}
}

// TestOpenNoFollowRefusesALink: the open itself refuses a symlink, so a
// part swapped for one after ReadLabFile's Lstat is not followed either.
func TestOpenNoFollowRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if f, err := openNoFollow(link); !errors.Is(err, errLink) {
		if f != nil {
			f.Close()
		}
		t.Errorf("openNoFollow(link): %v, want errLink", err)
	}
	f, err := openNoFollow(target)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
