package classroom

import (
	"context"
	"slices"

	"locksim/class"
	"locksim/scenes"
)

// Asking are the scenes whose question a class seated on this server has
// open (serve.Asker): each class with a session here, its instructor's
// place read from the hub, asking by class.Asking. A class whose place
// cannot be read (its store out of reach) may be asking any: every scene
// that asks is held then, erring towards holding too much.
func (c *Classes) Asking(ctx context.Context) map[string]bool {
	c.mu.Lock()
	var codes []string
	for _, st := range c.seats {
		codes = append(codes, st.seat.Info().Code)
	}
	c.mu.Unlock()
	slices.Sort(codes)
	var out map[string]bool
	for _, code := range slices.Compact(codes) {
		if out == nil {
			out = map[string]bool{}
		}
		l, ok, err := c.hub.LeadOf(ctx, code)
		switch {
		case err != nil:
			for _, sc := range scenes.All() {
				if sc.Predict != nil {
					out[sc.ID] = true
				}
			}
		case ok:
			if scene, asks := class.Asking(l); asks {
				out[scene] = true
			}
		}
	}
	return out
}
