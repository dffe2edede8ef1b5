//go:build unix

package class

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"locksim/play"
	"locksim/sim/simtest"
)

// hearLong is session.hear with a hang guard long enough for go-redis's
// timeouts (3 s a call, 5 s a ping) on a loaded machine: a guard, never a
// timing the test measures.
func hearLong(s *session, what string, ok func(*session) bool) {
	s.t.Helper()
	hearWithin(s, 2*time.Minute, what, ok)
}

// hearWithin is hear with a hang guard of d.
func hearWithin(s *session, d time.Duration, what string, ok func(*session) bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for !ok(s) {
		evs, err := s.w.Next(ctx)
		if err != nil {
			s.t.Fatalf("%s waiting for %s: %v", s.name, what, err)
		}
		s.do(s.p.Heard(evs, nil))
	}
}

// TestRedisOutageUnderTwoServers stops a live redis-server under two
// servers of a class, while the students answer and the instructor
// steps, and starts it again once every session has found it out of
// touch: every follower comes to the instructor's step with no key
// pressed, both answers are in the store, both servers' subscriptions
// to the class are in place again, each server logged the outage once.
// Killed, the server refuses every call (it comes back with what it had:
// appendfsync always), and its subscriptions are lost at once and made
// again; paused (SIGSTOP) it answers nothing and no connection closes,
// so calls time out (and the subscriptions' connections outlast the
// pause: go-redis's health check only writes its PING, which the kernel
// takes in, so a longer pause, once 10 s, lost no more). The two run
// side by side, each on a redis-server of its own.
func TestRedisOutageUnderTwoServers(t *testing.T) {
	t.Run("killed", func(t *testing.T) {
		t.Parallel()
		srv := simtest.StartServer(t, "--appendonly", "yes", "--appendfsync", "always", "--dir", t.TempDir())
		redisOutage(t, srv.URL, srv.Stop, srv.Start)
	})
	t.Run("paused", func(t *testing.T) {
		t.Parallel()
		srv := simtest.StartServer(t)
		pid := serverPID(t, srv.URL)
		redisOutage(t, srv.URL, func() {
			if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			// a failed test must not leave it stopped for Stop
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
		}, func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	})
}

// subscribed waits until the redis-server at url has n clients subscribed
// to a channel (CLIENT LIST TYPE pubsub): each class server's one
// subscription to the class, made again after an outage that lost it.
func subscribed(t *testing.T, url string, n int) {
	t.Helper()
	c := simtest.Client(t, url)
	deadline := time.Now().Add(2 * time.Minute) // a hang guard
	for {
		list, err := c.Do(context.Background(), "CLIENT", "LIST", "TYPE", "pubsub").Text()
		if err == nil && strings.Count(list, " sub=1 ") == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server's subscribers 2 minutes after the outage (want %d): %q (%v)", n, list, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// serverPID is the process id of the redis-server at url (INFO's).
func serverPID(t *testing.T, url string) int {
	info, err := simtest.Client(t, url).Info(context.Background(), "server").Result()
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			pid, _ = strconv.Atoi(v)
		}
	}
	if pid == 0 {
		t.Fatalf("no process_id in INFO:\n%s", info)
	}
	return pid
}

func redisOutage(t *testing.T, url string, stop, start func()) {
	ra, rb := redisHubNow(t, url), redisHubNow(t, url)
	var logA, logB serverLog
	a, b := OutageLog(ra, logA.logf), OutageLog(rb, logB.logf)
	ctx := context.Background()
	cls, err := a.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := cls.Code
	teacher := joinAs(t, a, code, Instructor, "teacher", "teacher", 1)
	teacher.goTo(play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1})
	teacher.do(teacher.p.AskFollow())
	teacher.report()
	s1 := joinAs(t, a, code, Student, "k-1", "s1", 11)
	s2 := joinAs(t, b, code, Student, "k-2", "s2", 12)
	at := questionStep(teacher.pos)
	q, _ := QuestionOf(teacher.pos)
	pos := teacher.pos
	pos.Step = at
	teacher.goTo(pos)
	for _, s := range []*session{s1, s2} {
		hearLong(s, "the ask to follow", func(s *session) bool { return s.p.Asked() })
		s.do(s.p.Follow())
		hearLong(s, "the question", leadAtStep(at))
	}

	stop()
	for _, s := range []*session{teacher, s1, s2} {
		hearLong(s, "the store's outage", func(s *session) bool { return s.p.OutOfTouch() })
	}
	s1.answer(0)
	s2.answer(1)
	pos.Step = at + 1
	teacher.goTo(pos)
	if s1.p.Lead().Pos.Step != at || s2.p.Lead().Pos.Step != at {
		t.Fatal("a follower moved while the store was stopped")
	}
	// every session found the store out of touch, and the steps and
	// answers are kept: nothing asserted waits on how long it lasts
	start()

	for _, s := range []*session{s1, s2} {
		// the guard (8 beats) is well under Refresh (30 s), whose put
		// would bring the step too: a seat that did not try again every
		// beat fails here
		hearWithin(s, 8*Beat, "the step kept", leadAtStep(at+1))
		if s.pos.Step != at+1 || !s.revealed {
			t.Fatalf("%s is at step %d (revealed %v), want the leader's %d", s.name, s.pos.Step, s.revealed, at+1)
		}
	}
	hearLong(teacher, "both answers", answered(q, 2))
	subscribed(t, url, 2)
	rows, err := ra.Roster(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if _, ok := r.Answers[q.Key()]; r.Role == Student && !ok {
			t.Fatalf("%s's answer given during the outage is not in the store: %+v", r.Name, r.Answers)
		}
	}
	if l, _, err := rb.LeadOf(ctx, code); err != nil || l.Pos.Step != at+1 {
		t.Fatalf("the store's place: step %d, %v; want %d", l.Pos.Step, err, at+1)
	}
	for name, l := range map[string]*serverLog{"A": &logA, "B": &logB} {
		t.Logf("server %s logged %q", name, l.all())
		if lines := l.all(); len(lines) != 1 || !strings.Contains(lines[0], "class store unreachable") {
			t.Errorf("server %s logged %s, want one line with the cause", name, fmt.Sprintf("%q", lines))
		}
	}
}
