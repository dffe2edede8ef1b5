package buildinfo

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: each kind of build information a toolchain writes reads
// as one version: a module's own, go build's pseudo-version from git with
// its commit, a checkout built by go run or with -buildvcs=false (none).
func TestVersionOf(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"(devel)", nil, NoVCS},
		{"", nil, NoVCS},
		{"v1.2.0", nil, "v1.2.0"},
		{"v0.0.0-20261206004000-8e37195abcde+dirty", setting("vcs", "git", "vcs.revision", "8e37195abcdef0123456789", "vcs.time", "2026-12-06T00:40:00Z", "vcs.modified", "true"),
			"v0.0.0-20261206004000-8e37195abcde+dirty (commit 8e37195abcde, 2026-12-06T00:40:00Z)"},
		{"(devel)", setting("vcs.revision", "8e37195abcdef0123456789", "vcs.modified", "true"), "(devel, commit 8e37195abcde, modified)"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "locksim", Version: c.main}, Settings: c.settings}
		if got := versionOf(bi); got != c.want {
			t.Errorf("main %q, %v: got %q, want %q", c.main, c.settings, got, c.want)
		}
	}
}
