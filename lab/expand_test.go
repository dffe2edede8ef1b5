package lab

import (
	"strconv"
	"strings"
	"testing"
)

// replacerExpand is expand as it was written before, one
// strings.NewReplacer per call: the reference TestExpandAsTheReplacer
// holds expand to, and BenchmarkExpand's "replacer".
func replacerExpand(args []string, key, token string, ttlMS int64) []string {
	out := make([]string, len(args))
	r := strings.NewReplacer("{key}", key, "{token}", token,
		"{ttl_s}", strconv.FormatInt((ttlMS+999)/1000, 10), "{ttl}", strconv.FormatInt(ttlMS, 10))
	for i, a := range args {
		out[i] = r.Replace(a)
	}
	return out
}

// TestExpandAsTheReplacer: expand fills what a strings.Replacer of the
// four placeholders filled, for arguments with none, several, nested,
// unclosed and unknown braces, and for a token and key that hold a
// placeholder's text (not filled again).
func TestExpandAsTheReplacer(t *testing.T) {
	args := []string{"", "SET", "{key}", "{token}", "{ttl}", "{ttl_s}", "{{key}}", "{key}{token}{ttl}{ttl_s}",
		"{ttl_s}{ttl}", "pre{key}post", "{", "}", "{ke", "{key", "{unknown}", "{ttl_}", "{{{", "é{token}é",
		"a{b{key}c}d", "{ttl}}", "{TTL}"}
	for _, v := range []struct {
		key, token string
		ttl        int64
	}{{"locksim:lock", "token-A", 1500}, {"{token}", "{key}{ttl}", 30000}, {"", "", 0}, {"k", "<&>", 1}} {
		for _, a := range args {
			got := expand([]string{a, "x"}, v.key, v.token, v.ttl)
			want := replacerExpand([]string{a, "x"}, v.key, v.token, v.ttl)
			if got[0] != want[0] || got[1] != "x" {
				t.Errorf("expand(%q) with key %q, token %q, ttl %d = %q, the replacer gave %q", a, v.key, v.token, v.ttl, got, want)
			}
		}
	}
}

// BenchmarkExpand is one step's expansion of a SET of the lab's locks,
// as expand does it and as the per-call replacer did.
func BenchmarkExpand(b *testing.B) {
	args := []string{"SET", "{key}", "{token}", "NX", "PX", "{ttl}"}
	for _, c := range []struct {
		name   string
		expand func([]string, string, string, int64) []string
	}{{"expand", expand}, {"replacer", replacerExpand}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.expand(args, LockKey, "token-A", 30000)
			}
		})
	}
}
