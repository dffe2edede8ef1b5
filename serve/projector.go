package serve

import (
	"net"
	"strings"
	"sync"
)

// projectors are the projector links this server has handed out: an
// unguessable token for each class and its instructor's key, opening the
// projector role of that class in a browser tab (/p/TOKEN), so the room's
// screen needs no SSH. They live for the server's life, in its memory: a
// link works on the server that made it.
type projectors struct {
	mu      sync.Mutex
	byToken map[string]projector
	byClass map[projector]string
}

// projector is what a token stands for: the class's code and the key
// hash of its instructor, whose projector the tab becomes.
type projector struct{ code, lead string }

// projectorTokenLen is a projector token's length in tokenLetters: 31²⁰,
// about 6·10²⁹ tokens.
const projectorTokenLen = 20

// token returns the class's token, made the first time.
func (p *projectors) token(code, lead string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byToken == nil {
		p.byToken, p.byClass = map[string]projector{}, map[projector]string{}
	}
	k := projector{code, lead}
	if t, ok := p.byClass[k]; ok {
		return t
	}
	var b strings.Builder
	for b.Len() < projectorTokenLen {
		b.WriteString(newToken())
	}
	t := b.String()[:projectorTokenLen]
	p.byToken[t], p.byClass[k] = k, t
	return t
}

// find is the class a token opens.
func (p *projectors) find(token string) (projector, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.byToken[token]
	return k, ok
}

// ProjectorLink is the web address that opens class code's projector in
// a browser tab, for the class's instructor alone to be shown: "" for a
// session that is not an instructor's, or when the server has no web
// front. Its host is -public-url's, or the host this session's client
// reached with the web front's port.
func (s *Session) ProjectorLink(code string) string {
	if s.projector == nil || !s.Instructor || s.KeyHash == "" {
		return ""
	}
	return s.projector(code, s.KeyHash, s.Local)
}

// projectorLink makes a class's projector link (see Session.ProjectorLink).
func (s *Server) projectorLink(code, lead, local string) string {
	base := s.webBase(local)
	if base == "" {
		return ""
	}
	return base + "/p/" + s.projectors.token(code, lead)
}

// webBase is the web front's origin as a session's client at local (the
// address it reached) can reach it: -public-url's, or local's host with
// the web front's port; "" when the server has no web front.
func (s *Server) webBase(local string) string {
	s.mu.Lock()
	web := s.webAddr
	s.mu.Unlock()
	base := strings.TrimSuffix(s.cfg.PublicURL, "/")
	if base == "" {
		if web == "" {
			return ""
		}
		host, _, err := net.SplitHostPort(local)
		if err != nil {
			return ""
		}
		_, port, _ := net.SplitHostPort(web)
		scheme := "http"
		if s.cfg.Web.TLS {
			scheme = "https"
		}
		base = scheme + "://" + net.JoinHostPort(host, port)
	}
	return base
}
