package cli

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestFlagValueSaysWhatIsExpected: every flag whose value has a type (a
// duration, a whole number, a number, true or false) answers a value it
// cannot read with one line that names the flag, quotes the value and says
// what it takes, and exit 2; never flag's bare "parse error". The table is
// every such flag locksim has, found in its flag set.
func TestFlagValueSaysWhatIsExpected(t *testing.T) {
	var c config
	fs := newFlagSet(&c)
	type row struct {
		args []string
		want string
	}
	var rows []row
	kinds := map[string]int{}
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		n := "-" + f.Name
		switch g.Get().(type) {
		case time.Duration:
			rows = append(rows, row{[]string{n, "banana"}, n + `: "banana" is not a duration (like 500ms or 2s)`},
				row{[]string{n, "10"}, n + `: "10" is not a duration (like 500ms or 2s)`})
		case int:
			rows = append(rows, row{[]string{n, "banana"}, n + `: "banana" is not a whole number (like 3)`},
				row{[]string{n, "1.5"}, n + `: "1.5" is not a whole number (like 3)`},
				row{[]string{n, "99999999999999999999"}, n + `: "99999999999999999999" is out of range: it takes a whole number (like 3)`})
		case float64:
			rows = append(rows, row{[]string{n, "banana"}, n + `: "banana" is not a number (like 0.5)`},
				row{[]string{n, "1e999"}, n + `: "1e999" is out of range: it takes a number (like 0.5)`})
		case bool:
			rows = append(rows, row{[]string{n + "=banana"}, n + `: "banana" is not true or false (give ` + n + ` alone to turn it on)`})
		default:
			return
		}
		kinds[fmt.Sprintf("%T", g.Get())]++
	})
	// the flags of a kind of their own, which read their values themselves
	rows = append(rows, row{[]string{"-seed", "banana"}, "-seed must be a whole number from 0 to 18446744073709551615, got banana"})
	if kinds["time.Duration"] < 6 || kinds["int"] < 12 || kinds["float64"] < 2 || kinds["bool"] < 17 {
		t.Fatalf("the flag set's typed flags were not all found: %v", kinds)
	}
	for _, r := range rows {
		code, out, errs := runMain(r.args...)
		if code != 2 || errs != "locksim: "+r.want+"\n" || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %d bytes; want exit 2 and the one line %q", r.args, code, errs, len(out), r.want)
		}
		if strings.Contains(errs, "parse error") {
			t.Errorf("%v: %q says only parse error", r.args, errs)
		}
	}
}
