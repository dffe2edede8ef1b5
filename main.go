// Command locksim is an interactive terminal simulator of Redis distributed
// locks: every scene runs real commands against an embedded miniredis or a
// live Redis server and explains the replies it got. Its verbs, their
// flags and exit codes are package cli's command table.
package main

import (
	"os"
	"runtime"

	"locksim/cli"
)

func main() {
	// locksim writes no heap profile: sampling its allocations for one
	// (a stack trace every 512 KiB allocated) was work for nothing, a
	// twentieth of what a -plain start does beyond its floor
	runtime.MemProfileRate = 0
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
