package sim_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/sim"
	"locksim/sim/simtest"
)

// formSource is where a server's command files say a form came in: the
// command's file and, for an option, its token.
var formSource = map[string]struct{ file, token string }{
	sim.OneDelex:   {"delex.json", "IFEQ"},
	sim.OneDelexD:  {"delex.json", "IFDEQ"},
	sim.OneDelifeq: {"delifeq.json", ""},
	sim.OneDigest:  {"digest.json", ""},
	sim.OneSetIfeq: {"set.json", "IFEQ"},
	sim.OneSetIfdq: {"set.json", "IFDEQ"},
	sim.OneSetIfne: {"set.json", "IFNE"},
}

// TestRefusalsNameTheReleasesOfTheCommandFiles: each refusal line names
// the first release of each server that has the form, as that server's
// own src/commands/*.json say it ("since" of the command, or of the
// option's token, else of the command), and names no release of a server
// whose files lack the form. It reads the files .ci/servers keeps beside
// each build (CacheDir/redis-8.6.3/commands), so it runs where the slow
// tier's Redis 8 and Valkey 9 do.
func TestRefusalsNameTheReleasesOfTheCommandFiles(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	for _, srv := range simtest.BuiltServers() {
		t.Run(srv.Name, func(t *testing.T) {
			bin, why := srv.Path()
			if bin == "" {
				t.Skip(why)
			}
			real, err := filepath.EvalSymlinks(bin)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(filepath.Dir(real), "commands")
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("no command files beside %s (.ci/servers keeps them): %v", real, err)
			}
			product := strings.Fields(srv.Name)[0]
			f := sim.FormSupport{Server: "a server without it", Has: map[string]bool{}}
			for form, src := range formSource {
				since := sinceIn(t, filepath.Join(dir, src.file), src.token)
				line := f.Refusal(form)
				if since == "" {
					if strings.Contains(line, product) {
						t.Errorf("%s: %s's command files lack it, but the refusal names %s: %q", form, srv.Name, product, line)
					}
					continue
				}
				v := strings.Split(since, ".")
				want := product + " " + v[0] + "." + v[1] + " or later"
				if !strings.Contains(line, want) {
					t.Errorf("%s: %s's %s says since %s, the refusal %q does not name %q", form, srv.Name, src.file, since, line, want)
				}
			}
		})
	}
}

// sinceIn is the "since" of the command in file, or of its argument
// carrying token when it has one; "" when the file or the token is not
// there.
func sinceIn(t *testing.T, file, token string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	type arg struct {
		Token     string `json:"token"`
		Since     string `json:"since"`
		Arguments []arg  `json:"arguments"`
	}
	var cmds map[string]struct {
		Since     string `json:"since"`
		Arguments []arg  `json:"arguments"`
	}
	if err := json.Unmarshal(b, &cmds); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var find func(args []arg) (arg, bool)
	find = func(args []arg) (arg, bool) {
		for _, a := range args {
			if strings.EqualFold(a.Token, token) {
				return a, true
			}
			if got, ok := find(a.Arguments); ok {
				return got, true
			}
		}
		return arg{}, false
	}
	for _, c := range cmds {
		if token == "" {
			return c.Since
		}
		a, ok := find(c.Arguments)
		switch {
		case !ok:
			return ""
		case a.Since != "":
			return a.Since
		}
		return c.Since
	}
	return ""
}
