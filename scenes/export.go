package scenes

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"locksim/sim"
)

// Export is where the y key writes its redis-cli script, and at what scale.
// The script itself is transcript.RedisCLIScript's.
type Export struct {
	// Dir is the directory the script goes in; "" means the user's config
	// directory, os.UserConfigDir()/locksim/exports (never the working
	// directory unless asked for).
	Dir string
	// Scale divides every duration of the exported story (each PX, each
	// TTL a script is given, each wait) relative to story time, so a class
	// can watch a 30 s lease run out in 1.5 s at 20; 0 keeps the run's
	// own (story time on the embedded server, -scale on a live one).
	Scale int
}

// Where is the directory the script goes in.
func (x Export) Where() (string, error) {
	if x.Dir != "" {
		return x.Dir, nil
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config directory to export to (%v): give one with -export-dir", err)
	}
	return filepath.Join(cfg, "locksim", "exports"), nil
}

// IsScript reports whether cmd runs a Lua script: EVAL or EVALSHA, in any
// case.
func IsScript(cmd string) bool {
	return strings.EqualFold(cmd, "EVAL") || strings.EqualFold(cmd, "EVALSHA")
}

// ScriptSources maps the SHA1 of every script the events sent by EVAL to
// its source, so an EVALSHA's arguments can be read too.
func ScriptSources(events []sim.Event) map[string]string {
	out := map[string]string{}
	for _, e := range events {
		if len(e.Args) >= 2 && strings.EqualFold(e.Args[0], "EVAL") {
			h := sha1.Sum([]byte(e.Args[1]))
			out[hex.EncodeToString(h[:])] = e.Args[1]
		}
	}
	return out
}
