package grade

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/sim/simtest"
)

// TestNoLeaseWasted grades the table's compare-and-delete lock, whose
// acquire is SET NX PX, with no-lease-wasted off (the default grade, and
// a pinned policy that does not name it) and on (named in lab.json, which
// the default grade adds, and in a pinned policy) (issue 57, item 1). On,
// a lost reply to A's SET leaves A's key on the server while A, having
// heard a timeout, gives up: it fails, and its story's ledger says so.
// Off, it is not judged and the lock passes.
func TestNoLeaseWasted(t *testing.T) {
	t.Parallel()
	simtest.QuickOnly(t)
	src := "../testdata/table/compare-and-delete"
	dir := t.TempDir()
	lock := func(name, labJSON string) string {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"acquire.lua", "release.lua"} {
			b, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if labJSON != "" {
			if err := os.WriteFile(filepath.Join(d, "lab.json"), []byte(labJSON), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	pinned := func(name, js string) Pin {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		return Pin{Policy: f}
	}
	plain, asks := lock("plain", ""), lock("asks", `{"properties": ["no-lease-wasted"]}`)
	for _, c := range []struct {
		name, dir string
		pin       Pin
		want      string
	}{
		// plain's files without lab.json are the table's lock: its
		// default grade is TestTable's, made once (gradeOnce)
		{"off/default", src, Pin{}, "pass " + allPass + meLessons + rsLessons},
		{"off/pinned", plain, pinned("off.json", `{"faults": ["lost-reply"]}`), "pass " + allPass},
		{"on/default", asks, Pin{}, "fail " + allPass + " no-lease-wasted=fail" + meLessons + rsLessons},
		{"on/pinned", plain, pinned("on.json", `{"faults": ["lost-reply"], "properties": ["no-lease-wasted"]}`), "fail no-lease-wasted=fail"},
		// a retry after the lost reply is refused by A's own key
		{"on/retried", plain, pinned("retried.json", `{"faults": ["lost-reply"], "properties": ["no-lease-wasted"], "retries": 1}`), "fail no-lease-wasted=fail"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var res Results
			var err error
			if c.dir == src {
				res, err = gradeOnce(c.dir, c.pin) // TestTable's grade of it
			} else {
				res, err = Dir(context.Background(), c.dir, c.pin)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := statuses(res); got != c.want {
				t.Errorf("statuses\n got %s\nwant %s", got, c.want)
			}
			told := agrees(t, res)
			if !strings.HasPrefix(c.name, "on/") {
				return
			}
			says := []string{"A acquire (reply lost): A gave up acquiring", "A could not acquire: no reply heard, and no retry left"}
			if c.name == "on/retried" {
				says = []string{"A acquire (reply lost), A retry: A gave up acquiring", "A could not acquire: refused, and its 1 retry used up"}
			}
			for _, s := range append(says,
				"A gave up acquiring, yet the lock key holds the value A's own acquire wrote",
				"verdict: no-lease-wasted broken",
			) {
				if !strings.Contains(told, s) {
					t.Errorf("neither the failure nor its story says %q:\n%s", s, told)
				}
			}
		})
	}
}
