package cli

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// badValue is the one line for a flag's value its type does not parse
// (flag's own error says only "parse error"): what was given, and what the
// flag takes; "" for any other error.
func badValue(fs *flag.FlagSet, err error) string {
	m := flagValueError.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	val, name, why := m[1], m[2], m[3]
	if u, err := strconv.Unquote(val); err == nil {
		val = u
	}
	f := fs.Lookup(name)
	if f == nil {
		return ""
	}
	var v any
	if g, ok := f.Value.(flag.Getter); ok {
		v = g.Get()
	}
	what := ""
	switch v.(type) {
	case time.Duration:
		what = "a duration (like 500ms or 2s)"
	case int, int64:
		what = "a whole number (like 3)"
	case uint, uint64:
		what = "a whole number of 0 or more (like 3)"
	case float64:
		what = "a number (like 0.5)"
	case bool:
		return fmt.Sprintf("-%s: %q is not true or false (give -%s alone to turn it on)", name, val, name)
	default:
		return ""
	}
	if why == "value out of range" {
		return fmt.Sprintf("-%s: %q is out of range: it takes %s", name, val, what)
	}
	return fmt.Sprintf("-%s: %q is not %s", name, val, what)
}

// flagValueError is flag's error for a value its type does not parse.
var flagValueError = regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-([^:]+): (parse error|value out of range)$`)
