package classroom

import (
	"context"

	"locksim/class"
)

// Asking are the scenes whose question a class of this server's class
// store has open (serve.Asker): every class whose instructor beats in the
// store, whichever server its sessions are on, so a class seated on
// another server of a shared store holds this one's pages and commands
// too; a class closed, or whose instructor left or stopped beating
// class.Gone ago, holds none (class.Held).
// A store out of reach may have any class asking any question: every
// scene that asks is held then, erring towards holding too much.
func (c *Classes) Asking(ctx context.Context) map[string]bool {
	return class.Held(ctx, c.hub)
}
