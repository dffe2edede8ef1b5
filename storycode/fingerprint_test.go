package storycode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/scenes"
	"locksim/sim/simtest"
)

// playedOnce is each scene's fingerprint as computed once in this test
// binary, with the log of what it hashed (every default story's moves and
// events, a line each): TestFingerprintTable checks the table against it,
// and TestDefaultStoriesPlayAlike takes it as a story's first play.
var playedOnce = sync.OnceValue(func() map[string]func() printed {
	m := map[string]func() printed{}
	for _, sc := range scenes.All() {
		m[sc.ID] = sync.OnceValue(func() printed { return playFingerprint(sc) })
	}
	return m
})

// playFingerprint computes sc's fingerprint, with its log.
func playFingerprint(sc *scenes.Scene) printed {
	log := &strings.Builder{}
	f, err := fingerprint(sc, nil, log)
	p := printed{ID: sc.ID, Fingerprint: fmt.Sprintf("%x", f), Log: log.String()}
	if err != nil {
		p.Err = err.Error()
	}
	return p
}

// TestDefaultStoriesPlayAlike: every default story the fingerprint plays
// gives the same events, whole, when it is played twice in one process,
// each time as the fingerprint plays it: the scene's stories in turn on a
// fresh embedded server (a server's later runs tag their scripts with
// their number, so EVALSHA's digest depends on the runs before). The
// plays are two fingerprints' (the first shared with
// TestFingerprintTable), compared by the lines they log: each story's
// moves, then each of its events whole (eventLine).
func TestDefaultStoriesPlayAlike(t *testing.T) {
	for _, sc := range scenes.All() {
		if sc.Kind == scenes.Quiz {
			continue
		}
		t.Run(sc.ID, func(t *testing.T) {
			first, second := playedOnce()[sc.ID](), playFingerprint(sc)
			for _, p := range []printed{first, second} {
				if p.Err != "" {
					t.Fatal(p.Err)
				}
			}
			a, b := strings.Split(first.Log, "\n"), strings.Split(second.Log, "\n")
			if len(a) < 2 || !strings.HasPrefix(a[0], "story ") {
				t.Fatalf("the fingerprint logged no story:\n%s", first.Log)
			}
			if at, ok := firstDifference(a, b); !ok {
				story := ""
				for i := min(at, len(a)-1); i >= 0; i-- {
					if strings.HasPrefix(a[i], "story ") {
						story = a[i]
						break
					}
				}
				t.Errorf("%s: the second play parts from the first at line %d of their logs:\n%s", story, at, around(a, b, at))
			} else if first.Fingerprint != second.Fingerprint {
				t.Errorf("the same plays hash to %s and %s", first.Fingerprint, second.Fingerprint)
			}
		})
	}
}

// firstDifference is the index of the first line where a and b differ,
// and false; or true if they are the same.
func firstDifference(a, b []string) (int, bool) {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i, false
		}
	}
	return min(len(a), len(b)), len(a) == len(b)
}

// around prints the lines of a and b from a little before at.
func around(a, b []string, at int) string {
	var sb strings.Builder
	for _, side := range []struct {
		name  string
		lines []string
	}{{"one", a}, {"other", b}} {
		fmt.Fprintf(&sb, "--- %s\n", side.name)
		for i := max(0, at-2); i < min(len(side.lines), at+3); i++ {
			fmt.Fprintf(&sb, "%d %s\n", i, side.lines[i])
		}
	}
	return sb.String()
}

// childEnv makes the test binary a child of TestFingerprintsUnderLoad:
// "print" prints every scene's fingerprint, "hog" spins every core.
const childEnv = "LOCKSIM_FINGERPRINT_CHILD"

// hogFor bounds a hog whose parent died before it could stop it.
const hogFor = 3 * time.Minute

// printed is one scene's fingerprint as a child prints it, with the log
// of what it hashed.
type printed struct {
	ID, Fingerprint, Log, Err string
}

func everyFingerprint() []printed {
	var out []printed
	for _, sc := range scenes.All() {
		out = append(out, playFingerprint(sc))
	}
	return out
}

// TestFingerprintChild is the child of TestFingerprintsUnderLoad; run on
// its own it does nothing.
func TestFingerprintChild(t *testing.T) {
	// in the slow tier, as its parent is: that tier skips every other test
	simtest.SkipUnlessSlow(t)
	switch os.Getenv(childEnv) {
	case "print":
		if err := json.NewEncoder(os.Stdout).Encode(everyFingerprint()); err != nil {
			t.Fatal(err)
		}
	case "hog":
		for range runtime.NumCPU() {
			go func() {
				for n := 0; ; n++ {
				}
			}()
		}
		time.Sleep(hogFor)
	default:
		t.Skip("a child of TestFingerprintsUnderLoad")
	}
}

// TestFingerprintsUnderLoad: beside a process that keeps every core busy,
// 20 fresh processes (half of them on one core, GOMAXPROCS=1) compute
// every scene's fingerprint, and all agree with this process's. Under such
// load a stopped Redlock node once failed to restart in one process (the
// port it gave up had been taken), which played "C restarts" another way:
// a code made there was refused everywhere else.
func TestFingerprintsUnderLoad(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	hog := exec.Command(os.Args[0], "-test.run=^TestFingerprintChild$", "-test.count=1")
	hog.Env = append(os.Environ(), childEnv+"=hog")
	if err := hog.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = hog.Process.Kill()
		_ = hog.Wait()
	})
	want := everyFingerprint()
	for _, w := range want {
		if w.Err != "" {
			t.Fatalf("scene %s: %s", w.ID, w.Err)
		}
	}
	const children = 20
	got := make([][]printed, children)
	errs := make([]error, children)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	turns := make(chan struct{}, 2) // two at a time, with the hog, on two cores
	for i := range children {
		wg.Go(func() {
			turns <- struct{}{}
			defer func() { <-turns }()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestFingerprintChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), childEnv+"=print")
			if i%2 == 0 {
				cmd.Env = append(cmd.Env, "GOMAXPROCS=1")
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				errs[i] = fmt.Errorf("%v\n%s", err, stderr.String())
				return
			}
			if err := json.NewDecoder(strings.NewReader(string(out))).Decode(&got[i]); err != nil {
				errs[i] = fmt.Errorf("%v, reading %.200q (stderr %q, args %q)", err, out, stderr.String(), cmd.Args)
			}
		})
	}
	wg.Wait()
	for i := range children {
		if errs[i] != nil {
			t.Fatalf("child %d: %v", i, errs[i])
		}
		if len(got[i]) != len(want) {
			t.Fatalf("child %d printed %d scenes, want %d", i, len(got[i]), len(want))
		}
		for j, g := range got[i] {
			w := want[j]
			if g.ID != w.ID || g.Fingerprint != w.Fingerprint || g.Err != "" {
				a, b := strings.Split(w.Log, "\n"), strings.Split(g.Log, "\n")
				at, _ := firstDifference(a, b)
				t.Errorf("child %d: scene %s fingerprint %s (%s), this process's %s; they part at line %d of what they hash:\n%s",
					i, g.ID, g.Fingerprint, g.Err, w.Fingerprint, at, around(a, b, at))
			}
		}
	}
}
