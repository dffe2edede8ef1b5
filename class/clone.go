package class

import (
	"maps"
	"slices"
)

// Clone is m deep-copied as its JSON round trip (the form a Redis hub
// keeps) copies it, without the JSON, which was a quarter of drawing the
// class's pages: no map, slice or pointer shared, an omitempty map or
// slice that is empty left out (nil), times without their monotonic
// reading. TestCloneIsJSON holds it to the round trip.
func (m Member) Clone() Member {
	m.Pos = m.Pos.Clone()
	m.Seen, m.StepAt, m.KeyAt = m.Seen.Round(0), m.StepAt.Round(0), m.KeyAt.Round(0)
	m.Prog = m.Prog.Clone()
	if len(m.Answers) == 0 {
		m.Answers = nil
	} else {
		c := make(map[string]Answer, len(m.Answers))
		for k, a := range m.Answers {
			c[k] = a.clone()
		}
		m.Answers = c
	}
	if len(m.Watches) == 0 {
		m.Watches = nil
	} else {
		m.Watches = slices.Clone(m.Watches)
		for i := range m.Watches {
			m.Watches[i].Start = m.Watches[i].Start.Round(0)
		}
	}
	return m
}

func (a Answer) clone() Answer {
	if len(a.Q.Settings) == 0 {
		a.Q.Settings = nil
	} else {
		a.Q.Settings = maps.Clone(a.Q.Settings)
	}
	a.At = a.At.Round(0)
	return a
}

// Clone is l deep-copied as its JSON round trip copies it (see
// Member.Clone).
func (l Lead) Clone() Lead {
	l.Pos = l.Pos.Clone()
	l.At = l.At.Round(0)
	return l
}
