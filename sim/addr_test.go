package sim

import "testing"

func TestExpandAddr(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"127.0.0.1:6390", "redis://127.0.0.1:6390/0", true},
		{"localhost:6379", "redis://localhost:6379/0", true},
		{"redis-1.example.com:7000", "redis://redis-1.example.com:7000/0", true},
		{"[::1]:6379", "redis://[::1]:6379/0", true},
		{"redis://a:1/2", "redis://a:1/2", false},
		{"localhost", "localhost", false},
		{":6379", ":6379", false},
		{"localhost:0", "localhost:0", false},
		{"localhost:65536", "localhost:65536", false},
		{"localhost:06379", "localhost:06379", false},
		{"localhost:port", "localhost:port", false},
		{"two words:6379", "two words:6379", false},
		{"user:pw@host:6379", "user:pw@host:6379", false},
		{"-bad-:6379", "-bad-:6379", false},
		{"a/b:6379", "a/b:6379", false},
	} {
		got, ok := ExpandAddr(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ExpandAddr(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	// what parseURL makes of host:port is what it makes of the URL
	o, err := parseURL("127.0.0.1:6390")
	if err != nil || o.Addr != "127.0.0.1:6390" || o.DB != 0 {
		t.Fatalf("parseURL(127.0.0.1:6390) = %+v, %v", o, err)
	}
}
