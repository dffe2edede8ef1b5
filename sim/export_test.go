package sim

import "context"

// The version check, for sim_test.
var (
	ServerVersion = serverVersion
	AtLeast       = atLeast
)

// Resume ends a hold as the next move would, without the move.
func (r *Run) Resume(ctx context.Context) error { return r.resume(ctx) }
