package tui

import (
	"context"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// trialsPage is the trials as a page of the race scene (t): Trials itself
// stays a Bubble Tea model of its own, the whole program with -trials.
// esc closes it, and so does q once the trials have stopped (q stops them
// first).
type trialsPage struct{ *Trials }

func (t trialsPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		tk := t.com.TrialKeys
		if key.Matches(k, tk.Close) || key.Matches(k, tk.Stop) && !t.Running() {
			return nil, nil
		}
	}
	_, cmd := t.Trials.Update(msg)
	return t, cmd
}

// close stops the trials: the core lets go of them.
func (t trialsPage) close() { t.Close() }

// wait waits for the closed trials until ctx ends.
func (t trialsPage) wait(ctx context.Context) { t.Wait(ctx) }

// isTrials reports the trials page.
func isTrials(c Component) bool {
	_, ok := c.(trialsPage)
	return ok
}

func (t trialsPage) KeyMap() help.KeyMap { return trialHelp{t.Trials} }

// trialHelp is the trials page's keys as its help line says them.
type trialHelp struct{ t *Trials }

func (h trialHelp) ShortHelp() []key.Binding {
	k := h.t.com.TrialKeys
	variant := short(k.Prev, "←/→", "variant")
	switch {
	case h.t.Standalone:
		return []key.Binding{variant, short(k.Pane, "tab", "anomalies"), short(k.Stop, "q", "stop, then quit")}
	case h.t.anomaliesShown():
		return []key.Binding{variant, short(k.Up, "↑/↓", "kind"), short(k.Show, "enter", "show me one"), short(k.Stop, "q", "stop"), short(k.Close, "esc", "back")}
	}
	return []key.Binding{variant, short(k.Pane, "tab", "anomalies"), short(k.Stop, "q", "stop"), short(k.Close, "esc", "back")}
}

func (h trialHelp) FullHelp() [][]key.Binding {
	k := h.t.com.TrialKeys
	return [][]key.Binding{{k.Prev, k.Next, k.Stop, k.Close}, {k.Pane, k.Up, k.Down, k.Show}}
}
