package lab

import (
	"errors"
	"fmt"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// replySize is the bytes a reply's strings take, and a few for each
// element.
func replySize(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case []any:
		n := 16 * len(x)
		for _, e := range x {
			n += replySize(e)
		}
		return n
	}
	return 16
}

// spend counts n instructions and reports whether the run must stop.
func (c *budgetCtx) spend(n int) bool {
	if c.stop {
		return true
	}
	c.left -= n
	if c.left < 0 {
		c.spent = errors.New("stopped: the script ran past its budget of instructions (an endless loop?)")
		c.stop = true
		return true
	}
	c.tick -= n
	if c.tick <= 0 {
		c.tick = clockEvery
		if time.Now().After(c.until) {
			c.spent = errors.New("stopped: the script ran past its deadline")
			c.stop = true
			return true
		}
		if c.Context.Err() != nil {
			c.stop = true
			return true
		}
	}
	return false
}

func (c *budgetCtx) Done() <-chan struct{} {
	if c.spend(1) {
		return closed
	}
	return nil
}

// Spend is the pattern matcher's meter: one instruction's worth of steps.
func (c *budgetCtx) Spend() error {
	if c.spend(1) {
		return c.Err()
	}
	return nil
}

func (c *budgetCtx) Err() error {
	if c.spent != nil {
		return c.spent
	}
	return c.Context.Err()
}

// charge counts n bytes the run is about to make, and raises the run's
// end instead when they would take it past maxAlloc: a builtin calls it
// before it allocates, so no single call can ask for more.
func (h *Host) charge(L *lua.LState, n int) {
	c := &h.ctx
	if n < 0 || n > maxAlloc-c.bytes {
		c.bytes = maxAlloc + 1
		if c.spent == nil {
			c.spent = fmt.Errorf("stopped: the script made more than %d MB", maxAlloc>>20)
		}
		c.stop = true
		L.RaiseError("%s", c.spent.Error())
	}
	c.bytes += n
}
