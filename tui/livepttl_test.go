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

// TestLogDurationsSentReadInStoryTime: on a live server at ÷20 the
// durations a command sends (PX's, EX's, PEXPIRE's) are the wire's; its
// log line keeps the command as sent and labels each with its story time
// beside the reply, as a PTTL's reply is. At 80 columns the command reads
// whole and so does the label (a row of its own). On the embedded server,
// at ÷1, and for a command that sends no duration, no label.
func TestLogDurationsSentReadInStoryTime(t *testing.T) {
	cmd := func(reply string, args ...string) sim.Event {
		return sim.Event{Kind: sim.Command, Actor: "A", Node: sim.LockNode, At: time.Second, Args: args, Cmd: strings.Join(args, " "), Reply: reply}
	}
	cases := []struct {
		live  bool
		scale int
		e     sim.Event
		want  string
	}{
		{true, 20, cmd("OK", "SET", "resource:lock", "tok", "NX", "PX", "1500"), "OK (1500 ms on the wire: 30 s of story)"},
		{true, 20, cmd("(nil)", "SET", "resource:lock", "tok", "NX", "EX", "2"), "(nil) (2 s on the wire: 40 s of story)"},
		{true, 20, cmd("(integer) 1", "PEXPIRE", "resource:lock", "1500"), "(integer) 1 (1500 ms on the wire: 30 s of story)"},
		{true, 20, cmd(`"tok"`, "GET", "resource:lock"), `"tok"`},
		{true, 1, cmd("OK", "SET", "resource:lock", "tok", "NX", "PX", "30000"), "OK"},
		{false, 1, cmd("OK", "SET", "resource:lock", "tok", "NX", "PX", "30000"), "OK"},
	}
	st := views.NewStyles(lipgloss.NewRenderer(io.Discard), false)
	for _, c := range cases {
		snap := sim.Snapshot{Live: c.live, Scale: c.scale, Events: []sim.Event{c.e}}
		lines := logLines(snap, "", false, 8, false)
		if len(lines) != 1 || lines[0].Reply != c.want || lines[0].Text != c.e.Cmd {
			t.Errorf("live %v ÷%d, %s: log line %q → %q, want %q → %q", c.live, c.scale, c.e.Cmd, lines[0].Text, lines[0].Reply, c.e.Cmd, c.want)
			continue
		}
		drawn := views.Log(st, views.Unfold(st, lines, 80), 80, 4, 0)
		label := strings.TrimPrefix(c.want, c.e.Reply)
		if !strings.Contains(drawn, c.e.Cmd) || !strings.Contains(drawn, strings.TrimSpace(label)) {
			t.Errorf("live %v ÷%d at 80 columns:\n%s\nshould read %q and %q whole", c.live, c.scale, drawn, c.e.Cmd, label)
		}
	}
}
