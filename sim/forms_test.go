package sim_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/simtest"
)

// formStep is one command of the one-command forms' table and the reply
// it gets, as go-redis prints it; needs is the form the server must have
// ("" for a command every server has).
type formStep struct {
	needs string
	args  []any
	want  string
}

// formSteps is the table on key k. The texts are the sources' (see
// third_party/miniredis/cmd_string_test.go): the digest of "Hello world"
// is redis.io's DIGEST example.
func formSteps(k string) []formStep {
	return []formStep{
		{"", []any{"SET", k, "Hello world", "NX", "PX", 30000}, "OK"},
		{sim.OneDigest, []any{"DIGEST", k}, "b6acb9d84a38ff74"},
		{sim.OneSetIfeq, []any{"SET", k, "Hello world", "IFEQ", "Hello world", "PX", 60000}, "OK"},
		{sim.OneSetIfeq, []any{"SET", k, "x", "IFEQ", "someone else", "GET"}, "Hello world"},
		{sim.OneDelex, []any{"DELEX", k, "IFEQ", "someone else"}, "0"},
		{sim.OneDelexD, []any{"DELEX", k, "IFDEQ", "B6ACB9D84A38FF74"}, "1"},
		{"", []any{"SET", k, "Hello world"}, "OK"},
		{sim.OneDelifeq, []any{"DELIFEQ", k, "Hello world"}, "1"},
		{sim.OneDelifeq, []any{"DELIFEQ", k, "Hello world"}, "0"},
		{sim.OneSetIfeq, []any{"SET", k, "v", "IFEQ", "x"}, "redis: nil"}, // IFEQ never creates a key
		{"", []any{"DEL", k}, "0"},
		// IFNE makes the missing key; GET answers the old value, nil for none
		{sim.OneSetIfne, []any{"SET", k, "Hello world", "IFNE", "x", "GET", "PX", 30000}, "redis: nil"},
		{sim.OneSetIfne, []any{"SET", k, "y", "IFNE", "Hello world"}, "redis: nil"},
		{sim.OneSetIfeq, []any{"SET", k, "y", "IFEQ", "x", "GET"}, "Hello world"}, // nothing set
		{"", []any{"GET", k}, "Hello world"},
		{"", []any{"DEL", k}, "1"},
		// a renewal without PX: SET clears the TTL unless told to keep it
		// (KEEPTTL), so the lock never expires
		{"", []any{"SET", k, "Hello world", "PX", 30000}, "OK"},
		{sim.OneSetIfeq, []any{"SET", k, "Hello world", "IFEQ", "Hello world"}, "OK"},
		{sim.OneSetIfeq, []any{"PTTL", k}, "-1"},
		{"", []any{"DEL", k}, "1"},
	}
}

