package play

import (
	"encoding/json"
	"maps"
	"slices"

	"locksim/scenes/progress"
)

// Clone is p deep-copied as its JSON round trip copies it, without the
// JSON: no map, slice or pointer shared (a lab place's scene cache aside:
// it is keyed by what the place holds), an omitempty map or slice that is
// empty left out (nil), the lab's policy compacted. class's
// TestCloneIsJSON holds it to the round trip.
func (p Position) Clone() Position {
	p.Settings = omitNil(p.Settings)
	p.Own = omitSlice(p.Own)
	if p.Prediction != nil {
		c := *p.Prediction
		p.Prediction = &c
	}
	if p.Quiz != nil {
		c := *p.Quiz
		c.Answers, c.Shown = slices.Clone(c.Answers), omitSlice(c.Shown)
		p.Quiz = &c
	}
	if p.Race != nil {
		p.Race = p.Race.clone()
	}
	if p.Trial != nil {
		p.Trial = p.Trial.clone()
	}
	if p.Lab != nil {
		c := p.Lab.clone()
		c.Moves = omitSlice(c.Moves)
		if c.Policy = progress.CloneRaw(c.Policy); c.Policy == nil {
			c.Policy = json.RawMessage("null") // not omitempty
		}
		p.Lab = c
	}
	return p
}

func omitNil[M ~map[K]V, K comparable, V any](m M) M {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

func omitSlice[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}
