package serve

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"locksim/serve/termtest"

	gossh "golang.org/x/crypto/ssh"
)

// TestTabLinksOnceAndShort: an instructor's tab link is a token of
// tabTokenLen letters of tokenLetters, none the same as another; it is
// taken once (a second take finds nothing), and not at all once
// TabLinkLife has passed (and is spent by the try); a server keeps at
// most maxTabLinks unused, and an expired one frees its place.
func TestTabLinksOnceAndShort(t *testing.T) {
	t.Parallel()
	var tl tabLinks
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	g := tabGrant{keyHash: "k", user: "prof", code: "k7q2a", expires: now.Add(TabLinkLife)}
	seen := map[string]bool{}
	for range 50 {
		tok := tl.issue(g, now)
		if len(tok) != tabTokenLen || strings.Trim(tok, tokenLetters) != "" || seen[tok] {
			t.Fatalf("token %q: want %d fresh letters of %q", tok, tabTokenLen, tokenLetters)
		}
		seen[tok] = true
	}
	tok := tl.issue(g, now)
	if got, ok := tl.take(tok, now.Add(TabLinkLife-time.Second)); !ok || got.code != "k7q2a" || got.keyHash != "k" {
		t.Fatalf("a live token should be taken once: %+v %v", got, ok)
	}
	if _, ok := tl.take(tok, now); ok {
		t.Fatal("a token was taken twice")
	}
	late := tl.issue(g, now)
	if _, ok := tl.take(late, now.Add(TabLinkLife)); ok {
		t.Fatal("a token was taken after TabLinkLife")
	}
	if _, ok := tl.take(late, now); ok {
		t.Fatal("an expired token's try did not spend it")
	}
	if _, ok := tl.take("abcdefghjkmnpqrstuvwxyz2", now); ok {
		t.Fatal("a made-up token was taken")
	}
	var full tabLinks
	for range maxTabLinks {
		if full.issue(g, now) == "" {
			t.Fatal("a link refused below the bound")
		}
	}
	if full.issue(g, now) != "" {
		t.Fatalf("more than %d unused links kept", maxTabLinks)
	}
	if full.issue(tabGrant{expires: now.Add(time.Hour)}, now.Add(TabLinkLife)) == "" {
		t.Fatal("expired links kept their places")
	}
}

// TestTabIdentity: a tab opened with a link is the instructor the link
// was made for, leading its class, with no key of its own (a tab makes
// no link); the link's key, taken out of -instructors since, opens none.
func TestTabIdentity(t *testing.T) {
	t.Parallel()
	key := termtest.NewKey(t)
	path := filepath.Join(t.TempDir(), "instructors")
	if err := os.WriteFile(path, gossh.MarshalAuthorizedKey(key.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{HostKey: filepath.Join(t.TempDir(), "host"), Instructors: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	s.mu.Lock()
	s.webAddr = "127.0.0.1:8080"
	s.mu.Unlock()
	teacher := Identity{ID: keyHash(key.PublicKey()), KeyHash: keyHash(key.PublicKey()), Key: key.PublicKey(), User: "prof", Instructor: true, Local: "127.0.0.1:2222"}
	ses := &Session{Identity: teacher, tabLink: s.tabLink}
	link := ses.TabLink("k7q2a")
	if !strings.HasPrefix(link, "http://127.0.0.1:8080/i/") {
		t.Fatalf("link %q", link)
	}
	id, bad := s.tabIdentity(strings.TrimPrefix(link, "http://127.0.0.1:8080/i/"))
	if bad != "" || id.KeyHash != teacher.KeyHash || id.ID != teacher.KeyHash || id.User != "prof" || id.Leads != "k7q2a" || !id.Instructor || id.Key != nil {
		t.Fatalf("the tab's identity %+v (%q)", id, bad)
	}
	if (&Session{Identity: id, tabLink: s.tabLink}).TabLink("k7q2a") != "" {
		t.Fatal("a tab made a link")
	}
	if (&Session{Identity: Identity{ID: "s", KeyHash: "s", Key: key.PublicKey()}, tabLink: s.tabLink}).TabLink("k7q2a") != "" {
		t.Fatal("a student's session made a link")
	}
	link = ses.TabLink("k7q2a")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, bad := s.tabIdentity(strings.TrimPrefix(link, "http://127.0.0.1:8080/i/")); !strings.Contains(bad, "no longer an instructor's key") {
		t.Fatalf("a key out of -instructors opened a tab: %q", bad)
	}
}
