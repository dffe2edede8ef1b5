package serve

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Identity is who a session is. A student is known by their public key,
// never by address: a class behind one NAT shares one.
type Identity struct {
	// ID names the student: KeyHash, or for a keyless session "anon-"
	// and its reconnect token (Token).
	ID string
	// KeyHash is the hex SHA-256 of the authenticated public key's wire
	// form (its first 32 digits); "" without a key.
	KeyHash string
	// Key is the public key the session authenticated with; nil without.
	Key gossh.PublicKey
	// User is the SSH user name (ssh CODE@host): a class code when it is
	// one; the class decides. A keyless client's reconnect token, offered
	// as USER-TOKEN, is taken off it.
	User string
	// Token is a keyless session's reconnect token: the one it offered
	// (ssh USER-TOKEN@host), or a fresh one; offered again on the next
	// connection, it makes that session the same student (one roster row,
	// the same name and progress while the server runs). "" with a key.
	Token string
	// Name is the display name the student gave; "" if not asked or
	// skipped. Set before Class.Join, never changed after.
	Name string
	// Instructor is set when Key is in Config.Instructors, checked inside
	// the session against the file as it is then.
	Instructor bool
	// Leads is the class an instructor's tab was opened to lead (a tab
	// link, Session.TabLink): that class's code, "" for every other
	// session.
	Leads string
	// Local is the address the client reached the server at (host:port):
	// what the people beside it can reach too, unless a NAT or a port
	// forward stands between (see the classroom's join line).
	Local string
}

// Keyless reports a session that gave no public key.
func (id Identity) Keyless() bool { return id.KeyHash == "" }

// ComeBack is the user name a keyless session connects as to come back
// as the same student (USER-TOKEN); "" with a key.
func (id Identity) ComeBack() string {
	if id.Token == "" {
		return ""
	}
	return id.User + "-" + id.Token
}

// Session is one connection's program as the class sees it.
type Session struct {
	Identity
	// Conn names this connection, 16 random hex digits: a student may
	// have two sessions at once (a projector beside a laptop).
	Conn  string
	ctx   context.Context
	send  func(tea.Msg)
	touch func()
	// projector makes a class's projector link (Server.projectorLink)
	projector func(code, lead, local string) string
	// tabLink makes an instructor's one-time tab link (Server.tabLink)
	tabLink func(id Identity, code string) string
	// fr draws the session's screen, which an instructor may watch
	fr *frames
}

// Touch counts as a key for the idle limit: a class's hook calls it when
// the instructor moves, so a student or a projector that follows a lesson
// without typing is not closed as idle while the lesson goes on.
func (s *Session) Touch() {
	if s.touch != nil {
		s.touch()
	}
}

// Context is done once the session has ended.
func (s *Session) Context() context.Context { return s.ctx }

// Send hands msg to the session's program, as a key or a resize would
// arrive; it waits until the program takes it and does nothing once the
// program has ended. Never call it from the program's own Update (it would
// wait for itself): return a tea.Cmd there instead.
func (s *Session) Send(msg tea.Msg) {
	if s.send != nil {
		s.send(msg)
	}
}

// keyHash is the id of a student's key.
func keyHash(k gossh.PublicKey) string {
	sum := sha256.Sum256(k.Marshal())
	return hex.EncodeToString(sum[:16])
}

// webStudentID is the id of the browser whose id cookie is cookie:
// "web-" and the first 12 hex digits of the SHA-256 of the cookie under a
// fixed prefix. The cookie is the browser's credential (whoever sends it
// is that student), and an id goes where no credential may: the class's
// store, its report, the logs. The same cookie is the same id on every
// server of a class.
func webStudentID(cookie string) string {
	sum := sha256.Sum256([]byte("locksim browser id\x00" + cookie))
	return "web-" + hex.EncodeToString(sum[:6])
}

// identify reads who sess is; not yet whether they instruct.
func identify(sess ssh.Session) Identity {
	id := Identity{User: sess.User()}
	if a := sess.LocalAddr(); a != nil {
		id.Local = a.String()
	}
	if k := sess.PublicKey(); k != nil {
		id.Key, id.KeyHash = k, keyHash(k)
		id.ID = id.KeyHash
		return id
	}
	if user, token, ok := strings.Cut(id.User, "-"); ok && validToken(token) {
		id.User, id.Token = user, token
	} else {
		id.Token = newToken()
	}
	id.ID = "anon-" + id.Token
	return id
}

// tokenLetters are what a reconnect token is made of: lower case (a user
// name is typed as given) and none that reads as another (0/o, 1/l/i).
const tokenLetters = "abcdefghjkmnpqrstuvwxyz23456789"

// TokenLen is a reconnect token's length: 31⁸, about 850 thousand
// million tokens, so none is guessed.
const TokenLen = 8

// newToken draws a reconnect token from crypto/rand.
func newToken() string {
	var b [TokenLen]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = tokenLetters[int(b[i])%len(tokenLetters)]
	}
	return string(b[:])
}

// validToken reports that s has a reconnect token's form.
func validToken(s string) bool {
	if len(s) != TokenLen {
		return false
	}
	for i := range len(s) {
		if !strings.ContainsRune(tokenLetters, rune(s[i])) {
			return false
		}
	}
	return true
}

// keyFile is an authorized_keys file read again whenever its size or
// modification time changes.
type keyFile struct {
	path string

	mu    sync.Mutex
	mtime time.Time
	size  int64
	keys  [][]byte // each key's wire form
	read  bool
}

// Has reports whether k is in the file as it is now. A file that cannot
// be read or parsed grants nothing, and says why.
func (f *keyFile) Has(k gossh.PublicKey) (bool, error) {
	if f == nil || k == nil {
		return false, nil
	}
	keys, err := f.load()
	if err != nil {
		return false, err
	}
	want := k.Marshal()
	for _, w := range keys {
		if bytes.Equal(w, want) {
			return true, nil
		}
	}
	return false, nil
}

// load returns the file's keys, reading it again if it changed.
func (f *keyFile) load() ([][]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fi, err := os.Stat(f.path)
	if err != nil {
		f.read, f.keys = false, nil
		return nil, err
	}
	if f.read && fi.ModTime().Equal(f.mtime) && fi.Size() == f.size {
		return f.keys, nil
	}
	data, err := os.ReadFile(f.path)
	if err != nil {
		f.read, f.keys = false, nil
		return nil, err
	}
	var keys [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		k, _, _, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			f.read, f.keys = false, nil
			return nil, fmt.Errorf("%s line %d: %v", f.path, n, err)
		}
		keys = append(keys, k.Marshal())
	}
	f.keys, f.read, f.mtime, f.size = keys, true, fi.ModTime(), fi.Size()
	return keys, nil
}
