package cli

import (
	"strconv"
	"strings"
	"testing"
)

// minimums are the oldest module versions a class server may be built
// with: each is the first release with a fix for an advisory scanners flag
// on the versions before it.
var minimums = map[string]string{
	// CVE-2025-58181 (ssh: unbounded memory from GSSAPI authentication)
	// and CVE-2025-47914 (ssh/agent: a malformed request panics), both
	// fixed in v0.45.0
	"golang.org/x/crypto": "v0.45.0",
}

// TestNoFlaggedModules lists the modules of the packages linked into the
// program (go list -deps locksim, from goList: a test binary of a package other than
// main carries no module list of its own) and fails if one is older than
// its minimum.
func TestNoFlaggedModules(t *testing.T) {
	pkgs := packages(t)
	seen := map[string]bool{}
	for _, dep := range depsOf(t, pkgs, "locksim") {
		m := pkgs[dep].Module
		if m == nil || m.Version == "" {
			continue // the standard library, the main module: no version
		}
		path, version := m.Path, m.Version
		if m.Replace != nil && m.Replace.Version != "" {
			version = m.Replace.Version // replaced
		}
		min, ok := minimums[path]
		if !ok || seen[path] {
			continue
		}
		seen[path] = true
		if older(version, min) {
			t.Errorf("%s is at %s; a release before %s is flagged by scanners", path, version, min)
		}
	}
	for path := range minimums {
		if !seen[path] {
			t.Errorf("%s is not linked into the program any more: drop it from minimums", path)
		}
	}
}

// older reports whether version a (vMAJOR.MINOR.PATCH, any suffix after a
// '-' ignored) comes before b.
func older(a, b string) bool {
	pa, pb := parts(a), parts(b)
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return false
}

func parts(v string) [3]int {
	var out [3]int
	v, _, _ = strings.Cut(strings.TrimPrefix(v, "v"), "-")
	for i, f := range strings.SplitN(v, ".", 3) {
		out[i], _ = strconv.Atoi(f)
	}
	return out
}

func TestOlder(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"v0.36.0", "v0.45.0", true},
		{"v0.45.0", "v0.45.0", false},
		{"v0.59.0", "v0.45.0", false},
		{"v0.44.9", "v0.45.0", true},
		{"v1.0.0", "v0.45.0", false},
		{"v0.45.1-0.20250101-abcdef", "v0.45.0", false},
	} {
		if got := older(c.a, c.b); got != c.want {
			t.Errorf("older(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
