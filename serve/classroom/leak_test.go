package classroom

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"
)

// TestClassLeavesNothing: 20 students join a class, follow and quit, ten
// at a time; once the server and the hub are closed no goroutine is left
// (the seats', the watches', the subscriptions'), and on a redis-server
// every key left is a class key with a TTL.
func TestClassLeavesNothing(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	t.Run("memory", func(t *testing.T) { classLeaks(t, func() class.Hub { return class.NewMemory(nil) }) })
	t.Run("redis", func(t *testing.T) {
		url := simtest.StartRedis(t)
		classLeaks(t, func() class.Hub {
			h, err := class.NewRedis(context.Background(), url, nil)
			if err != nil {
				t.Fatal(err)
			}
			return h
		})
		c := simtest.Client(t, url)
		for _, k := range simtest.Keys(t, url) {
			if ttl := c.PTTL(context.Background(), k).Val(); !strings.HasPrefix(k, class.Prefix) || ttl <= 0 || ttl > class.TTL {
				t.Errorf("key %s left, TTL %v", k, ttl)
			}
		}
	})
}

func classLeaks(t *testing.T, open func() class.Hub) {
	before := len(termtest.Goroutines())
	hub := open()
	teacherKey := termtest.NewKey(t)
	s, err := serve.New(serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		HostKey: filepath.Join(t.TempDir(), "host_ed25519"), Class: New(hub, "", t.Logf)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := serve.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop := termtest.Serve(t, s, l)
	addr := l.Addr().String()

	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	for batch := range 2 {
		var wg sync.WaitGroup
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tm := joinClass(t, addr, code, fmt.Sprintf("s%d", batch*10+i))
				tm.Send("q")
				tm.WaitEnd()
			}()
		}
		wg.Wait()
	}
	teacher.Send("q")
	teacher.WaitEnd()
	stop()
	_ = hub.Close()
	termtest.WaitGoroutines(t, before)
}
