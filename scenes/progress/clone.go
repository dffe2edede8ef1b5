package progress

import (
	"bytes"
	"encoding/json"
	"maps"
)

// Clone is p deep-copied as its JSON round trip copies it, without the
// JSON (a class hub keeps rows as copies of their own): no map or slice
// shared, an omitempty map or text that is empty left out (nil), each raw
// place compacted. TestCloneIsJSON holds it to the round trip.
func (p Progress) Clone() Progress {
	p.Done, p.Answers, p.Scores = maps.Clone(p.Done), maps.Clone(p.Answers), maps.Clone(p.Scores)
	p.Moment.Settings = cloneOmit(p.Moment.Settings)
	p.Place, p.Lab = CloneRaw(p.Place), CloneRaw(p.Lab)
	if len(p.Places) == 0 {
		p.Places = nil
	} else {
		c := make(map[string]json.RawMessage, len(p.Places))
		for k, v := range p.Places {
			if c[k] = CloneRaw(v); c[k] == nil {
				c[k] = json.RawMessage("null") // as a map's nil value goes through JSON
			}
		}
		p.Places = c
	}
	p.Levels = cloneOmit(p.Levels)
	return p
}

// cloneOmit is an omitempty map as a JSON round trip copies it.
func cloneOmit[M ~map[K]V, K comparable, V any](m M) M {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

// CloneRaw is an omitempty raw JSON text as a round trip copies it:
// nil when empty, else compacted into an array of its own.
func CloneRaw(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, r) != nil {
		return bytes.Clone(r)
	}
	return b.Bytes()
}
