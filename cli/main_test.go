package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"locksim/buildinfo"
	"locksim/sim/simtest"
	"locksim/storycode"

	"github.com/redis/go-redis/v9"
)

func runMain(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, os.Stdin, &out, &errb)
	return code, out.String(), errb.String()
}

// words is a transcript with its lines, which wrap at 80 columns, joined
// by single spaces: a test reads it as the words it says.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestPlainRace(t *testing.T) {
	code, out, errs := runMain("-plain", "-scene", "race", "-seed", "1")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	out = words(out)
	if strings.Count(out, "NX PX 30000 → OK") != 1 || strings.Count(out, "NX PX 30000 → (nil)") != 3 {
		t.Fatalf("want exactly one OK and three (nil):\n%s", out)
	}
	for _, w := range []string{"w1: ", "w2: ", "w3: ", "w4: ", "verdict: holders 1 · double-acquired no"} {
		if !strings.Contains(out, w) {
			t.Errorf("transcript lacks %q:\n%s", w, out)
		}
	}
}

func TestList(t *testing.T) {
	code, out, _ := runMain("-list")
	if code != 0 || !strings.Contains(out, "race") || !strings.Contains(out, "R2.02.1 §1") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("a line of %d columns: %s", n, line)
		}
	}
}

// freePort returns a loopback port with nothing listening on it.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-scene", "nope"}, `unknown scene "nope"`},
		{[]string{"-redis", fmt.Sprintf("redis://127.0.0.1:%d/0", freePort(t))}, "cannot reach Redis at 127.0.0.1:"},
		{[]string{"-redis", "http://example"}, "bad Redis URL http://example: the scheme is http, not redis or rediss; a Redis URL looks like redis://host:port/db"},
		{[]string{"-redis", "notaurl"}, "bad Redis URL notaurl: it has no scheme and is not host:port; a Redis URL looks like redis://host:port/db"},
		{[]string{"-redis", "localhost:99999"}, "bad Redis URL localhost:99999: it has no scheme and is not host:port"},
		{[]string{"-redis", "two words:6379"}, "bad Redis URL two words:6379: it has no scheme and is not host:port"},
		{[]string{"-redis", "redis://127.0.0.1:6379/notadb"}, "bad Redis URL"},
		{[]string{"-redis", "redis://127.0.0.1:6379/-1"}, "bad Redis URL"},
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"-scale", "0"}, "-scale must be from 1 to 1000"},
		{[]string{"-scale", "100000"}, "-scale must be from 1 to 1000"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-theme", "neon"}, "-theme must be default or high-contrast"},
		{[]string{"-step", "3"}, "-step N needs -scene"},
		{[]string{"-scene", "race", "-step", "-1"}, "-step N needs -scene"},
		{[]string{"-scene", "choose", "-step", "2"}, "is a quiz, with no steps"},
		{[]string{"-timeout", "0s"}, "-timeout must be above 0"},
		{[]string{"-cleanup"}, "-cleanup needs -redis"},
		{[]string{"-questions"}, "-questions needs -plain"},
		{[]string{"-export-scale", "0"}, "-export-scale must be from 1 to 1000"},
		{[]string{"-export-scale", "5000"}, "-export-scale must be from 1 to 1000"},
		{[]string{"-reset-progress"}, "without a terminal, add -yes"},
		{[]string{"-redis", ""}, "-redis needs a URL"},
		{[]string{"-trials", "0"}, "-trials must be 1 or more"},
		{[]string{"-trials", "-5"}, "-trials must be 1 or more"},
		{[]string{"-trials", "many"}, `-trials: "many" is not a whole number (like 3)`},
		{[]string{"-trials", "10", "-scene", "gc-pause"}, "scene gc-pause has no trials"},
		{[]string{"-trials", "10", "-crash-rate", "2"}, "-crash-rate must be from 0 to 1"},
		{[]string{"-trials", "10", "-crash-rate", "NaN"}, "-crash-rate must be from 0 to 1"},
		{[]string{"-crash-rate", "0.5"}, "-crash-rate needs -trials"},
		{[]string{"-trials", "10", "-loss-rate", "1.5"}, "-loss-rate must be from 0 to 1"},
		{[]string{"-trials", "10", "-loss-rate", "NaN"}, "-loss-rate must be from 0 to 1"},
		{[]string{"-loss-rate", "0.5"}, "-loss-rate needs -trials"},
		{[]string{"-redlock", "redis://127.0.0.1:1"}, "needs 5 servers"},
		{[]string{"-redlock", "redis://a:1,redis://a:2,redis://a:3"}, "needs 5 servers"},
		{[]string{"-redlock", "redis://a:1,,redis://b:1"}, "an empty address"},
		{[]string{"-redlock", "http://a,http://b,http://c,http://d,http://e"}, "bad Redis URL"},
		{[]string{"-scenes", "gc-pause,nope"}, `unknown scene "nope"`},
		{[]string{"-scenes", "gc-pause,,fencing"}, `the list "gc-pause,,fencing" has an empty entry`},
		{[]string{"-scenes", "race,"}, `the list "race," has an empty entry`},
		{[]string{"-set", "pause=70s"}, "-set needs -scene"},
		{[]string{"-scene", "gc-pause", "-set", "pause=71s"}, "pause of scene gc-pause is one of 35s, 70s, 20s"},
		{[]string{"-scene", "gc-pause", "-set", "speed=2"}, `scene gc-pause has no setting "speed"`},
		{[]string{"-scene", "gc-pause", "-set", "pause"}, "-set wants name=value pairs"},
		{[]string{"-scene", "fencing", "-set", "pause=70s"}, "it has none"},
		{[]string{"-scene", "gc-pause", "-set", "pause=70s", "-step", "11"}, "scene gc-pause has 10 steps"},
		{[]string{"-scene", "gc-pause", "-set", "pause=70s,pause=20s"}, "-set: pause is given twice (70s, then 20s): give it once"},
		{[]string{"-scene", "gc-pause", "-set", "pause=70s,PAUSE=70s"}, "-set: pause is given twice"},
		{[]string{"-seed", "-1"}, "-seed must be a whole number from 0 to 18446744073709551615, got -1"},
		{[]string{"-seed", "x"}, "-seed must be a whole number from 0 to 18446744073709551615, got x"},
		{[]string{"-scene", "race", "-cast", "/proc/x.cast"}, "-cast /proc/x.cast: cannot write there"},
		{[]string{"-scene", "gc-pause", "-history", "/proc/x.html"}, "-history /proc/x.html: cannot write there"},
		{[]string{"-story", "-story CODE"}, `-story "-story CODE": a story code reads <scene>.<letters and digits>`},
		{[]string{"-story", "race"}, `-story "race": a story code reads <scene>.<letters and digits>`},
		{[]string{"-grade", ".", "-out", "/proc/x"}, "-out /proc/x: cannot write there"},
		{[]string{"-grade", ".", "-out", "main_test.go/results"}, "-out main_test.go/results: main_test.go is not a directory"},
		{[]string{"-plain", "-notes", "n.txt"}, "-notes follows the interactive screen"},
		{[]string{"-plain", "-scenes", "race,lost-reply"}, "-scenes is the interactive screen's playlist: it does not go with -plain"},
		{[]string{"-plain", "-questions", "-scenes", "race"}, "-scenes is the interactive screen's playlist: it does not go with -plain"},
		{[]string{"-history", "h.html"}, "-history needs -scene"},
		{[]string{"-scene", "choose", "-history", "h.html"}, "scene choose is a quiz"},
		{[]string{"-scene", "gc-pause", "-history", "h.txt"}, "ending in .html"},
		{[]string{"-story", "gc-pause.26hj7g6ctt0ga0r20400fa50a8", "-history", "h.txt"}, "ending in .html"},
		{[]string{"-story", "gc-pause.26hj7g6ctt0ga0r20400fa50a8", "-plain", "-history", "h.html"}, "-history writes a file and exits"},
		{[]string{"-scene", "gc-pause", "-plain", "-history", "h.html"}, "-history writes a file and exits"},
	}
	for _, c := range cases {
		code, out, errs := runMain(c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "locksim: ") || !strings.Contains(errs, c.want) {
			t.Errorf("%v: stderr %q, want one line containing %q", c.args, errs, c.want)
		}
		if out != "" {
			t.Errorf("%v: stdout %q, want nothing", c.args, out)
		}
	}
}

