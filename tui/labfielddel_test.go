package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestLabFieldTakesADeletion: a policy field refuses what is typed into
// it that it does not take, never a deletion: deleting the o of the
// watchdog's "off" leaves "ff" (which typed it would refuse), and the
// field can then be emptied. The deletion was refused, the field kept
// "off", and it could not be emptied that way.
func TestLabFieldTakesADeletion(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, "")
	drive(t, a, labPresses("[tab][tab][tab][tab][tab]"+strings.Repeat("[backspace]", 10)+"off")...)
	if got := a.labPage().fields[fieldWatchdog].Value(); got != "off" {
		t.Fatalf("the watchdog field holds %q; want off typed", got)
	}
	drive(t, a, tea.KeyMsg{Type: tea.KeyHome}, tea.KeyMsg{Type: tea.KeyDelete})
	if got := a.labPage().fields[fieldWatchdog].Value(); got != "ff" {
		t.Errorf("the watchdog field holds %q after its o was deleted; want ff", got)
	}
	drive(t, a, labPresses("[delete][delete]")...)
	if got := a.labPage().fields[fieldWatchdog].Value(); got != "" {
		t.Errorf("the watchdog field holds %q; want it emptied", got)
	}
}
