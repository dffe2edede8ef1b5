package sim_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"locksim/sim"
)

// TestEmbeddedSpeaksTheOneCommandForms: the embedded server is the patched
// miniredis (third_party/miniredis), so a story's own connection gets
// Redis 8.4's and Valkey 9.0's replies. The texts are the sources' (see
// third_party/miniredis/cmd_string_test.go): the digest of "Hello world"
// is redis.io's DIGEST example.
func TestEmbeddedSpeaksTheOneCommandForms(t *testing.T) {
	b := embedded(t)
	ctx := context.Background()
	c := b.NewConn()
	defer c.Close()
	k := b.Key("resource:lock")
	for _, step := range []struct {
		args []any
		want string // the reply as go-redis prints it
	}{
		{[]any{"SET", k, "Hello world", "NX", "PX", 30000}, "OK"},
		{[]any{"DIGEST", k}, "b6acb9d84a38ff74"},
		{[]any{"SET", k, "Hello world", "IFEQ", "Hello world", "PX", 60000}, "OK"},
		{[]any{"SET", k, "x", "IFEQ", "someone else", "GET"}, "Hello world"},
		{[]any{"DELEX", k, "IFEQ", "someone else"}, "0"},
		{[]any{"DELEX", k, "IFDEQ", "B6ACB9D84A38FF74"}, "1"},
		{[]any{"DELIFEQ", k, "Hello world"}, "0"},
		{[]any{"SET", k, "v", "IFNE", "x"}, "OK"}, // IFNE creates a missing key
		{[]any{"DELIFEQ", k, "v"}, "1"},
		{[]any{"SET", k, "v", "IFEQ", "x"}, "redis: nil"},
	} {
		got, err := c.Do(ctx, step.args...).Result()
		s := fmt.Sprint(got)
		if err != nil {
			s = err.Error()
		}
		if s != step.want {
			t.Errorf("%v: %q, want %q", step.args, s, step.want)
		}
	}
	if n, err := c.Exists(ctx, k).Result(); err != nil || n != 0 {
		t.Errorf("the key is left: %d, %v", n, err)
	}
	f, err := b.Forms(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range sim.OneCommandForms() {
		if !f.Has[form] || f.Refusal(form) != "" {
			t.Errorf("the embedded server lacks %s: %q", form, f.Refusal(form))
		}
	}
}

// TestFormsOnRedis7: Redis 7 has none of the forms. COMMAND INFO answers
// nil for DELEX, DELIFEQ and DIGEST, and SET's and DELEX's options are a
// syntax error there; each refusal is one line naming the form, the release
// that has it and this server. The probe leaves no key behind.
func TestFormsOnRedis7(t *testing.T) {
	b := liveAt(t, 20)
	ctx := context.Background()
	f, err := b.Forms(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(f.Server, "Redis 7.") {
		t.Fatalf("server %q", f.Server)
	}
	for _, form := range sim.OneCommandForms() {
		if f.Has[form] {
			t.Errorf("Redis 7 has %s?", form)
		}
	}
	if got, want := f.Refusal(sim.OneDelifeq), "DELIFEQ needs Valkey 9.0 or later; this server is "+f.Server; got != want {
		t.Errorf("refusal %q, want %q", got, want)
	}
	if got, want := f.Refusal(sim.OneSetIfeq), "SET … IFEQ needs Redis 8.4 or later, or Valkey 8.1 or later; this server is "+f.Server; got != want {
		t.Errorf("refusal %q, want %q", got, want)
	}
	c := b.NewConn()
	defer c.Close()
	if n, err := c.Exists(ctx, b.Key("forms")).Result(); err != nil || n != 0 {
		t.Errorf("the probe's key is left: %d, %v", n, err)
	}
}

// TestRefusalLine is the line for a refused form, whatever the server.
func TestRefusalLine(t *testing.T) {
	f := sim.FormSupport{Server: "Redis 7.0.15", Has: map[string]bool{sim.OneSetIfeq: true}}
	for form, want := range map[string]string{
		sim.OneDelifeq: "DELIFEQ needs Valkey 9.0 or later; this server is Redis 7.0.15",
		sim.OneDelex:   "DELEX … IFEQ needs Redis 8.4 or later; this server is Redis 7.0.15",
		sim.OneDigest:  "DIGEST needs Redis 8.4 or later; this server is Redis 7.0.15",
		sim.OneSetIfeq: "",
	} {
		if got := f.Refusal(form); got != want {
			t.Errorf("%s: %q, want %q", form, got, want)
		}
	}
}
