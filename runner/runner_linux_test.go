package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestHolds: on Linux every limit holds, and the line names each.
func TestHolds(t *testing.T) {
	l := Limits{Wall: 2 * time.Minute, CPU: 241, MemoryMB: 1024, Nice: 19}
	if got, want := l.Holds(), "limits on linux: wall time 2m0s, CPU time 241 s, memory 1024 MB, nice 19, ends with locksim"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got, want := (Limits{Wall: time.Minute, CPU: 121, MemoryMB: 64}).Holds(), "limits on linux: wall time 1m0s, CPU time 121 s, memory 64 MB, ends with locksim"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestNiceAndDeath: the child runs at the nice value asked for, in a
// process group of its own, with SIGKILL as its parent-death signal.
func TestNiceAndDeath(t *testing.T) {
	cmd := child(t, "sleep")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, cmd, Limits{Nice: 19})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = p.Wait() }()
	if _, err := out.Read(make([]byte, 3)); err != nil {
		t.Fatal(err)
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	// after the command's name: state, ppid, pgrp, …; the nice value is
	// the 19th field of the whole line
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if f[2] != fmt.Sprint(cmd.Process.Pid) || f[16] != "19" {
		t.Errorf("the child's group %s and nice %s, want %d and 19", f[2], f[16], cmd.Process.Pid)
	}
	if cmd.SysProcAttr.Pdeathsig == 0 {
		t.Error("no parent-death signal")
	}
}

// TestMemoryLimit: a child past its resident memory is killed, and the
// error names the limit.
func TestMemoryLimit(t *testing.T) {
	// the test binary itself, asleep, holds more than 1 MB
	err := Run(context.Background(), child(t, "sleep"), Limits{MemoryMB: 1})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != Memory || err.Error() != "it used more than 1 MB of memory" {
		t.Fatalf("a child past its memory: %v", err)
	}
}
