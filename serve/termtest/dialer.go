package termtest

import (
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// A Dialer opens terminals on one server over one transport: SSH (a pty
// on the server's SSH address) or the web (a tab on its web front). A
// test of sessions runs on both with the same steps.
type Dialer struct {
	// Name is the transport's: "ssh" or "web".
	Name string
	// addr is the SSH address (host:port) or the web front's base URL
	// (http://host:port)
	addr string
	// from is the source address clients connect from, "" for any
	from string
}

// SSH is the dialer of the SSH server on addr (host:port).
func SSH(addr string) Dialer { return Dialer{Name: "ssh", addr: addr} }

// Web is the dialer of the web front at base (http://host:port).
func Web(base string) Dialer { return Dialer{Name: "web", addr: base} }

// From is d dialling from the source address ip (loopback accepts all of
// 127/8: 127.0.0.N).
func (d Dialer) From(ip string) Dialer {
	d.from = ip
	return d
}

// At is where a terminal opens: the course (the zero value), a class by
// its code, or a story code's place.
type At struct {
	// Class is a class's code: the SSH user name, the tab's /c/CODE.
	Class string
	// Story is a story code: ssh -t HOST story CODE, the tab's /s/CODE.
	Story string
	// User is the SSH user name when Class is "" ("student" when "").
	User string
}

// Who is one client: over SSH a key, in a browser its cookies; or,
// made by Anonymous, a client the server cannot know again (no key, a
// browser that keeps no cookie).
type Who struct {
	d   Dialer
	key gossh.Signer
	br  *Browser
}

// New is a new client with an identity of its own: a fresh key, a fresh
// browser.
func (d Dialer) New(t testing.TB) *Who {
	w := &Who{d: d}
	if d.Name == "ssh" {
		w.key = NewKey(t)
	} else {
		w.br = NewBrowserFrom(t, d.from)
	}
	return w
}

// Anonymous is a client with no identity the server keeps: no key over
// SSH, a browser with no cookie jar (each tab is given a new cookie).
func (d Dialer) Anonymous(t testing.TB) *Who {
	w := &Who{d: d}
	if d.Name == "web" {
		w.br = NewBrowserFrom(t, d.from)
		w.br.Client.Jar = nil
	}
	return w
}

// Key is the client's SSH key, nil in a browser or without one.
func (w *Who) Key() gossh.Signer { return w.key }

// Browser is the client's browser, nil over SSH.
func (w *Who) Browser() *Browser { return w.br }

// Open opens a terminal of w×h at at (an xterm-256color pty over SSH).
func (w *Who) Open(t testing.TB, at At, width, height int) *Term {
	t.Helper()
	if w.d.Name == "web" {
		return w.br.Open(t, w.d.addr, at.route(), width, height)
	}
	return OpenCmd(t, w.dial(t, at), "xterm-256color", width, height, nil, at.command())
}

// OpenLight opens a light terminal (no emulator: for benchmarks, and for
// tests of many sessions or of sizes no emulator should hold) of w×h at
// at.
func (w *Who) OpenLight(t testing.TB, at At, width, height int) *Light {
	t.Helper()
	if w.d.Name == "web" {
		return w.br.OpenLight(t, w.d.addr, at.route(), width, height)
	}
	return OpenLight(t, w.dial(t, at), width, height, at.command())
}

// route is a tab's WebSocket route to at.
func (at At) route() string {
	switch {
	case at.Class != "":
		return "/ws/c/" + at.Class
	case at.Story != "":
		return "/ws/s/" + at.Story
	}
	return "/ws/"
}

// command is the command an SSH terminal runs to reach at ("" for a
// shell).
func (at At) command() string {
	if at.Story != "" {
		return "story " + at.Story
	}
	return ""
}

// dial connects the client over SSH as at's user name.
func (w *Who) dial(t testing.TB, at At) *gossh.Client {
	t.Helper()
	user := at.User
	if user == "" {
		user = "student"
	}
	if at.Class != "" {
		user = at.Class
	}
	c, err := DialFrom(w.d.from, w.d.addr, user, w.key)
	if err != nil {
		t.Fatalf("ssh %s@%s: %v", user, w.d.addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Base is the web front's base URL (http://host:port) of a web dialer.
func (d Dialer) Base() string { return d.addr }
