package sim

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// FormatReply renders a go-redis Do reply the way redis-cli prints it, on
// one line: OK, (nil), (integer) 1, "value", (error) ERR ..., and arrays as
// 1) "a" 2) (integer) 3. Reading the raw reply (not a typed helper) keeps
// -1 and -2 from PTTL as the integers the server sent.
func FormatReply(val any, err error) string {
	if err != nil {
		if errors.Is(err, redis.Nil) {
			return "(nil)"
		}
		var rerr redis.Error
		if errors.As(err, &rerr) {
			return "(error) " + rerr.Error()
		}
		return "(error) " + oneLine(err)
	}
	return formatValue(val, true)
}

func formatValue(v any, top bool) string {
	switch x := v.(type) {
	case nil:
		return "(nil)"
	case int64:
		return "(integer) " + strconv.FormatInt(x, 10)
	case string:
		// go-redis returns status replies (OK, QUEUED) and bulk strings alike
		// as string; the only status replies locksim meets are these.
		if top && (x == "OK" || x == "PONG") {
			return x
		}
		return strconv.Quote(x)
	case []any:
		if len(x) == 0 {
			return "(empty array)"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = fmt.Sprintf("%d) %s", i+1, formatValue(e, false))
		}
		return strings.Join(parts, " ")
	case error:
		return "(error) " + x.Error()
	default:
		return fmt.Sprint(x)
	}
}

// FormatCommand renders args as redis-cli would echo them, quoting any
// argument that is empty or holds spaces or quotes.
func FormatCommand(args []any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		s := fmt.Sprint(a)
		if s == "" || strings.ContainsAny(s, " \t\n\"'") {
			s = strconv.Quote(s)
		}
		parts[i] = s
	}
	return strings.Join(parts, " ")
}
