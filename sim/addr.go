package sim

import (
	"net"
	"strconv"
	"strings"
)

// ExpandAddr reads host:port, as redis-cli users type it, as the URL
// redis://host:port/0 and says so with ok. Anything else (a URL, a host
// without a port, a port that is not 1 to 65535, a host with characters
// no host name or address has) is returned unchanged with ok false, for
// the URL parser to accept or refuse.
func ExpandAddr(raw string) (string, bool) {
	if strings.Contains(raw, "://") {
		return raw, false
	}
	host, port, err := net.SplitHostPort(raw)
	if err != nil || host == "" {
		return raw, false
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
		return raw, false
	}
	if ip := net.ParseIP(host); ip == nil && !hostName(host) {
		return raw, false
	}
	return "redis://" + net.JoinHostPort(host, port) + "/0", true
}

// hostName reports whether s is a DNS host name: labels of letters,
// digits and inner hyphens, joined by dots.
func hostName(s string) bool {
	if len(s) > 253 {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}
