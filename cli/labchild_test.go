package cli

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"locksim/lab"
)

// TestLabChildVerb: the hidden verb -lab-child, as a served session
// starts it (this test binary standing for locksim), judges a lock as the
// search in this process does; a request it cannot read is one line and
// exit 1.
func TestLabChildVerb(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	l := lab.Starter()
	l.Policy.Faults = []lab.Fault{lab.PausePast}
	l.Policy.Bound = lab.Bound{Clients: 2, Faults: 1, Depth: 8, MaxSchedules: lab.DefaultBound().MaxSchedules}
	want, err := lab.Check(context.Background(), &l, lab.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := labChildOf(exe, []string{"LOCKSIM_MAIN=1"}).Run(context.Background(), &l, lab.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got.Elapsed, want.Elapsed = 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("in -lab-child:\n%+v\nhere:\n%+v", got, want)
	}

	var out, errb bytes.Buffer
	code := Main([]string{"-lab-child"}, strings.NewReader("not a request"), &out, &errb)
	if code != 1 || out.Len() != 0 || strings.Count(errb.String(), "\n") != 1 || !strings.HasPrefix(errb.String(), "locksim: -lab-child: ") {
		t.Errorf("a bad request: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
