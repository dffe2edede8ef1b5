package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestLabTTLFieldSaysWhatItKeeps: the TTL field shows all it keeps, says
// so when it is full rather than dropping what is typed silently, and its
// refusals name the field as the screen does (it said "ttl_ms must be at
// least 1", and showed [999999 ] for a saved 99999999 ms).
func TestLabTTLFieldSaysWhatItKeeps(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, "")
	drive(t, a, labPresses("[tab][tab][backspace][backspace][backspace]0[ctrl+s]")...)
	if v := ansi.Strip(a.View()); !strings.Contains(v, "TTL must be at least 1ms") || strings.Contains(v, "ttl_ms") {
		t.Errorf("a TTL of 0 should be refused naming the field TTL:\n%s", v)
	}
	drive(t, a, labPresses("[backspace]99999999999999999999h")...)
	v := ansi.Strip(a.View())
	if !strings.Contains(v, "TTL [99999999") || !strings.Contains(v, "field holds 8 characters") {
		t.Errorf("a full TTL field should show all it keeps and say it is full:\n%s", v)
	}
	drive(t, a, labPresses("[ctrl+s]")...)
	if v := ansi.Strip(a.View()); !strings.Contains(v, "TTL must be at most 24h") {
		t.Errorf("a TTL over a day should be refused, not saved:\n%s", v)
	}
}
