package lab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Line is one line of a Commands part: a command, and the condition on
// the previous command's reply under which it runs.
type Line struct {
	N    int      // its line number in the file, from 1
	If   Cond     // Always for an unguarded line
	Args []string // the command, placeholders still in
}

// CondKind is what a condition tests.
type CondKind int

const (
	Always     CondKind = iota // no condition
	IfOK                       // the reply is the status OK
	IfNil                      // the reply is nil
	IfNotNil                   // the reply is anything but nil (an error is not nil either)
	IfToken                    // the reply is the client's own token
	IfNotToken                 // the reply is anything but the client's token
	IfInt                      // the reply is the integer N
)

// Cond is a line's condition.
type Cond struct {
	Kind CondKind
	N    int64 // for IfInt
}

// String is the condition as written: "ok", "nil", "not nil", "token",
// "not token", or the integer.
func (c Cond) String() string {
	switch c.Kind {
	case IfOK:
		return "ok"
	case IfNil:
		return "nil"
	case IfNotNil:
		return "not nil"
	case IfToken:
		return "token"
	case IfNotToken:
		return "not token"
	case IfInt:
		return strconv.FormatInt(c.N, 10)
	}
	return ""
}

// ParseCommands reads a Commands part. The grammar, one line at a time:
//
//	# a comment; blank lines are skipped
//	COMMAND ARG ...          run the command
//	if COND: COMMAND ARG ... run it only if the previous command's reply
//	                         matches COND; otherwise the part stops here
//
// COND is ok, nil, not nil, token (the client's own token), not token, or
// an integer (1, 0, -1). Arguments are separated by spaces; {key} is the
// lock key, {token} the client's token, {ttl} the TTL in milliseconds and
// {ttl_s} in whole seconds (rounded up). The part's reply is the reply of
// the last command it ran. Errors name the line.
func ParseCommands(src string) ([]Line, error) {
	var out []Line
	for i, raw := range strings.Split(src, "\n") {
		n := i + 1
		s := strings.TrimSpace(raw)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		l := Line{N: n}
		if rest, ok := strings.CutPrefix(s, "if "); ok {
			cond, cmd, found := strings.Cut(rest, ":")
			if !found {
				return nil, fmt.Errorf("line %d: a condition ends with a colon: if nil: SET {key} {token}", n)
			}
			c, err := parseCond(strings.TrimSpace(cond))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			if len(out) == 0 {
				return nil, fmt.Errorf("line %d: a condition tests the previous command's reply, and there is none", n)
			}
			l.If, s = c, strings.TrimSpace(cmd)
		}
		l.Args = strings.Fields(s)
		if len(l.Args) == 0 {
			return nil, fmt.Errorf("line %d: no command after the condition", n)
		}
		for _, a := range l.Args {
			if strings.Contains(a, "{") && !knownPlaceholders(a) {
				return nil, fmt.Errorf("line %d: unknown placeholder in %q (known: {key}, {token}, {ttl}, {ttl_s})", n, a)
			}
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no command")
	}
	return out, nil
}

func parseCond(s string) (Cond, error) {
	switch strings.ToLower(strings.Join(strings.Fields(s), " ")) {
	case "ok":
		return Cond{Kind: IfOK}, nil
	case "nil":
		return Cond{Kind: IfNil}, nil
	case "not nil":
		return Cond{Kind: IfNotNil}, nil
	case "token":
		return Cond{Kind: IfToken}, nil
	case "not token":
		return Cond{Kind: IfNotToken}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return Cond{}, fmt.Errorf("unknown condition %q (known: ok, nil, not nil, token, not token, an integer)", s)
	}
	return Cond{Kind: IfInt, N: n}, nil
}

func knownPlaceholders(a string) bool {
	for _, p := range []string{"{key}", "{token}", "{ttl}", "{ttl_s}"} {
		a = strings.ReplaceAll(a, p, "")
	}
	return !strings.ContainsAny(a, "{}")
}

// expand fills the placeholders of args: {key}, {token}, {ttl} (the TTL
// in milliseconds) and {ttl_s} (in whole seconds, rounded up). Each
// argument is read once left to right, as strings.Replacer reads it, so a
// value holding a placeholder's text is not filled again. It builds no
// replacer: a search expands every step of every schedule, and building a
// strings.NewReplacer there was a fifth of a GET-then-DEL search.
func expand(args []string, key, token string, ttlMS int64) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = fill(a, key, token, ttlMS)
	}
	return out
}

// fill is expand of one argument; one with no placeholder comes back as
// it is, with nothing allocated.
func fill(a, key, token string, ttlMS int64) string {
	j := strings.IndexByte(a, '{')
	if j < 0 {
		return a
	}
	var b strings.Builder
	for ; j >= 0; j = strings.IndexByte(a, '{') {
		b.WriteString(a[:j])
		a = a[j:]
		switch {
		case strings.HasPrefix(a, "{key}"):
			b.WriteString(key)
			a = a[len("{key}"):]
		case strings.HasPrefix(a, "{token}"):
			b.WriteString(token)
			a = a[len("{token}"):]
		case strings.HasPrefix(a, "{ttl_s}"):
			b.WriteString(strconv.FormatInt((ttlMS+999)/1000, 10))
			a = a[len("{ttl_s}"):]
		case strings.HasPrefix(a, "{ttl}"):
			b.WriteString(strconv.FormatInt(ttlMS, 10))
			a = a[len("{ttl}"):]
		default:
			b.WriteByte('{')
			a = a[1:]
		}
	}
	b.WriteString(a)
	return b.String()
}

// peekBeforeSet reports that the lines after an acquire's GET set the key
// with a plain SET, no NX: the GET is then the check of a check-then-set.
func peekBeforeSet(rest []Line) bool {
	for _, ln := range rest {
		if len(ln.Args) == 0 {
			continue
		}
		switch strings.ToUpper(ln.Args[0]) {
		case "SET":
			return !slices.ContainsFunc(ln.Args[1:], func(a string) bool { return strings.EqualFold(a, "NX") })
		case "SETNX":
			return false
		}
	}
	return false
}
