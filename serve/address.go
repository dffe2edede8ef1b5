package serve

import (
	"fmt"
	"time"
)

// The defaults of the new identities one address may make
// (Config.NewPerAddress, NewEvery): a burst, then one more each NewEvery.
// A class of 60 behind one router gets in within a minute (40 at once,
// the other 20 over the next 40 s, each told when to try again); 62
// cookieless tabs in a second do not.
const (
	DefaultNewPerAddress = 40
	DefaultNewEvery      = 2 * time.Second
)

// bucket is a token bucket: up to burst tokens, one more each every.
type bucket struct {
	tokens float64
	at     time.Time
}

// buckets are token buckets by address, all of one burst and rate.
type buckets struct {
	burst int
	every time.Duration
	by    map[string]*bucket
}

// take takes a token of addr's bucket at now, or says how long until one
// is there.
func (b *buckets) take(addr string, now time.Time) (ok bool, wait time.Duration) {
	if b.by == nil {
		b.by = map[string]*bucket{}
	}
	if len(b.by) >= maxAddresses {
		b.prune(now)
	}
	k, found := b.by[addr]
	if !found {
		k = &bucket{tokens: float64(b.burst), at: now}
		b.by[addr] = k
	}
	k.tokens = min(float64(b.burst), k.tokens+float64(now.Sub(k.at))/float64(b.every))
	k.at = now
	if k.tokens >= 1 {
		k.tokens--
		return true, 0
	}
	return false, time.Duration((1 - k.tokens) * float64(b.every))
}

// left is how many tokens addr's bucket holds at now.
func (b *buckets) left(addr string, now time.Time) float64 {
	k, ok := b.by[addr]
	if !ok {
		return float64(b.burst)
	}
	return min(float64(b.burst), k.tokens+float64(now.Sub(k.at))/float64(b.every))
}

// wait is how long until addr's bucket holds a token again.
func (b *buckets) wait(addr string, now time.Time) time.Duration {
	l := b.left(addr, now)
	if l >= 1 {
		return 0
	}
	return time.Duration((1 - l) * float64(b.every))
}

// maxAddresses is how many addresses' buckets are kept before the full
// ones are forgotten (a full bucket is the same as none).
const maxAddresses = 4096

// prune forgets the buckets that have filled again by now.
func (b *buckets) prune(now time.Time) {
	for addr, k := range b.by {
		if k.tokens+float64(now.Sub(k.at))/float64(b.every) >= float64(b.burst) {
			delete(b.by, addr)
		}
	}
}

// newIdentity takes one of addr's new identities (a cookie minted, a
// keyless session's fresh reconnect token), or returns the line that
// refuses it; s.mu is held.
func (s *Server) newIdentity(addr string) string {
	ok, wait := s.fresh.take(addr, s.clock.Now())
	if ok {
		return ""
	}
	return fmt.Sprintf("locksim: too many new sessions from your address at once; try again in %s (a returning student, by key, reconnect token or the browser's cookie, is let in)", span(max(wait, time.Second)))
}

// newCookie reports whether a browser at addr may be given a new id
// cookie now: it takes one of the address's new identities.
func (s *Server) newCookie(addr string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newIdentity(addr) == ""
}
