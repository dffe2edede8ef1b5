package tui

import (
	"io"
	"strings"
	"testing"
	"time"

	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/lipgloss"
)

// TestLogPTTLReadsInStoryTime: on a live server at ÷20 a PTTL's reply is
// the wire's milliseconds; its log line keeps it as the server sent it and
// gives it in story time too, as the key's line beside it reads. A reply
// on the embedded server (story time is the wire's), and -1 or -2, get no
// label.
func TestLogPTTLReadsInStoryTime(t *testing.T) {
	pttl := func(n int64, reply string) sim.Event {
		return sim.Event{Kind: sim.Command, Actor: "A", At: 10 * time.Second, Args: []string{"PTTL", "resource:lock"},
			Cmd: "PTTL resource:lock", Reply: reply, Val: n}
	}
	cases := []struct {
		live  bool
		scale int
		e     sim.Event
		want  string
	}{
		{true, 20, pttl(1000, "(integer) 1000"), "(integer) 1000 (ms on the wire: 20 s of story)"},
		{true, 20, pttl(1500, "(integer) 1500"), "(integer) 1500 (ms on the wire: 30 s of story)"},
		{true, 20, pttl(-2, "(integer) -2"), "(integer) -2"},
		{true, 20, pttl(-1, "(integer) -1"), "(integer) -1"},
		{true, 1, pttl(20000, "(integer) 20000"), "(integer) 20000"},
		{false, 1, pttl(20000, "(integer) 20000"), "(integer) 20000"},
	}
	for _, c := range cases {
		snap := sim.Snapshot{Live: c.live, Scale: c.scale, Events: []sim.Event{c.e}}
		lines := logLines(snap, "", false, 8, false)
		if len(lines) != 1 || lines[0].Reply != c.want {
			t.Errorf("live %v ÷%d, %s: log reply %q, want %q", c.live, c.scale, c.e.Reply, lines[0].Reply, c.want)
		}
	}
	// the key's line says the same story time
	st := views.NewStyles(lipgloss.NewRenderer(io.Discard), false)
	snap := sim.Snapshot{Live: true, Scale: 20}
	line := keyLine(st, sim.KeyState{Name: "resource:lock", Type: "string", Value: "x", PTTL: 1500}, snap, 120)
	if !strings.Contains(line, "PTTL 1500 ms (30 s of story)") {
		t.Errorf("the key's line %q should read PTTL 1500 ms (30 s of story)", line)
	}
}
