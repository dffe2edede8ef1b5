package grade

import (
	"strings"
	"testing"

	"locksim/lab"
	"locksim/sim/simtest"
)

// The lessons of a lock with no fencing token that passes its own tests:
// each lease fault breaks mutual-exclusion and resource-safety alone.
const (
	meLessons = " lesson: mutual-exclusion (pause-past)=pass lesson: mutual-exclusion (clock-jump)=pass lesson: mutual-exclusion (restart)=pass"
	rsLessons = " lesson: resource-safety (pause-past)=pass lesson: resource-safety (clock-jump)=pass lesson: resource-safety (restart)=pass"
	allPass   = "mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=pass"
)

// table is issue 32's table: thirteen locks students wrote (in
// ../testdata/table), and the verdict an expert gives each under the
// default grade; then a TTL shorter than the work with no watchdog, the
// break work_ms makes findable.
var table = []struct {
	dir string
	// want is the grade's statuses, as statuses writes them
	want string
	// brk are texts the failing test's message holds (the shortest
	// break and what it did), and notBrk texts it must not
	brk, notBrk []string
	// notes are texts of the grade's notes, in order
	notes []string
	// lesson is a text the pause-past lesson of mutual-exclusion holds
	lesson string
}{
	{dir: "setnx-expire", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail" + meLessons + rsLessons,
		brk: []string{"A acquire: SETNX, B acquire: SETNX, A crashes, then a new client, twice the TTL later, is refused", "left with no TTL"}, notBrk: []string{"reply lost"}},
	{dir: "blind-del", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass" + meLessons + rsLessons,
		brk: []string{"A's release: DEL deleted B's lock"}},
	{dir: "get-then-del", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass" + meLessons + rsLessons,
		brk: []string{"A release: GET, A pauses until just past the TTL, B acquire, A release: DEL", "A's release: DEL deleted B's lock"}},
	{dir: "compare-and-delete", want: "pass " + allPass + meLessons + rsLessons},
	// the watchdog's extend tells a holder frozen past its TTL that it
	// lost the lock before it writes: only mutual-exclusion has lessons
	{dir: "watchdog", want: "pass " + allPass + meLessons, lesson: "its watchdog frozen with it"},
	{dir: "fencing", want: "pass " + allPass + meLessons + " lesson: resource-safety (restart)=pass"},
	{dir: "reentrant", want: "pass " + allPass + meLessons + rsLessons},
	{dir: "tonumber-hex", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass" + meLessons + rsLessons,
		brk: []string{"A pauses until just past the TTL, B acquire, A release: A's release deleted B's lock"}},
	{dir: "string-vs-number", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail" + meLessons + rsLessons + " note: release.lua:1=pass",
		brk:   []string{"A acquire, A write, A release, B acquire: ", "the release does not free the lock", "(story code lab."},
		notes: []string{"release.lua:1: redis.call('GET', …) == tonumber(ARGV[1]) never holds: it compares a number with a string"}},
	{dir: "set-without-nx", want: "fail mutual-exclusion=fail resource-safety=fail no-foreign-release=pass deadlock-freedom=pass",
		brk: []string{"broken: A acquire, B acquire: A and B act as holder at the same time"}, notBrk: []string{"pauses", "crashes", "clock", "restarts", "reply lost"}},
	{dir: "pexpire-zero", want: "pass " + allPass + meLessons + rsLessons},
	{dir: "get-false-acquire", want: "pass " + allPass + meLessons + rsLessons},
	{dir: "nil-or-token", want: "pass " + allPass + meLessons + rsLessons + " note: release.lua:2=pass",
		notes: []string{"release.lua:2: v == nil never holds: a redis.call reply is never nil, and a missing key reads false"}},
	{dir: "../table-extra/work-no-watchdog", want: "fail mutual-exclusion=fail resource-safety=fail no-foreign-release=pass deadlock-freedom=pass",
		brk: []string{"broken: A acquire, A work 1500ms, B acquire: A and B act as holder at the same time"}},
}

// TestTable grades each lock of the table under the default grade and
// holds it to the verdict: which tests fail, the shortest break's kind,
// the lessons and the notes. The quick tier grades quickTable's sample,
// the slow tier every other lock (the reentrant one's search is the
// largest, the watchdog's and work-no-watchdog's seconds under -race).
func TestTable(t *testing.T) {
	t.Parallel()
	for _, c := range table {
		t.Run(strings.TrimPrefix(c.dir, "../table-extra/"), func(t *testing.T) {
			if quickTable[c.dir] {
				simtest.QuickOnly(t)
			} else if !simtest.Slow {
				t.Skip("slow tier: go test -race -tags slow ./lab/grade")
			}
			t.Parallel()
			// graded once with TestNoLeaseWasted's off/default
			res, err := gradeOnce("../testdata/table/"+c.dir, Pin{})
			if err != nil {
				t.Fatal(err)
			}
			if got := statuses(res); got != c.want {
				t.Errorf("statuses\n got %s\nwant %s", got, c.want)
			}
			agrees(t, res)
			var failed, notes []string
			for _, tr := range res.Tests {
				if tr.Name == "lesson: mutual-exclusion (pause-past)" && !strings.Contains(tr.Output, c.lesson) {
					t.Errorf("the pause's lesson does not say %q: %s", c.lesson, tr.Output)
				}
				switch {
				case tr.Status == lab.Fail:
					failed = append(failed, tr.Message)
				case strings.HasPrefix(tr.Name, "note: "):
					notes = append(notes, tr.Output)
				}
			}
			msg := strings.Join(failed, "\n")
			for _, b := range c.brk {
				if !strings.Contains(msg, b) {
					t.Errorf("the failures do not say %q:\n%s", b, msg)
				}
			}
			// every break's story shows it: the ledger read it too
			for _, b := range append(c.notBrk, "does not show the break") {
				if strings.Contains(msg, b) {
					t.Errorf("the failures say %q:\n%s", b, msg)
				}
			}
			if strings.Join(notes, "\n") != strings.Join(c.notes, "\n") && !prefixes(notes, c.notes) {
				t.Errorf("notes\n got %q\nwant %q", notes, c.notes)
			}
		})
	}
}

// quickTable is TestTable's quick-tier sample: a lock that passes (graded
// once with TestNoLeaseWasted's off/default) and one that fails each of
// deadlock-freedom (with a break it must not name), no-foreign-release
// and mutual-exclusion (both tests at once), and the failing lock with a
// note and a story code. The slow tier grades the rest: the other
// passing locks, the lessons of a watchdog and of fencing, the second
// note, the other shapes of a foreign release and the work past the TTL.
var quickTable = map[string]bool{
	"compare-and-delete": true,
	"setnx-expire":       true,
	"blind-del":          true,
	"set-without-nx":     true,
	"string-vs-number":   true,
}

// prefixes: each note begins with the wanted text.
func prefixes(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) {
			return false
		}
	}
	return true
}
