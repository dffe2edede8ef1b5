package lab

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"locksim/sim"
	"locksim/sim/simtest"
)

// TestHostAgreesWithRedis runs evalCases on a real redis-server with EVAL
// and compares the replies with the table the host is held to.
func TestHostAgreesWithRedis(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	url := simtest.StartRedis(t)
	c := simtest.Client(t, url)
	ctx := context.Background()
	key := "locksim:lab:" + t.Name()
	t.Cleanup(func() { c.Del(ctx, key, "locksim:lab:x", "locksim:lab:nosuch") })
	for _, tc := range evalCases {
		if strings.Contains(tc.src, "dofile") {
			continue // Redis 7 has no dofile or loadfile either, but require is a sandbox error there
		}
		src := strings.ReplaceAll(strings.ReplaceAll(tc.src, "'x'", "'locksim:lab:x'"), "'nosuch'", "'locksim:lab:nosuch'")
		v, err := c.Eval(ctx, src, []string{key}, "t1", "30000").Result()
		if got := sim.FormatReply(v, err); got != tc.want {
			t.Errorf("%s\n redis %s\n table %s", tc.src, got, tc.want)
		}
	}
}

// TestDialectAgreesWithRedis runs dialectCases on a real redis-server 7
// and holds its replies, envelopes and all, to the same table as the
// host (but for the lab's own words on what it leaves out).
func TestDialectAgreesWithRedis(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	url := simtest.StartRedis(t)
	c := simtest.Client(t, url)
	ctx := context.Background()
	key := "locksim:lab:" + t.Name()
	t.Cleanup(func() { c.Del(ctx, key, "locksim:lab:nosuch") })
	for _, tc := range dialectCases {
		if tc.labOnly {
			continue
		}
		if tc.crashes {
			// never on c's server: it would kill it for the rows after
			t.Run("crashes", func(t *testing.T) { crashesRedis(t, tc.src) })
			continue
		}
		if err := c.Set(ctx, key, "abc", 0).Err(); err != nil {
			t.Fatal(err)
		}
		src := strings.ReplaceAll(tc.src, "'nosuch'", "'locksim:lab:nosuch'")
		v, err := c.Eval(ctx, src, []string{key}).Result()
		want := strings.ReplaceAll(tc.want, "<sha>", shaOf(src))
		if got := sim.FormatReply(v, err); got != want {
			t.Errorf("%s\n redis %s\n table %s", src, got, want)
		}
	}
}

// crashesRedis sends src to a redis-server of its own, which must die of
// it: EVAL gets no reply, only its connection closed (no error reply, no
// value). The server runs in a directory of the test's own, with no crash
// log, so a core file, where the system writes one, goes there.
func crashesRedis(t *testing.T, src string) {
	url := simtest.StartRedisArgs(t, "--dir", t.TempDir(), "--crash-log-enabled", "no")
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opts.DisableIdentity, opts.MaxRetries = true, -1
	c := redis.NewClient(opts)
	defer c.Close()
	ctx := context.Background()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	v, err := c.Eval(ctx, src, nil).Result()
	var reply redis.Error
	if err == nil || errors.As(err, &reply) {
		t.Errorf("%s: redis-server answered %s; the lab says it crashes", src, sim.FormatReply(v, err))
	}
}
