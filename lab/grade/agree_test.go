package grade

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/play"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/storycode"
	"locksim/transcript"
)

// agreeSet is issue 46's set: locks beyond the table (../testdata/agree),
// each a shape whose story and grade once disagreed, with the grade an
// expert gives it and what its failing test's story, or its message or
// lessons, must and must not say.
var agreeSet = []struct {
	dir, want string
	// says are texts of the failing tests' messages, stories and lessons
	// (whitespace folded), and never texts none of them may hold
	says, never []string
	// quick, for a lock whose default grade is too long for the quick
	// tier, is the policy (lab.json's form) the quick tier grades it
	// under instead, with quickWant its statuses: the property it breaks,
	// on the one fault its shortest break takes, which finds the same
	// break and story; the slow tier gives it the default grade
	quick, quickWant string
	// slow: the slow tier grades it, the quick tier not at all (its shape
	// shares a break or lesson with a row the quick tier grades)
	slow bool
}{
	// the key lapses a millisecond after the release: freed within twice
	// the TTL
	{dir: "pexpire-one", want: "pass " + allPass + meLessons + rsLessons, slow: true},
	{dir: "pexpire-one-blind", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass" + meLessons + rsLessons,
		says: []string{"A's release changed the TTL of B's lock", "it gave B's lock a new TTL"}},
	// the ledger judges a foreign re-time by an extend
	{dir: "watchdog-bare-pexpire", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass" + meLessons,
		says:  []string{"A's watchdog extend changed the TTL of B's lock", "it gave B's lock a new TTL"},
		quick: watchdogOneFault, quickWant: "fail no-foreign-release=fail"},
	{dir: "extend-set-xx", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass" + meLessons,
		says:  []string{"A's watchdog extend overwrote B's lock", "the script wrote A's value over it"},
		quick: watchdogOneFault, quickWant: "fail no-foreign-release=fail"},
	// "A released" only for a release that removed the key
	{dir: "extend-gives-up", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail lesson: mutual-exclusion (restart)=pass",
		says:  []string{"A's extend answered (integer) 0, so A gave the lock up without a release, and left the key with no TTL", "takes the reply for a lost lock and gives it up, sending no release"},
		never: []string{"A released", "A's release"}},
	{dir: "wrong-key-release", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail lesson: mutual-exclusion (restart)=pass lesson: resource-safety (restart)=pass",
		says:  []string{"A's release: DEL answered (integer) 0 and removed nothing: it left the key with no TTL"},
		never: []string{"A released"}},
	// a release that leaves the key to its TTL does not free the lock,
	// as string-vs-number's in the table
	{dir: "wrong-key-ttl", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail" + meLessons + rsLessons,
		says:  []string{"A's release answered (integer) 0 and removed nothing: it left the key with its TTL, yet B's acquire right after is refused"},
		never: []string{"A released"}, slow: true},
	// a break by the lock's own TTL is told as that
	{dir: "px-one", want: "fail mutual-exclusion=fail resource-safety=fail no-foreign-release=pass deadlock-freedom=pass",
		says:  []string{"A's lease ran out at +0.001s"},
		never: []string{"removed by no command", "outside this story", "outside the story"}},
	{dir: "ex-for-px", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail lesson: mutual-exclusion (restart)=pass lesson: resource-safety (restart)=pass",
		says: []string{"A crashes, then a new client, twice the TTL later, is refused"}, slow: true},
	{dir: "setnx-no-ttl-crash", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=fail lesson: mutual-exclusion (restart)=pass lesson: resource-safety (restart)=pass",
		says: []string{"the lock key is left with no TTL"}, slow: true},
	// the fencing lesson only for a number the resource checks
	{dir: "incr-fence-redis", want: "pass " + allPass + meLessons + rsLessons,
		says:  []string{"Your acquire's INCR makes a number, but no fencing token"},
		never: []string{"A fencing token handed out with the grant keeps the resource safe"}, slow: true},
	{dir: "incr-fence-lua-unreturned", want: "pass " + allPass + meLessons + rsLessons,
		says:  []string{"Your acquire's INCR makes a number, but no fencing token"},
		never: []string{"A fencing token handed out with the grant keeps the resource safe"}},
	// Redis 7's tonumber: every 32-digit hex token is one number
	{dir: "tonumber-base16", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass" + meLessons + rsLessons,
		says: []string{"A's release deleted B's lock", "as the same number, 1.844674407371e+19: the two compare equal"}, slow: true},
	{dir: "getdel-compare", want: "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass" + meLessons + rsLessons,
		says: []string{"A's release deleted B's lock", "the release removed it: A deleted B's lock"}},
}

