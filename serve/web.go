package serve

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"path"
	"runtime/debug"
	"strings"
	"time"

	"locksim/play"
	"locksim/sim"
	"locksim/storycode"
	"locksim/web"

	"github.com/coder/websocket"
)

// A Page is a verb of the command table served on the web at
// /NAME/ARGS… (/plain/race, /cast/CODE): its command runs with the path's
// segments as its arguments, within the commands' budget and time, and
// what it writes is the response, of type Type. Status 2 (bad arguments)
// is a 400 and 1 a 500, with the command's one line as the body.
type Page struct {
	Type string
	Command
}

// WebConfig is the web front's part of Config.
type WebConfig struct {
	// TrustProxy reads the client's address from X-Forwarded-For (the
	// last address in it, the one the proxy saw) instead of the
	// connection's: for a server behind a reverse proxy, where every
	// connection comes from the proxy. Off, the header is ignored.
	TrustProxy bool
	// TLS is set when the server is reached over HTTPS (its own
	// certificate, or a proxy's: an https -public-url): the cookie is
	// marked Secure.
	TLS bool
	// Pages are the verbs served as pages, by name.
	Pages map[string]Page
}

// cookieName is the browser's id cookie: a keyless student's name on this
// server, as a key is over SSH.
const cookieName = "locksim_id"

// cookieAge is how long a browser keeps its id: longer than a class runs,
// so a student who closes the tab comes back as the same row.
const cookieAge = 90 * 24 * time.Hour

// WebHandler is the web front: the page on /, /c/CODE, /s/STORYCODE,
// /p/TOKEN (a class's projector, see Session.ProjectorLink) and /i/TOKEN
// (an instructor's tab, see Session.TabLink);
// its assets under /static/; a session per WebSocket on /ws/ROUTE; and
// the Pages. Every response carries web.CSP.
func (s *Server) WebHandler() http.Handler {
	mux := http.NewServeMux()
	static := http.FileServerFS(web.Static())
	page := func(w http.ResponseWriter, r *http.Request) {
		s.idCookie(w, r)
		w.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(w, r, web.Static(), "index.html")
	}
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /c/{code}", page)
	mux.HandleFunc("GET /s/{code}", page)
	mux.HandleFunc("GET /p/{token}", page)
	mux.HandleFunc("GET /i/{token}", page)
	mux.Handle("GET /static/", http.StripPrefix("/static/", static))
	mux.HandleFunc("GET /ws/", s.webSession)
	for name, p := range s.cfg.Web.Pages {
		mux.HandleFunc("GET /"+name+"/{args...}", func(w http.ResponseWriter, r *http.Request) {
			s.webPage(w, r, name, p)
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", web.CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		if r.URL.Path == "/index.html" {
			// the page is served at its routes only
			http.NotFound(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// idCookie gives a browser with no id cookie (or a malformed one) a new
// one, when its address may make a new identity now (newCookie): else
// the page is served without, and its tab is told to wait.
func (s *Server) idCookie(w http.ResponseWriter, r *http.Request) {
	if _, ok := cookieOf(r); ok || !s.newCookie(s.remoteOf(r)) {
		return
	}
	s.setCookie(w, r, newWebID())
}

// cookieOf is the browser's id from its cookie, and whether it has one of
// the right form.
func cookieOf(r *http.Request) (string, bool) {
	if c, err := r.Cookie(cookieName); err == nil && validWebID(c.Value) {
		return c.Value, true
	}
	return "", false
}

// newWebID is a new browser id: 32 hex digits from crypto/rand.
func newWebID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// setCookie sets the browser's id cookie to v.
func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, v string) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: v, Path: "/", MaxAge: int(cookieAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.cfg.Web.TLS || r.TLS != nil})
}

// sameOrigin reports whether the upgrade r will be let through by
// websocket.Accept's origin check: no Origin header, an Origin whose host
// is the request's Host, or one that matches a pattern (path.Match, as
// Accept matches them).
func sameOrigin(r *http.Request, patterns []string) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(u.Host)); ok {
			return true
		}
	}
	return false
}

// validWebID reports a browser id's form: 32 lower-case hex digits.
func validWebID(v string) bool {
	if len(v) != 32 {
		return false
	}
	_, err := hex.DecodeString(v)
	return err == nil && strings.ToLower(v) == v
}

