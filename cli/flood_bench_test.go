package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locksim/play"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/storycode"

	gossh "golang.org/x/crypto/ssh"
)

// BenchmarkFlood is one student's flood beside a class: 30 students on
// the fencing story (ssh -t HOST story CODE) step once a second, forth
// and back, b.N steps each with nothing else running, then b.N steps
// each while one student key keeps 100 connections each running
// cast CODE 400x200 (the heaviest command) over and over. It prints and
// reports the students' 95th percentile, key sent to new step counter
// received, before and during the flood (figures, not a verdict: they
// depend on what else the machine runs), and fails when the instructor
// cannot open a session during the flood, or when the flooding key's
// refused commands are told anything but the refusal line. The casts run
// as -serve runs them, in child processes at the lowest CPU priority.
//
//	go test ./cli -run '^$' -bench Flood -benchtime 10x
func BenchmarkFlood(b *testing.B) {
	const students, flood = 30, 100
	dir := b.TempDir()
	teacher := termtest.NewKey(b)
	if err := os.WriteFile(filepath.Join(dir, "instructors"), gossh.MarshalAuthorizedKey(teacher.PublicKey()), 0o600); err != nil {
		b.Fatal(err)
	}
	s, err := serve.New(serve.Config{HostKey: filepath.Join(dir, "host_ed25519"), Instructors: filepath.Join(dir, "instructors"),
		Commands: sshCommands(), Spawn: testSpawn(b), Log: log.New(io.Discard, "", 0)})
	if err != nil {
		b.Fatal(err)
	}
	l, err := serve.Listen("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(termtest.Serve(b, s, l))
	addr := l.Addr().String()

	terms := make([]*termtest.Light, students)
	for i := range terms {
		code, err := storycode.Encode(play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: uint64(i + 1)})
		if err != nil {
			b.Fatal(err)
		}
		// each student from an address of their own, as in a room, and the
		// flood from one: the server's per-address accept limit (100 at
		// once) is the flood's, not the class's
		terms[i] = termtest.OpenLight(b, dialFrom(b, fmt.Sprintf("127.0.0.%d", 10+i), addr, fmt.Sprintf("s%d", i), termtest.NewKey(b)), 100, 30, "story "+code)
		if !terms[i].Wait(b, termtest.FencingBar(0)) {
			b.FailNow()
		}
	}
	// steps has every student step b.N times, once a second each, spread
	// over the second, and returns the 95th percentile
	steps := func() time.Duration {
		latencies := termtest.Steps(b, terms, b.N, func(_, n int) (string, string) {
			if n%2 == 1 {
				return "\x1b[D", termtest.FencingBar(0) // ←
			}
			return "\x1b[C", termtest.FencingBar(1) // →
		})
		// back to step 0 for the next round
		if b.N%2 == 1 {
			for _, lt := range terms {
				lt.Mark()
				_, _ = io.WriteString(lt.In, "\x1b[D")
				lt.Wait(b, termtest.FencingBar(0))
			}
		}
		return termtest.Percentile(latencies, 95)
	}

	b.ResetTimer()
	before := steps()

	// the flood: one key, 100 connections, each running the cast again a
	// second after it ended or was refused, until the students are done
	// (a loop with no pause would measure this process's own SSH client
	// as much as the server)
	code, err := storycode.Encode(play.Position{Version: play.PositionVersion, Scene: "redlock", Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	floodKey := termtest.NewKey(b)
	var (
		stop              = make(chan struct{})
		wg                sync.WaitGroup
		ran, refused, bad atomic.Int64
		badLine           atomic.Value
	)
	for i := range flood {
		c := dialFrom(b, "127.0.0.200", addr, fmt.Sprintf("f%d", i), floodKey)
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				errOut, status := runQuiet(c, "cast "+code+" 400x200")
				switch {
				case status == 0:
					ran.Add(1)
				case strings.HasPrefix(errOut, "locksim: one key may run 4 commands at once") && strings.Count(errOut, "\n") == 1:
					refused.Add(1)
				case strings.Contains(errOut, "was stopped after 10 s"):
					ran.Add(1)
				case status < 0:
					return // the connection closed under it: the end
				default:
					bad.Add(1)
					badLine.Store(errOut)
				}
				select {
				case <-stop:
					return
				case <-time.After(time.Second):
				}
			}
		})
	}
	// the instructor, once the flood is on
	for refused.Load() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	teach := termtest.OpenLight(b, dialFrom(b, "127.0.0.2", addr, "teacher", teacher), 100, 30, "")
	instructorIn := teach.Wait(b, "1  race")
	during := steps()
	close(stop)
	wg.Wait()
	b.StopTimer()

	b.Logf("students' p95 before the flood %v, during it %v; the flood ran %d casts, %d refused", before.Round(time.Millisecond), during.Round(time.Millisecond), ran.Load(), refused.Load())
	b.ReportMetric(float64(before.Microseconds())/1000, "p95-before-ms")
	b.ReportMetric(float64(during.Microseconds())/1000, "p95-during-ms")
	b.ReportMetric(float64(refused.Load()), "refused")
	b.ReportMetric(0, "ns/op")
	if !instructorIn {
		b.Error("the instructor could not open a session during the flood")
	}
	if n := bad.Load(); n > 0 {
		b.Errorf("%d of the flood's commands ended otherwise than run or refused, e.g. %q", n, badLine.Load())
	}
	if refused.Load() == 0 {
		b.Error("no command of the flood was refused")
	}
}

// runQuiet runs cmd on c without a terminal and returns its stderr and
// exit status, -1 when the connection failed.
func runQuiet(c *gossh.Client, cmd string) (string, int) {
	s, err := c.NewSession()
	if err != nil {
		return err.Error(), -1
	}
	defer s.Close()
	var errOut bytes.Buffer
	s.Stdout, s.Stderr = io.Discard, &errOut
	err = s.Run(cmd)
	var exit *gossh.ExitError
	switch {
	case err == nil:
		return errOut.String(), 0
	case errors.As(err, &exit):
		return errOut.String(), exit.ExitStatus()
	}
	return err.Error(), -1
}

// dialFrom is termtest.Dial from the loopback address from.
func dialFrom(b *testing.B, from, addr, user string, key gossh.Signer) *gossh.Client {
	b.Helper()
	c, err := termtest.DialFrom(from, addr, user, key)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}
