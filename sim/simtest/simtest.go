// Package simtest starts a real redis-server for tests of the live path.
package simtest

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// StartRedis starts redis-server on a free 127.0.0.1 port with persistence
// off, waits until it answers PING and stops it when the test ends. It
// returns the server's URL. Without a redis-server binary on PATH the test
// is skipped with a message that says how to get one.
func StartRedis(t testing.TB) string {
	t.Helper()
	return StartRedisArgs(t)
}

// StartRedisArgs is StartRedis with more redis-server arguments (for
// example "--requirepass", "secret"). It waits for the server to accept
// connections, whatever it then answers.
func StartRedisArgs(t testing.TB, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed, so the live-server test is skipped (apt-get install redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("no free port: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	cmd := exec.Command(bin, append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--protected-mode", "no"}, args...)...)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start redis-server: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port), DisableIdentity: true})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); ; {
		if err := c.Ping(context.Background()).Err(); err == nil || strings.Contains(err.Error(), "NOAUTH") {
			return url
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on port %d did not answer PING", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Keys lists every key on the server at url (KEYS *: a test's own server),
// sorted.
func Keys(t testing.TB, url string) []string {
	t.Helper()
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opts.DisableIdentity = true
	c := redis.NewClient(opts)
	defer c.Close()
	keys, err := c.Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(keys)
	return keys
}

// Server is a redis-server a test can stop and start again on its port.
type Server struct {
	URL  string
	t    testing.TB
	bin  string
	port int
	cmd  *exec.Cmd
}

// StartServer starts a redis-server like StartRedis, and returns it so the
// test can Stop and Start it again (skipped without the binary).
func StartServer(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed, so the live-server test is skipped (apt-get install redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("no free port: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	s := &Server{URL: fmt.Sprintf("redis://127.0.0.1:%d/0", port), t: t, bin: bin, port: port}
	s.Start()
	t.Cleanup(s.Stop)
	return s
}

// Start starts the server (again), empty, and waits for PING.
func (s *Server) Start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, "--port", fmt.Sprint(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--protected-mode", "no")
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("start redis-server: %v", err)
	}
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", s.port), DisableIdentity: true})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); c.Ping(context.Background()).Err() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			s.t.Fatalf("redis-server on port %d did not answer PING", s.port)
		}
	}
}

// Stop kills the server, as a crash would.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
		s.cmd = nil
	}
}
