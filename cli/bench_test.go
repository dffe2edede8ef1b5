package cli

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"locksim/scenes"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// floor is the least a transcript of the race can cost as a whole process:
// start miniredis, connect, send the four SETs, print the replies. The
// benchmarks run it (LOCKSIM_FLOOR=1) beside locksim's own -plain.
func floor() int {
	mr := miniredis.NewMiniRedis()
	if err := mr.StartAddr("127.0.0.1:0"); err != nil {
		return 1
	}
	defer mr.Close()
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer c.Close()
	for _, tok := range []string{"a", "b", "c", "d"} {
		v, err := c.SetNX(context.Background(), "resource:lock", tok, 30*time.Second).Result()
		if err != nil {
			return 1
		}
		os.Stdout.WriteString(map[bool]string{true: "OK\n", false: "(nil)\n"}[v])
	}
	return 0
}

// process times one whole run of this binary as locksim (or as the floor).
func process(b *testing.B, env string, args ...string) {
	b.Helper()
	for b.Loop() {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), env)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
}

// BenchmarkProcess times whole processes: the floor, then -plain of every
// scene on the embedded server. ns/op is one process from start to exit.
func BenchmarkProcess(b *testing.B) {
	b.Run("floor", func(b *testing.B) { process(b, "LOCKSIM_FLOOR=1") })
	for _, sc := range scenes.All() {
		b.Run("plain-"+sc.ID, func(b *testing.B) {
			process(b, "LOCKSIM_MAIN=1", "-plain", "-scene", sc.ID, "-seed", "1")
		})
	}
}
