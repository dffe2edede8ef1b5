package serve

import (
	"net/url"
	"testing"
	"time"

	"locksim/serve/termtest"
	"locksim/sim/simtest"
)

const tooMany = "too many new sessions from your address at once"

// TestCookielessFlood: 62 clients with no identity the server keeps (no
// key, no cookie), opened at once from one address, get
// DefaultNewPerAddress sessions between them; the rest are told to wait;
// a student at another address, and one who comes back from the
// flooding address (its key, its browser's cookie), get in; on both
// transports. Once the address has used its new identities a page served
// to a new browser there carries no cookie.
func TestCookielessFlood(t *testing.T) {
	t.Parallel()
	simtest.SkipUnlessSlow(t)
	onBoth(t, Config{Clock: newFakeClock()}, func(t *testing.T, s *Server, d termtest.Dialer, _ string) {
		flood := d.From("127.0.0.200")
		back := flood.New(t)
		back.OpenLight(t, termtest.At{}, 80, 24).Wait(t, "1  race")
		want := DefaultNewPerAddress
		if d.Name == "web" {
			want-- // the browser that comes back made its cookie
		}
		admitted := 0
		for range 62 {
			lt := flood.Anonymous(t).OpenLight(t, termtest.At{}, 80, 24)
			switch lt.WaitAny(t, "1  race", tooMany) {
			case "1  race":
				admitted++
			case "":
				t.FailNow()
			}
		}
		if admitted != want {
			t.Fatalf("62 clients with no identity from one address: %d admitted, want %d", admitted, want)
		}
		back.OpenLight(t, termtest.At{}, 80, 24).Wait(t, "1  race")
		d.From("127.0.0.2").Anonymous(t).OpenLight(t, termtest.At{}, 80, 24).Wait(t, "1  race")
		if d.Name == "web" {
			br := termtest.NewBrowserFrom(t, "127.0.0.200")
			base := d.Base()
			if code := br.Get(base, "/"); code != 200 {
				t.Fatalf("the page: %d", code)
			}
			u, _ := url.Parse(base)
			if c := br.Client.Jar.Cookies(u); len(c) != 0 {
				t.Fatalf("a new browser at the flooding address was given a cookie: %v", c)
			}
		}
	})
}

// TestClassBehindOneAddress: a class of 60 behind one router (one
// address), none with a key or a cookie yet, all get in within a minute:
// each one told to wait tries again when the wait is over; on both
// transports.
func TestClassBehindOneAddress(t *testing.T) {
	t.Parallel()
	simtest.SkipUnlessSlow(t)
	clock := newFakeClock()
	onBoth(t, Config{Clock: clock}, func(t *testing.T, s *Server, d termtest.Dialer, _ string) {
		room := d.From("127.0.0.3")
		start := clock.Now()
		for i := 0; i < 60; {
			lt := room.Anonymous(t).OpenLight(t, termtest.At{}, 80, 24)
			switch lt.WaitAny(t, "1  race", tooMany) {
			case "1  race":
				i++
			case tooMany:
				clock.Advance(DefaultNewEvery)
			default:
				t.FailNow()
			}
		}
		if took := clock.Now().Sub(start); took > time.Minute {
			t.Fatalf("a class of 60 behind one address took %v to get in", took)
		}
		waitSessions(t, s, 60)
	})
}

// TestSessionsPerAddress: -max-sessions-per-address, when set, caps one
// address's terminal sessions, with a line; another address gets in.
func TestSessionsPerAddress(t *testing.T) {
	t.Parallel()
	onBoth(t, Config{SessionsPerAddress: 2}, func(t *testing.T, s *Server, d termtest.Dialer, _ string) {
		one := d.From("127.0.0.5")
		for range 2 {
			one.New(t).Open(t, termtest.At{}, 80, 24).WaitFor("1  race")
		}
		endsWith(t, d, one.New(t).Open(t, termtest.At{}, 80, 24), true,
			"locksim: an address may have 2 sessions open at once and yours has 2; try again as sessions close")
		d.From("127.0.0.6").New(t).Open(t, termtest.At{}, 80, 24).WaitFor("1  race")
	})
}
