package simtest

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// CacheDir is where .ci/servers keeps the servers it builds from Debian's
// source packages, one directory per version (redis-8.6.3/redis-server),
// with a link to the newest of each at CacheDir/redis-server and
// CacheDir/valkey-server: the path a test looks at when no variable names
// a binary. LOCKSIM_SERVERS_CACHE moves it, for the script and the tests
// alike.
const CacheDir = "/var/cache/locksim-servers"

// cacheDir is CacheDir, or where LOCKSIM_SERVERS_CACHE moves it.
func cacheDir() string {
	if d := os.Getenv("LOCKSIM_SERVERS_CACHE"); d != "" {
		return d
	}
	return CacheDir
}

// Built is a server binary newer than the machine's redis-server that the
// slow tier compares on: one with the one-command forms.
type Built struct {
	// Name is the server as a test names it: "Redis 8", "Valkey 9".
	Name string
	// Env names the binary (LOCKSIM_REDIS8_SERVER); unset, the test looks
	// at CacheDir/Binary. Env with _SKIP in place of _SERVER is why
	// .ci/servers could not build it, which the skip repeats.
	Env, Skip string
	// Binary is its file name in CacheDir.
	Binary string
	// Needs is the release it must be, at least, for the forms.
	Needs string
}

// The servers .ci/servers builds: redis from Debian's experimental suite,
// valkey from sid.
var (
	Redis8  = Built{Name: "Redis 8", Env: "LOCKSIM_REDIS8_SERVER", Skip: "LOCKSIM_REDIS8_SKIP", Binary: "redis-server", Needs: "Redis 8.4 or later"}
	Valkey9 = Built{Name: "Valkey 9", Env: "LOCKSIM_VALKEY_SERVER", Skip: "LOCKSIM_VALKEY_SKIP", Binary: "valkey-server", Needs: "Valkey 9.0 or later"}
)

// BuiltServers lists them in the order the tests play them.
func BuiltServers() []Built { return []Built{Redis8, Valkey9} }

// Path is the binary of b on this machine, or "" and why there is none.
func (b Built) Path() (string, string) {
	if p := os.Getenv(b.Env); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Sprintf("%s=%s is not an executable: %v", b.Env, p, err)
		}
		return p, ""
	}
	p := cacheDir() + "/" + b.Binary
	if _, err := exec.LookPath(p); err == nil {
		return p, ""
	}
	why := fmt.Sprintf("no %s here: %s is unset and %s is missing (.ci/servers builds one from Debian's sources; see docs/testing.md)", b.Needs, b.Env, p)
	if reason := os.Getenv(b.Skip); reason != "" {
		why = fmt.Sprintf("no %s here: .ci/servers could not build it: %s", b.Needs, reason)
	}
	return "", why
}

// Start starts b like StartServer starts redis-server, or skips the test
// with the reason it has none; in the quick tier it skips as StartServer
// does.
func (b Built) Start(t testing.TB, args ...string) *Server {
	t.Helper()
	SkipUnlessSlow(t)
	bin, why := b.Path()
	if bin == "" {
		t.Skip(why)
	}
	return startBinary(t, bin, args)
}
