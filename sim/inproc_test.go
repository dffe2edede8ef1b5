package sim

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestInprocSameReplies: the backend's own connection, which runs its
// commands in the caller's goroutine, gets the replies a pipe's client
// gets for the same commands (the keys read back, a script, a pipeline, a
// panic's error), and once the server stops it is refused as a pipe is.
func TestInprocSameReplies(t *testing.T) {
	ctx := context.Background()
	run := func(cmds [][]any) []string {
		b, err := OpenEmbedded()
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close(ctx)
		pipe := b.NewConn()
		defer pipe.Close()
		var out []string
		for _, c := range []struct {
			name string
			do   func(args ...any) (any, error)
		}{
			{"pipe", func(args ...any) (any, error) { return pipe.Do(ctx, args...).Result() }},
			{"admin", func(args ...any) (any, error) { return b.Admin().Do(ctx, args...).Result() }},
		} {
			if err := b.Admin().FlushAll(ctx).Err(); err != nil {
				t.Fatal(err)
			}
			b.setClock(0)
			for _, args := range cmds {
				v, err := c.do(args...)
				out = append(out, fmt.Sprintf("%s %v: %#v %v", c.name, args, v, err))
			}
			cmds := b.Admin().Pipeline()
			cmds.Type(ctx, "h")
			cmds.PTTL(ctx, "k")
			cmds.HGetAll(ctx, "h")
			res, err := cmds.Exec(ctx)
			for _, r := range res {
				out = append(out, fmt.Sprintf("%s pipelined %v", c.name, r))
			}
			out = append(out, fmt.Sprintf("%s pipeline %v", c.name, err))
		}
		return out
	}
	got := run([][]any{
		{"SET", "k", "v", "NX", "PX", "30000"},
		{"SET", "k", "w", "NX", "PX", "30000"},
		{"GET", "k"}, {"PTTL", "k"}, {"TYPE", "k"},
		{"HSET", "h", "a", "1", "b", "2"}, {"HGETALL", "h"},
		{"ZADD", "z", "1.5", "m"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"},
		{"EVAL", "return redis.call('GET', KEYS[1])", "1", "k"},
		{"EVAL", "return redis.call('NOSUCH')", "0"},
		{"DEL", "k", "h", "z"}, {"GET", "k"}, {"TIME"}, {"ECHO", "a\r\nb"},
	})
	half := len(got) / 2
	for i := range half {
		pipe, admin := got[i], got[half+i]
		if pipe[len("pipe"):] != admin[len("admin"):] {
			t.Errorf("a pipe's client got\n%s\nthe backend's own\n%s", pipe, admin)
		}
	}

	b, err := OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	old := b.Admin()
	if err := old.Ping(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	b.srvMu.Lock()
	b.srv = nil // stopped, as stop has it
	b.srvMu.Unlock()
	if err := old.Set(ctx, "k", "v", time.Second).Err(); err == nil {
		t.Error("a stopped server's own connection still ran a command")
	}
}

// TestReadCommand: a command is read whole as go-redis writes it, from a
// write that holds it and more, or over several writes; what is not one
// is refused.
func TestReadCommand(t *testing.T) {
	cmd := "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$4\r\nv\r\nw\r\n"
	for i := range len(cmd) {
		if args, n, err := readCommand([]byte(cmd[:i])); n != 0 || err != nil || args != nil {
			t.Errorf("%q read as %q, %d, %v", cmd[:i], args, n, err)
		}
	}
	args, n, err := readCommand([]byte(cmd + "*1\r\n"))
	if err != nil || n != len(cmd) || !slices.Equal(args, []string{"SET", "k", "v\r\nw"}) {
		t.Errorf("read %q, %d, %v", args, n, err)
	}
	for _, bad := range []string{"PING\r\n", "*0\r\n", "*1\r\n+OK\r\n", "*1\r\n$2\r\nabc\r\n", "*x\r\n"} {
		if _, _, err := readCommand([]byte(bad)); err == nil {
			t.Errorf("%q was read as a command", bad)
		}
	}
}
