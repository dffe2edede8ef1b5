package play

import (
	"strconv"
	"strings"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
