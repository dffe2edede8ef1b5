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

// TestRedisOutageUnderTwoServers stops a live redis-server for 10 s
// under two servers of a class, while the students answer and the
// instructor steps, and starts it again: every follower comes to the
// instructor's step with no key pressed, both answers are in the store,
// each server logged the outage once. Killed, the server refuses every
// call (it comes back with what it had: appendfsync always); paused
// (SIGSTOP) it answers nothing and no connection closes, so calls time
// out. The two run side by side, each on a redis-server of its own: most
// of their time is the outage's 10 s, waited out.
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
	stopped := time.Now()
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
	// the outage is 10 s: past go-redis's pub/sub ping (5 s),
	// so the subscriptions are lost and made again. Nothing asserted
	// depends on how long it lasts.
	time.Sleep(time.Until(stopped.Add(10 * time.Second)))
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
