// Command locksim is an interactive terminal simulator of Redis distributed
// locks: every scene runs real commands against an embedded miniredis or a
// live Redis server and explains the replies it got. Its verbs, their
// flags and exit codes are package cli's command table.
package main

import (
	"os"

	"locksim/cli"
)

func main() { os.Exit(cli.Process(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