// TestRedisHostPort: -redis host:port, as redis-cli users type it, is
// read as redis://host:port/0, said in one line, and then tried.
func TestRedisHostPort(t *testing.T) {
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	code, out, errs := runMain("-plain", "-redis", addr)
	want := "locksim: -redis " + addr + ": using redis://" + addr + "/0\n" +
		"locksim: cannot reach Redis at " + addr + ":"
	if code != 2 || out != "" || !strings.HasPrefix(errs, want) {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2, stderr starting %q", code, out, errs, want)
	}
}

// TestPlainLive runs the transcript against a real redis-server holding a
// key of the user's own: locksim must leave it alone and leave nothing behind.
func TestPlainLive(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	opts, _ := redis.ParseURL(url)
	c := redis.NewClient(opts)
	defer c.Close()
	ctx := context.Background()
	if err := c.Set(ctx, "resource:lock", "the user's own value", 0).Err(); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runMain("-plain", "-scene", "race", "-redis", url)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	out = words(out)
	if strings.Count(out, "→ OK") != 1 || strings.Count(out, "→ (nil)") != 3 {
		t.Fatalf("want one OK and three (nil):\n%s", out)
	}
	keys, err := c.Keys(ctx, "*").Result()
	if err != nil || len(keys) != 1 || keys[0] != "resource:lock" {
		t.Fatalf("keys on the server afterwards: %v (%v); want only the user's", keys, err)
	}
	if v, _ := c.Get(ctx, "resource:lock").Result(); v != "the user's own value" {
		t.Fatalf("the user's key was changed to %q", v)
	}
}

