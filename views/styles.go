// Package views draws locksim's screens: lipgloss styles, the key map and
// pure render functions of plain data. It never talks to Redis.
package views

import "github.com/charmbracelet/lipgloss"

// Styles are the colours and borders every render function shares.
type Styles struct {
	Title, Dim, Bold, Good, Bad, Warn, Accent, Key lipgloss.Style
	Card, CardSel                                  lipgloss.Style
	Rule                                           lipgloss.Style
}

// DefaultStyles returns the palette; colours fall back to plain text on an
// ASCII terminal, so every state is also said in words.
func DefaultStyles() Styles {
	return Styles{
		Title:   lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("213")),
		Dim:     lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		Bold:    lipgloss.NewStyle().Bold(true),
		Good:    lipgloss.NewStyle().Foreground(lipgloss.Color("42")).Bold(true),
		Bad:     lipgloss.NewStyle().Foreground(lipgloss.Color("203")).Bold(true),
		Warn:    lipgloss.NewStyle().Foreground(lipgloss.Color("214")),
		Accent:  lipgloss.NewStyle().Foreground(lipgloss.Color("81")),
		Key:     lipgloss.NewStyle().Foreground(lipgloss.Color("81")).Bold(true),
		Card:    lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("240")).Padding(0, 1),
		CardSel: lipgloss.NewStyle().Border(lipgloss.ThickBorder()).BorderForeground(lipgloss.Color("213")).Padding(0, 1),
		Rule:    lipgloss.NewStyle().Foreground(lipgloss.Color("240")),
	}
}
