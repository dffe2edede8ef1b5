package serve

import (
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TabLinkLife is how long an instructor's tab link opens a tab: time to
// paste it into a browser, and no more, so that a link seen over a
// shoulder or left in a terminal's scrollback is dead by then.
const TabLinkLife = 2 * time.Minute

// tabTokenLen is a tab link's token length in tokenLetters: 31²⁴, about
// 6·10³⁵ tokens, of which a server holds at most maxTabLinks live.
const tabTokenLen = 24

// maxTabLinks bounds the tab links a server keeps unused at once: an
// instructor pressing the key in a loop holds no more memory than this.
const maxTabLinks = 1024

// tabGrant is what an instructor's tab link stands for: the instructor's
// key (checked against -instructors again when the tab opens), the user
// name their SSH session gave, the class they lead from it, and when the
// link dies.
type tabGrant struct {
	key     gossh.PublicKey
	keyHash string
	user    string
	code    string
	expires time.Time
}

// tabLinks are the instructor tab links handed out and not yet used: a
// token opens one tab (/i/TOKEN) once, within TabLinkLife, as the key
// and class it was made for, and is gone then. They live in the memory
// of the server that made them.
type tabLinks struct {
	mu sync.Mutex
	by map[string]tabGrant
}

// issue keeps g under a new token and returns it; "" when the server
// already holds maxTabLinks live links.
func (t *tabLinks) issue(g tabGrant, now time.Time) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.by == nil {
		t.by = map[string]tabGrant{}
	}
	for tok, old := range t.by {
		if !now.Before(old.expires) {
			delete(t.by, tok)
		}
	}
	if len(t.by) >= maxTabLinks {
		return ""
	}
	var b strings.Builder
	for b.Len() < tabTokenLen {
		b.WriteString(newToken())
	}
	tok := b.String()[:tabTokenLen]
	t.by[tok] = g
	return tok
}

// take is the grant token stands for, spent: a token is taken once,
// whether or not it is still live; ok is false for a token unknown,
// spent or expired.
func (t *tabLinks) take(token string, now time.Time) (tabGrant, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.by[token]
	if !ok {
		return tabGrant{}, false
	}
	delete(t.by, token)
	return g, now.Before(g.expires)
}

// TabLink is a one-time web address that opens this instructor's view
// of class code in a browser tab, where watch and pair work as over SSH:
// one tab, within TabLinkLife. "" for a session that is not an
// instructor's key, when the server has no web front, or holds too many
// unused links.
func (s *Session) TabLink(code string) string {
	if s.tabLink == nil || !s.Instructor || s.Key == nil || code == "" {
		return ""
	}
	return s.tabLink(s.Identity, code)
}

// tabLink makes an instructor's tab link (see Session.TabLink).
func (s *Server) tabLink(id Identity, code string) string {
	base := s.webBase(id.Local)
	if base == "" {
		return ""
	}
	tok := s.tabs.issue(tabGrant{key: id.Key, keyHash: id.KeyHash, user: id.User, code: code, expires: s.clock.Now().Add(TabLinkLife)}, s.clock.Now())
	if tok == "" {
		return ""
	}
	return base + "/i/" + tok
}

// tabIdentity is who the tab opened with token is: the instructor the
// link was made for, leading the class it was made for; bad is the line
// that refuses it (a token spent, expired or never made here, or a key
// no longer in -instructors).
func (s *Server) tabIdentity(token string) (id Identity, bad string) {
	g, ok := s.tabs.take(token, s.clock.Now())
	if !ok {
		return id, "locksim: this instructor link is spent, expired or not this server's: press I on your class view over SSH for a new one"
	}
	if has, err := s.instr.Has(g.key); err != nil || !has {
		return id, "locksim: this link's key is no longer an instructor's key on this server"
	}
	// no Key: a tab makes no link of its own
	return Identity{ID: g.keyHash, KeyHash: g.keyHash, User: g.user, Leads: g.code, Instructor: true}, ""
}