// TestTrialsPlain: -trials alone means the race; the table counts every
// atomic trial as one holder, and the run's keys are gone.
func TestTrialsPlain(t *testing.T) {
	t.Parallel()
	code, out, errs := runMain("-trials", "40", "-plain", "-seed", "1")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"SET NX PX         40      0     40      0      0      0", "SETNX+EXPIRE", "GET, then SET", "GET, then DEL", "trials/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}

// TestTrialsPlainLoss: -loss-rate adds the trials of a retried release
// and the losses' table; the same seed loses the same replies, so the
// counts of those trials (run one after another, never racing) repeat.
// Fifteen trials a variant (each a real race over the embedded server,
// twice over): enough lost replies to compare.
func TestTrialsPlainLoss(t *testing.T) {
	t.Parallel()
	var tables []string
	for range 2 {
		code, out, errs := runMain("-trials", "15", "-loss-rate", "0.4", "-plain", "-seed", "5")
		if code != 0 || errs != "" {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		i := strings.Index(out, "variant         replies lost")
		if i < 0 || !strings.Contains(out, "blind DEL         15") || !strings.Contains(out, "compare+DEL       15") {
			t.Fatalf("no losses' table, or no row of a retried release:\n%s", out)
		}
		rows := strings.SplitN(out[i:], "\n\n", 2)[0]
		// the SET NX PX race's winner is real: its row's counts may differ
		tables = append(tables, rows[strings.Index(rows, "blind DEL"):])
	}
	if tables[0] != tables[1] {
		t.Errorf("the same seed lost other replies:\n%s\n%s", tables[0], tables[1])
	}
}

// TestSetAndScenes: -set reads the settings in the units the scene's
// settings line shows (any case, a duration in any unit), and -scenes
// keeps the playlist in the order given.
func TestSetAndScenes(t *testing.T) {
	c, err := parse([]string{"-scene", "gc-pause", "-set", "pause=70s, ttl=60000ms", "-step", "4", "-scenes", "gc-pause,fencing,extend"})
	if err != nil {
		t.Fatal(err)
	}
	if c.settings["pause"] != 1 || c.settings["TTL"] != 1 || c.step != 4 {
		t.Errorf("-set pause=70s,ttl=60000ms: %v", c.settings)
	}
	if strings.Join(c.playlist, " ") != "gc-pause fencing extend" {
		t.Errorf("-scenes: %v", c.playlist)
	}
	c, err = parse([]string{"-scene", "options", "-set", "token=CONSTANT,PX=off"})
	if err != nil || c.settings["token"] != 1 || c.settings["PX"] != 1 || c.settings["NX"] != 0 {
		t.Errorf("-set token=CONSTANT,PX=off: %v %v", c.settings, err)
	}
}

// TestHistory: -history writes porcupine's page of the story and prints
// the three verdicts; at or before the story's question it writes only
// the clients' side, and says the verdicts wait.
func TestHistory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "gc.html")
	code, out, errs := runMain("-scene", "gc-pause", "-seed", "1", "-history", file)
	want := "server: linearizable · client's mutex: not linearizable at B's acquire · fenced resource: unfenced, stale write accepted"
	if code != 0 || errs != "" || !strings.Contains(out, want) {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errs, out)
	}
	page, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// locksim's page names the scene, the story and each verdict, and
	// holds porcupine's whole page in a frame (escaped once, in srcdoc)
	for _, w := range []string{"<title>locksim · gc-pause", "the story: pause: 35 s, TTL: 30 s · seed 1 · played to step 10 of 10",
		`<li class="broken"><b>client&#39;s mutex: not linearizable at B&#39;s acquire</b>`, "<li><b>server: linearizable</b>",
		`srcdoc="&lt;!doctype html&gt;`, "client&#39;s mutex: B&#39;s acquire → OK @&#43;32.000s", `jump-link`,
		"client&#39;s mutex · B"} {
		if !bytes.Contains(page, []byte(w)) {
			t.Errorf("the page lacks %q", w)
		}
	}
	// before the question the checked history would answer it: the page
	// holds it (no verdict, no porcupine view, no length) and keeps the
	// clients' side, what each sent and got back
	early := filepath.Join(dir, "early.html")
	code, out, errs = runMain("-scene", "gc-pause", "-seed", "1", "-step", "2", "-history", early)
	if code != 0 || errs != "" || !strings.Contains(out, "the verdicts wait for the answer to the story's question") {
		t.Fatalf("at step 2: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	page, err = os.ReadFile(early)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"played to step 2 of ?<", `<li class="clients">`, "<li><b>A</b><br><code>t=&#43;0.000s A&gt; SET resource:lock ", "waits for the answer"} {
		if !bytes.Contains(page, []byte(w)) {
			t.Errorf("at step 2 the page lacks %q", w)
		}
	}
	for _, w := range []string{"linearizable", "<li><b>server", `srcdoc="&lt;!doctype html&gt;&lt;html&gt;`} {
		if bytes.Contains(page, []byte(w)) {
			t.Errorf("at step 2 the page has %q", w)
		}
	}
	// a directory that does not exist is bad input: one line, exit 2
	if code, _, errs := runMain("-scene", "gc-pause", "-history", filepath.Join(dir, "no", "such", "dir.html")); code != 2 || !strings.Contains(errs, "-history") || strings.Count(errs, "\n") != 1 {
		t.Errorf("a file in a missing directory: exit %d, stderr %q", code, errs)
	}
}

// TestVersionFlag: -version prints this build's version and the story-code
// format it reads, and exits 0; with another flag it is a usage error.
func TestVersionFlag(t *testing.T) {
	code, out, errs := runMain("-version")
	want := "locksim " + buildinfo.Version() + "\nstory codes: format " + strconv.Itoa(storycode.Version) + "\n"
	if code != 0 || out != want || errs != "" {
		t.Errorf("-version: exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errs, want)
	}
	code, out, errs = runMain("-version", "-list")
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "-version prints the versions and exits: it goes alone") {
		t.Errorf("-version -list: exit %d, stdout %q, stderr %q; want exit 2 and one line", code, out, errs)
	}
}
