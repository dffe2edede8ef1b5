package check

import (
	"io"
	"time"
)

// Visualize writes porcupine's own visualisation of h (one self-contained
// HTML file for a browser) to w: every model's partitions side by side (the
// server's keys node by node, the client's mutex per lock, the resource),
// each client's operations on its own row, the longest order each model
// could place, and the faults (pauses, crashes, clock jumps, restarts,
// partitions, slow and hung nodes) as annotations on the same clock. The
// check behind it is bounded by timeout like Check. It returns w's error.
func Visualize(w io.Writer, h History, timeout time.Duration) error {
	return visualize(w, h, timeout)
}
