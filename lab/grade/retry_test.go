package grade

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/sim/simtest"
)

// lostOnly pins a policy whose only fault is a lost reply, every property
// judged, with retry_release as on says, in a file under dir.
func lostOnly(t *testing.T, dir string, on bool) Pin {
	t.Helper()
	name, js := "off.json", `{"faults": ["lost-reply"]}`
	if on {
		name, js = "on.json", `{"faults": ["lost-reply"], "retry_release": true}`
	}
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	return Pin{Policy: f}
}

// retryTable is each lock of the table graded under lostOnly, with
// retry_release off and on (issue 57, item 2), as docs/lab.md states it.
// Off, a lost release ends the release: no lock of the table breaks on a
// lost reply but those that break with no fault at all, and setnx-expire,
// whose SETNX can be granted unheard. On, the harness sends a release
// again after its lost reply: a release that deletes whatever the key
// holds (a blind DEL, tonumber's nil == nil) deletes the lock the next
// client took meanwhile, and a reentrant release that counts down counts
// twice, freeing the lock under its holder; a compare-and-delete finds
// another's token and deletes nothing.
var retryTable = []struct {
	dir, off, on string
	// says are texts of the retry's failures and their stories
	says []string
}{
	{dir: "blind-del", off: "pass " + allPass, on: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass", says: []string{
		// the search's break: the lost reply, B's grant, the retry
		"A's retry release: DEL deleted B's lock",
		"A release: DEL (reply lost), B acquire, A retry release: DEL",
		// its story, as the transcript plays it: the first DEL ran (A
		// released its own lease), the retry deleted B's
		"A> DEL resource:lock → no reply in time: the reply was lost",
		"A's own lease had ended (it had released it). A blind DEL deletes whatever is there, so A deleted B's lock",
		"verdict: no-foreign-release broken: A's retry release: DEL deleted B's lock",
	}},
	{dir: "compare-and-delete", off: "pass " + allPass, on: "pass " + allPass},
	{dir: "fencing", off: "pass " + allPass, on: "pass " + allPass},
	{dir: "get-false-acquire", off: "pass " + allPass, on: "pass " + allPass},
	{dir: "get-then-del", off: "pass " + allPass, on: "pass " + allPass},
	{dir: "nil-or-token", off: "pass " + allPass + " note: release.lua:2=pass", on: "pass " + allPass + " note: release.lua:2=pass"},
	{dir: "pexpire-zero", off: "pass " + allPass, on: "pass " + allPass},
	{dir: "reentrant", off: "pass " + allPass, on: "fail mutual-exclusion=fail resource-safety=pass no-foreign-release=pass deadlock-freedom=pass", says: []string{
		"A nested release (reply lost), A retry nested release, B acquire: A and B act as holder at the same time",
		// its story: the lost nested release ran (the count went down),
		// the retry counted down again and deleted A's key, and B's grant
		// overlaps A's outer acquire
		"A> EVAL <release.lua> 1 resource:lock",
		"A's nested release deleted the key, A's own lock (read before and after it), though A still holds its outer acquire and acts as holder",
		"B got (integer) 1 at +0.200s while A still acted as holder: A's own nested release had deleted its key, though A still held its outer acquire",
		"verdict: mutual-exclusion broken: A and B act as holder at the same time",
	}},
	{dir: "set-without-nx", off: "fail mutual-exclusion=fail resource-safety=fail no-foreign-release=pass deadlock-freedom=pass",
		on: "fail mutual-exclusion=fail resource-safety=fail no-foreign-release=pass deadlock-freedom=pass"},
	{dir: "setnx-expire", off: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail",
		on: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail"},
	{dir: "string-vs-number", off: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail note: release.lua:1=pass",
		on: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail note: release.lua:1=pass"},
	{dir: "tonumber-hex", off: "pass " + allPass, on: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass", says: []string{
		"A release (reply lost), B acquire, A retry release: A's retry release deleted B's lock",
	}},
	{dir: "watchdog", off: "pass " + allPass, on: "pass " + allPass},
}

// TestRetryRelease grades each lock of retryTable under a pinned policy
// whose only fault is a lost reply, with retry_release off and then on,
// and holds every failure's story, played by the program's transcript,
// to the grade (agrees).
func TestRetryRelease(t *testing.T) {
	t.Parallel()
	simtest.QuickOnly(t)
	dir := t.TempDir()
	off, on := lostOnly(t, dir, false), lostOnly(t, dir, true)
	for _, c := range retryTable {
		t.Run(c.dir, func(t *testing.T) {
			t.Parallel()
			for _, run := range []struct {
				pin  Pin
				want string
			}{{off, c.off}, {on, c.on}} {
				res, err := Dir(context.Background(), "../testdata/table/"+c.dir, run.pin)
				if err != nil {
					t.Fatal(err)
				}
				if got := statuses(res); got != run.want {
					t.Errorf("%s: statuses\n got %s\nwant %s", run.pin.Name(), got, run.want)
				}
				told := agrees(t, res)
				if run.pin != on {
					continue
				}
				for _, s := range c.says {
					if !strings.Contains(told, s) {
						t.Errorf("neither the failures nor their stories say %q:\n%s", s, told)
					}
				}
			}
		})
	}
}

// TestRetryReleaseWidens: the default grade takes retry_release from the
// lock's lab.json (a harder grade, never an easier one), and leaves it off
// without it.
func TestRetryReleaseWidens(t *testing.T) {
	t.Parallel()
	p := widen(parsedRetry(t, true))
	if !p.RetryRelease {
		t.Error("widen dropped retry_release")
	}
	if widen(parsedRetry(t, false)).RetryRelease {
		t.Error("widen set retry_release that lab.json did not")
	}
}

func parsedRetry(t *testing.T, on bool) lab.Policy {
	t.Helper()
	js := `{"retry_release": false}`
	if on {
		js = `{"retry_release": true}`
	}
	p, err := lab.ParsePolicy([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