// watchdogOneFault is the quick tier's policy for the agreement set's
// watchdog locks (their lab.json, no-foreign-release alone, one fault a
// schedule): their default grade searches two faults a schedule over
// every renewal, ten seconds each under -race, most of the package's
// quick tier; their break takes one fault (a pause past the TTL).
const watchdogOneFault = `{"ttl_ms": 1000, "work_ms": 1500, "watchdog_ms": 500, "properties": ["no-foreign-release"], "bound": {"clients": 2, "faults": 1, "depth": 12, "max_schedules": 200000}}`

// TestStoryAgreesWithGrade grades each lock of agreeSet under the default
// grade and holds it to its verdict, and every failing test's story,
// played by the program's own transcript, to the grade: its question
// answered "yes", its verdict naming the property (see agrees). TestTable
// holds the table's locks to the same. A lock with a quick policy is
// graded under it in the quick tier (its break, story and texts), under
// the default grade in the slow tier; a lock marked slow in the slow tier
// alone; every other lock in the quick tier.
func TestStoryAgreesWithGrade(t *testing.T) {
	t.Parallel()
	for _, c := range agreeSet {
		t.Run(c.dir, func(t *testing.T) {
			pin, want := Pin{}, c.want
			switch {
			case c.slow && !simtest.Slow:
				t.Skip("slow tier: go test -race -tags slow ./lab/grade")
			case c.slow:
			case c.quick == "":
				simtest.QuickOnly(t)
			case !simtest.Slow:
				pin.Policy, want = filepath.Join(t.TempDir(), "quick.json"), c.quickWant
				if err := os.WriteFile(pin.Policy, []byte(c.quick), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Parallel()
			res, err := Dir(context.Background(), "../testdata/agree/"+c.dir, pin)
			if err != nil {
				t.Fatal(err)
			}
			if got := statuses(res); got != want {
				t.Errorf("%s: statuses\n got %s\nwant %s", pin.Name(), got, want)
			}
			told := agrees(t, res)
			for _, s := range c.says {
				if !strings.Contains(told, s) {
					t.Errorf("neither the failures, their stories nor the lessons say %q:\n%s", s, told)
				}
			}
			for _, s := range c.never {
				if strings.Contains(told, s) {
					t.Errorf("the failures, their stories or the lessons say %q:\n%s", s, told)
				}
			}
		})
	}
}

// agrees plays the story of each of res's failing tests as the program's
// transcript does (locksim -story CODE -plain) and requires it to show
// the failure: the ledger's verdict names the property broken and the
// story's question (which property does the move that breaks it break?)
// is answered with that property, as the grade implies. It returns the messages, lessons and transcripts,
// whitespace folded, for the caller's texts.
func agrees(t *testing.T, res Results) string {
	t.Helper()
	var told []string
	for _, tr := range res.Tests {
		if tr.Status != lab.Fail {
			told = append(told, tr.Output)
			continue
		}
		told = append(told, tr.Message)
		if strings.Contains(tr.Message, "does not show the break") {
			t.Errorf("%s: %s", tr.Name, tr.Message)
		}
		code := ""
		for _, m := range storyCodes.FindAllStringSubmatch(tr.Message, -1) {
			if m[1] != "" {
				code = m[1]
			}
		}
		if code == "" {
			if !strings.HasPrefix(tr.Message, "a script raised an error") {
				t.Errorf("%s: a failure with no story: %s", tr.Name, tr.Message)
			}
			continue
		}
		pos, err := storycode.Decode(code)
		if err != nil {
			t.Fatal(err)
		}
		b, err := sim.OpenEmbedded()
		if err != nil {
			t.Fatal(err)
		}
		var w strings.Builder
		// the code stands at its question: its reader answers "yes", and
		// the replies must say so too
		err = transcript.PlainPositionWith(context.Background(), &w, b, pos, transcript.PositionOptions{Role: play.Transcript, Answer: 1})
		_ = b.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		story := strings.Join(strings.Fields(w.String()), " ")
		told = append(told, story)
		answer := regexp.MustCompile(`\[the replies answer: [0-9]\) ` + regexp.QuoteMeta(tr.Name) + `: `)
		if !answer.MatchString(story) || !strings.Contains(story, "verdict: "+tr.Name+" broken: ") {
			t.Errorf("%s: the story does not answer %s to its question, or its verdict does not name it:\n%s", tr.Name, tr.Name, w.String())
		}
	}
	return strings.Join(strings.Fields(strings.Join(told, "\n")), " ")
}
