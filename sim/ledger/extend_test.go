package ledger

import (
	"testing"

	"locksim/sim"
)

func (s *story) extend(at float64, actor, tok string, n int64, timed bool) *story {
	s.op(at, actor, sim.Op{Kind: sim.OpExtend, Form: sim.FormScript, Token: tok, TTL: lease}, n)
	(*s)[len(*s)-1].Timed = timed
	return s
}

// TestRenewalsOf: replies counted by reading; a watchdog's renewal with a
// token already refused is counted as unstopped, an explicit extension
// with an old handle is not (it is the client's own call).
func TestRenewalsOf(t *testing.T) {
	cases := []struct {
		name string
		s    func(s *story)
		want Renewals
	}{
		{"a watchdog keeps the lease", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 1, true).extend(20, "A", "a", 1, true)
		}, Renewals{Extended: 2}},
		{"frozen past the lease, another holds it", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 1, true).
				set(50, "B", "b", lease, true, true).extend(55, "A", "a", 0, true)
		}, Renewals{Extended: 1, Taken: 1}},
		{"a watchdog that did not stop", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(50, "A", "a", -1, true).extend(60, "A", "a", -1, true)
		}, Renewals{Gone: 2, Unstopped: 1}},
		{"an old handle after a re-acquire", func(s *story) {
			s.set(0, "A", "a", lease, true, true).rel(10, "A", "a", sim.FormScript, 1).
				extend(10, "A", "a", -1, false).set(10, "A", "a2", lease, true, true).
				extend(20, "A", "a", 0, false).extend(20, "A", "a2", 1, false)
		}, Renewals{Extended: 1, Taken: 1, Gone: 1}},
		{"another actor's extensions do not count", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "B", "b", 0, false)
		}, Renewals{}},
	}
	for _, c := range cases {
		var s story
		c.s(&s)
		l := Fold(s, s[len(s)-1].At, nil)
		if got := l.RenewalsOf("A"); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
	var s story
	s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 0, false).extend(11, "A", "a", -1, false)
	if r := Fold(s, sec(11), nil).RenewalsOf("A"); r.Refused() != 2 {
		t.Errorf("0 and -1 are both refusals: %+v", r)
	}
}