// remoteOf is the client's address: the connection's, or with TrustProxy
// the last in X-Forwarded-For.
func (s *Server) remoteOf(r *http.Request) string {
	if s.cfg.Web.TrustProxy {
		if f := r.Header.Values("X-Forwarded-For"); len(f) > 0 {
			parts := strings.Split(f[len(f)-1], ",")
			if a := strings.TrimSpace(parts[len(parts)-1]); net.ParseIP(a) != nil {
				return a
			}
		}
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// pageBase is the page's own origin as the browser reached it, for the
// links a session shows: -public-url when given.
func (s *Server) pageBase(r *http.Request) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimSuffix(s.cfg.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil || s.cfg.Web.TLS {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// webSession is one tab's session: /ws/ for the course, /ws/c/CODE to
// join class CODE, /ws/s/STORYCODE at a story code's place. The upgrade
// is refused to a page of another origin (websocket.Accept checks Origin
// against Host, and -public-url's host); the session takes a slot of the
// same budget as SSH sessions, and one of its browser's.
func (s *Server) webSession(w http.ResponseWriter, r *http.Request) {
	route := strings.TrimPrefix(r.URL.Path, "/ws")
	webID, known := cookieOf(r)
	if !known {
		webID = newWebID()
	}
	id := Identity{ID: webStudentID(webID)}
	var at *play.Position
	var bad string
	switch {
	case route == "/" || route == "":
	case strings.HasPrefix(route, "/c/"):
		id.User = strings.TrimPrefix(route, "/c/")
		if len(id.User) > 32 || strings.ContainsAny(id.User, "/ @") {
			bad = "locksim: that is not a class code"
		}
	case strings.HasPrefix(route, "/p/"):
		// the projector: its instructor's identity, seen by the class as
		// the projector of the class its token names; it takes a
		// projector's slot of that class, not an instructor's (admit)
		p, ok := s.projectors.find(strings.TrimPrefix(route, "/p/"))
		if !ok {
			bad = "locksim: this projector link is not one of this server's: ask the instructor for it again"
			break
		}
		id = Identity{ID: p.lead, KeyHash: p.lead, User: p.code, Instructor: true}
	case strings.HasPrefix(route, "/i/"):
		// an instructor's tab: the key and class its one-time link was
		// made for over SSH (Session.TabLink), spent here whatever comes
		// of the upgrade; it takes a slot of that key's, as an SSH
		// session of the key does (admit)
		id, bad = s.tabIdentity(strings.TrimPrefix(route, "/i/"))
	case strings.HasPrefix(route, "/s/"):
		pos, err := storycode.Decode(s.resolveCode(strings.TrimPrefix(route, "/s/")))
		if err != nil {
			bad = fmt.Sprintf("locksim: %v", err)
		}
		at = &pos
	default:
		http.NotFound(w, r)
		return
	}
	var opts websocket.AcceptOptions
	if s.cfg.PublicURL != "" {
		if u, err := url.Parse(s.cfg.PublicURL); err == nil && u.Host != "" {
			opts.OriginPatterns = []string{u.Host}
		}
	}
	c := Client{Identity: id, Remote: s.remoteOf(r), Term: BrowserTerm}
	// admitted before the upgrade, whose answer carries a new browser's
	// cookie only when the address may make one; a page of another origin
	// is refused by the upgrade and takes nothing
	cl := claim{id: id, holder: "web:" + webID, whose: "browser", remote: c.Remote, fresh: !known}
	if strings.HasPrefix(route, "/p/") {
		cl.projector = id.User
	}
	if id.Leads != "" {
		// the instructor's key holds the tab, as it holds their SSH
		// sessions; a key is no new identity of the address
		cl.holder, cl.whose, cl.fresh = id.KeyHash, "key", false
	}
	line, release, admitted := "", func() {}, false
	if bad == "" && sameOrigin(r, opts.OriginPatterns) {
		line, release = s.admit(cl)
		admitted = true
		if line == "" && !known {
			s.setCookie(w, r, webID)
		}
	}
	conn, err := websocket.Accept(w, r, &opts)
	if err != nil {
		if admitted && line == "" {
			release()
		}
		s.cfg.Log.Printf("web %s: refused: %v", c.Remote, err)
		return
	}
	if bad == "" && !admitted {
		// an origin Accept lets through that sameOrigin did not: the tab
		// is admitted now, without a cookie of its own
		line, release = s.admit(cl)
	}
	if bad != "" {
		refuseTab(r.Context(), conn, bad)
		return
	}
	if line != "" {
		refuseTab(r.Context(), conn, line)
		return
	}
	defer release()
	// the tab's context is not the server's: the shutdown ends the
	// session with a line, as it does an SSH session
	defer keepPresence(s.cfg.ProbeEvery, webProbe(conn), func() {
		s.cfg.Log.Printf("session %s: the tab answered no ping for %d probes: closed", id.ID, ProbesMissed)
		_ = conn.CloseNow()
	})()
	s.runTerminal(newWebTransport(context.Background(), conn, c), s.webFront(s.pageBase(r)), at)
}

// refuseTab says line on a tab that never became a session and closes it,
// the close frame saying it broke a policy.
func refuseTab(ctx context.Context, conn *websocket.Conn, line string) {
	_ = conn.Write(ctx, websocket.MessageBinary, []byte(line+"\r\n"))
	_ = conn.Close(websocket.StatusPolicyViolation, closeReason(line))
}

// webPage runs page's command for /NAME/ARGS…, in the commands' budget
// of the client's address, stopped after CommandTime.
func (s *Server) webPage(w http.ResponseWriter, r *http.Request, name string, p Page) {
	id := Identity{ID: "web-page"}
	remote := s.remoteOf(r)
	line, release := s.admit(claim{id: id, command: true, holder: "addr:" + remote, whose: "address", remote: remote})
	if line != "" {
		http.Error(w, line, http.StatusTooManyRequests)
		return
	}
	defer release()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.CommandTime)
	defer cancel()
	var args []string
	if a := r.PathValue("args"); a != "" {
		args = strings.Split(a, "/")
	}
	var out, errOut bytes.Buffer
	call := Call{Name: name, Args: args, Query: r.URL.Query(), Out: &out, Err: &errOut, Who: id,
		Backend: func() (*sim.Backend, func(), error) {
			b, err := s.openBackend(ctx)
			if err != nil {
				return nil, nil, err
			}
			return b, func() { s.closeBackend(b, id.ID) }, nil
		}}
	code := func() (code int) {
		defer func() {
			if p := recover(); p != nil {
				s.cfg.Log.Printf("web page %s: panic: %v\n%s", r.URL.Path, p, debug.Stack())
				code = 1
				errOut.Reset()
				errOut.WriteString("locksim: this page hit a fault in locksim\n")
			}
		}()
		if a, ok := s.cfg.Class.(Asker); ok {
			// a student of a class of this store may open any page while
			// the class is asked: the class says what is (class.Held)
			call.Held = a.Asking(ctx)
		}
		return p.Run(ctx, call)
	}()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		http.Error(w, fmt.Sprintf("locksim: %s was stopped after %s, the most a page may take", r.URL.Path, span(s.cfg.CommandTime)), http.StatusServiceUnavailable)
	case code == 2:
		http.Error(w, strings.TrimSpace(errOut.String()), http.StatusBadRequest)
	case code != 0:
		http.Error(w, strings.TrimSpace(errOut.String()), http.StatusInternalServerError)
	default:
		w.Header().Set("Content-Type", p.Type)
		_, _ = out.WriteTo(w)
	}
}

// ServeWeb serves WebHandler on l until Close (over TLS when certFile
// and keyFile are given); it returns nil after Close.
func (s *Server) ServeWeb(l net.Listener, certFile, keyFile string) error {
	hs := &http.Server{Handler: s.WebHandler(), ReadHeaderTimeout: 10 * time.Second}
	s.mu.Lock()
	s.webs = append(s.webs, hs)
	s.webAddr = l.Addr().String()
	s.mu.Unlock()
	var err error
	switch {
	case certFile != "":
		// a line in plain HTTP would be garbage to a TLS client: it is
		// closed without one
		err = hs.ServeTLS(s.limitListener(l, ""), certFile, keyFile)
	case s.cfg.Web.TrustProxy:
		// every connection is the proxy's
		err = hs.Serve(l)
	default:
		err = hs.Serve(s.limitListener(l, refusedHTTP))
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