// setIfeqGetMismatch sends go-redis v9.23's SetIFEQGet on a key holding
// "Hello world" with a value that does not match, and returns what the
// method hands back: its doc comment says nil on a mismatch, but the
// server answers the old value, and so does the method.
func setIfeqGetMismatch(t *testing.T, b *sim.Backend) string {
	t.Helper()
	ctx := context.Background()
	c := b.NewConn()
	defer c.Close()
	k := b.Key("resource:lock")
	defer c.Del(ctx, k)
	if err := c.Set(ctx, k, "Hello world", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	v, err := c.SetIFEQGet(ctx, k, "x", "someone else", time.Minute).Result()
	if err != nil {
		return err.Error()
	}
	if got, _ := c.Get(ctx, k).Result(); got != "Hello world" {
		t.Errorf("SetIFEQGet on a mismatch set the key: %q", got)
	}
	return v
}

// runFormSteps sends the steps b has the forms for and returns what each
// got, "" for a step skipped.
func runFormSteps(t *testing.T, b *sim.Backend, f sim.FormSupport) []string {
	t.Helper()
	ctx := context.Background()
	c := b.NewConn()
	defer c.Close()
	var got []string
	for _, step := range formSteps(b.Key("resource:lock")) {
		if step.needs != "" && !f.Has[step.needs] {
			got = append(got, "")
			continue
		}
		v, err := c.Do(ctx, step.args...).Result()
		s := fmt.Sprint(v)
		if err != nil {
			s = err.Error()
		}
		got = append(got, s)
	}
	return got
}

// TestEmbeddedSpeaksTheOneCommandForms: the embedded server is the patched
// miniredis (third_party/miniredis), so a story's own connection gets
// Redis 8.4's and Valkey 9.0's replies, and Forms says it has them all.
func TestEmbeddedSpeaksTheOneCommandForms(t *testing.T) {
	b := embedded(t)
	f, err := b.Forms(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range sim.OneCommandForms() {
		if !f.Has[form] || f.Refusal(form) != "" {
			t.Errorf("the embedded server lacks %s: %q", form, f.Refusal(form))
		}
	}
	got := runFormSteps(t, b, f)
	for i, step := range formSteps(b.Key("resource:lock")) {
		if got[i] != step.want {
			t.Errorf("%v: %q, want %q", step.args, got[i], step.want)
		}
	}
	if got := setIfeqGetMismatch(t, b); got != "Hello world" {
		t.Errorf("go-redis's SetIFEQGet on a mismatch: %q, want the old value", got)
	}
}

// TestFormsAgainstAServerThatHasThem: on a server that has some of the
// forms, the table's replies must be the embedded server's, step by step,
// for every form the server has, and go-redis's SetIFEQGet must hand back
// the old value on a mismatch there too. It runs on Redis 8.4 or later and
// Valkey 9.0 or later as .ci/servers builds them (simtest.Built says where
// they are looked for; without one, its subtest skips and says why), and
// on the server LOCKSIM_FORMS_URL names, if set (a redis:// URL: any
// server of your own with the forms).
func TestFormsAgainstAServerThatHasThem(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	t.Parallel()
	for _, srv := range simtest.BuiltServers() {
		t.Run(srv.Name, func(t *testing.T) {
			t.Parallel()
			f := formsAgainst(t, srv.Start(t).URL)
			// each has the forms its release brings (src/commands/*.json)
			want := []string{sim.OneSetIfeq}
			if srv == simtest.Redis8 {
				want = append(want, sim.OneDelex, sim.OneDelexD, sim.OneDigest, sim.OneSetIfdq, sim.OneSetIfne)
			} else {
				want = append(want, sim.OneDelifeq)
			}
			for _, form := range want {
				if !f.Has[form] {
					t.Errorf("%s lacks %s: %s", f.Server, form, f.Refusal(form))
				}
			}
		})
	}
	t.Run("LOCKSIM_FORMS_URL", func(t *testing.T) {
		url := os.Getenv("LOCKSIM_FORMS_URL")
		if url == "" {
			t.Skip("LOCKSIM_FORMS_URL is not set: set it to a redis:// URL of a server with the forms to compare it too")
		}
		formsAgainst(t, url)
	})
}

// formsAgainst compares the forms' table on the server at url with the
// embedded server's replies, and returns what the server has.
func formsAgainst(t *testing.T, url string) sim.FormSupport {
	t.Helper()
	ctx := context.Background()
	b, err := sim.OpenLive(ctx, url, simtest.LiveOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(ctx) })
	f, err := b.Forms(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s has %v", f.Server, f.Has)
	got := runFormSteps(t, b, f)
	want := runFormSteps(t, embedded(t), f)
	for i, step := range formSteps("k") {
		if got[i] != want[i] {
			t.Errorf("%v: %s answered %q, the embedded server %q", step.args, f.Server, got[i], want[i])
		}
	}
	if f.Has[sim.OneSetIfeq] {
		if got := setIfeqGetMismatch(t, b); got != "Hello world" {
			t.Errorf("go-redis's SetIFEQGet on a mismatch, on %s: %q, want the old value", f.Server, got)
		}
	}
	return f
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
		sim.OneSetIfne: "SET … IFNE needs Redis 8.4 or later; this server is Redis 7.0.15",
	} {
		if got := f.Refusal(form); got != want {
			t.Errorf("%s: %q, want %q", form, got, want)
		}
	}
}
