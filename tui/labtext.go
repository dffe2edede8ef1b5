package tui

import (
	"locksim/lab"
	"locksim/views"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// faultList names a break's faults, each once: "a pause past the TTL",
// "a crash and a restart without persistence".
func faultList(moves []lab.Move) string {
	var names []string
	for _, m := range moves {
		if ph := m.Fault.Phrase(); !slices.Contains(names, ph) {
			names = append(names, ph)
		}
	}
	if len(names) == 0 {
		return "a fault"
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// indentRest is text's lines, the first after head, the others under it
// at indent columns.
func indentRest(head, text string, indent int) []string {
	lines := strings.Split(text, "\n")
	out := []string{head + lines[0]}
	for _, line := range lines[1:] {
		out = append(out, strings.Repeat(" ", indent)+line)
	}
	return out
}

// styleLines renders each line of text with style s on its own, so no
// line is padded to the widest.
func styleLines(s lipgloss.Style, text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = views.OneLine(s, line)
	}
	return strings.Join(lines, "\n")
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
