package cli

import (
	"net"
	"strings"
	"testing"
)

// TestServeBadInput: -serve's flags and a taken port are one line and
// status 2.
func TestServeBadInput(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-serve", taken.Addr().String(), "-host-key", t.TempDir() + "/k"}, "-serve " + taken.Addr().String() + ": bind: address already in use"},
		{[]string{"-idle", "5m"}, "-idle needs -serve ADDR"},
		{[]string{"-instructors", "f"}, "-instructors needs -serve ADDR"},
		{[]string{"-serve", ":0", "-scene", "race"}, "-serve serves the whole course"},
		{[]string{"-serve", ":0", "-redlock", "redis://a:1,redis://a:2,redis://a:3,redis://a:4,redis://a:5"}, "-redlock and -resource-redis are not served"},
		{[]string{"-serve", ":0", "-no-color"}, "each student's own matter when served"},
		{[]string{"-web", ":0", "-no-save"}, "locksim: -web: -reset-progress, -no-save"},
		{[]string{"-serve", ":0", "-max-sessions", "0"}, "-max-sessions must be 1 or more"},
		{[]string{"-serve", ":0", "-max-sessions-per-key", "0"}, "-max-sessions-per-key must be 1 or more"},
		{[]string{"-serve", ":0", "-max-sessions-per-address", "-1"}, "-max-sessions-per-address must be 0 (no cap) or more"},
		{[]string{"-serve", ":0", "-class-size", "0"}, "-class-size must be 1 or more"},
		{[]string{"-serve", ":0", "-max-commands", "-2"}, "-max-commands must be 1 or more"},
		{[]string{"-serve", ":0", "-max-commands-per-key", "0"}, "-max-commands-per-key must be 1 or more"},
		{[]string{"-serve", ":0", "-command-time", "10ms"}, "-command-time must be at least 1s"},
		{[]string{"-command-time", "5s"}, "-command-time needs -serve ADDR"},
		{[]string{"-serve", ":0", "-class-retention", "10m"}, "-class-retention must be at least 1h"},
		{[]string{"-serve", ":0", "-public-addr", "class.example.org"}, "-public-addr wants HOST:PORT"},
		{[]string{"-serve", ":0", "-public-addr", "h:99999"}, "-public-addr wants HOST:PORT"},
		{[]string{"-public-addr", "h:22"}, "-public-addr needs -serve ADDR"},
		{[]string{"-serve", ":0", "-idle", "90s"}, "-idle must be 0 (never) or at least 2m0s"},
		{[]string{"-serve", ":0", "-max-session", "-1h"}, "-max-session must be 0 (never) or above"},
		{[]string{"-serve", ":0", "-class-redis", "redis://127.0.0.1:1"}, "give them all one host key with -host-key FILE"},
		{[]string{"-serve", ":0", "-story", "race.x"}, "-serve serves the whole course"},
		{[]string{"-web", ":0", "-scene", "race"}, "-web serves the whole course"},
		{[]string{"-web", taken.Addr().String(), "-host-key", t.TempDir() + "/k"}, "-web " + taken.Addr().String() + ": bind: address already in use"},
		{[]string{"-public-url", "https://h/"}, "-public-url needs -web ADDR"},
		{[]string{"-serve", ":0", "-trust-proxy"}, "-trust-proxy needs -web ADDR"},
		{[]string{"-web", ":0", "-web-tls-cert", "c.pem"}, "-web-tls-cert and -web-tls-key go together"},
		{[]string{"-web", ":0", "-public-url", "class.example.org"}, "-public-url wants the web front's address"},
		{[]string{"-web", ":0", "-public-url", "ftp://class.example.org/"}, "-public-url wants the web front's address"},
	}
	for _, c := range cases {
		code, out, errs := runRefused(t, c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line with %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestPublicJoin: -public-addr's join line leaves out port 22 and writes
// an IPv6 host in brackets.
func TestPublicJoin(t *testing.T) {
	for addr, want := range map[string]string{
		"class.example.org:2222": "ssh -p 2222 CODE@class.example.org",
		"class.example.org:22":   "ssh CODE@class.example.org",
		"[2001:db8::1]:2222":     "ssh -p 2222 CODE@[2001:db8::1]",
		"":                       "",
	} {
		if got := publicJoin(addr); got != want {
			t.Errorf("publicJoin(%q) = %q, want %q", addr, got, want)
		}
	}
}

// TestPageURL: the start line names the page as students may reach it:
// -public-url when given, the listener's own address, HOST for one that
// listens everywhere.
func TestPageURL(t *testing.T) {
	for _, tc := range []struct{ scheme, addr, public, want string }{
		{"http", "127.0.0.1:8099", "", "http://127.0.0.1:8099/"},
		{"https", "[::]:8443", "", "https://HOST:8443/"},
		{"http", "0.0.0.0:8080", "", "http://HOST:8080/"},
		{"http", "[::1]:8080", "", "http://[::1]:8080/"},
		{"http", "0.0.0.0:8080", "https://class.example.org/", "https://class.example.org/"},
	} {
		if got := pageURL(tc.scheme, tc.addr, tc.public); got != tc.want {
			t.Errorf("pageURL(%q, %q, %q) = %q, want %q", tc.scheme, tc.addr, tc.public, got, tc.want)
		}
	}
}
