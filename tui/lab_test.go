package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
)

// labPresses turns a string of presses into key messages for the lab:
// as keys does, with the control keys the editor needs in brackets:
// [ctrl+r], [ctrl+l], [ctrl+s], [ctrl+home], [ctrl+k], [delete],
// [backspace], [shift+tab]; "\n" is enter.
func labPresses(s string) []tea.Msg {
	named := map[string]tea.KeyType{"ctrl+r": tea.KeyCtrlR, "ctrl+l": tea.KeyCtrlL, "ctrl+s": tea.KeyCtrlS,
		"ctrl+home": tea.KeyCtrlHome, "ctrl+k": tea.KeyCtrlK, "delete": tea.KeyDelete, "backspace": tea.KeyBackspace,
		"shift+tab": tea.KeyShiftTab, "ctrl+end": tea.KeyCtrlEnd}
	var out []tea.Msg
	for len(s) > 0 {
		if s[0] == '\n' {
			out = append(out, tea.KeyMsg{Type: tea.KeyEnter})
			s = s[1:]
			continue
		}
		if s[0] == '[' {
			end := strings.IndexByte(s, ']')
			if kt, ok := named[s[1:end]]; ok {
				out = append(out, tea.KeyMsg{Type: kt})
				s = s[end+1:]
				continue
			}
			out = append(out, keys(s[:end+1])...)
			s = s[end+1:]
			continue
		}
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(s[0])}})
		s = s[1:]
	}
	return out
}

// clearPart is the presses that empty the part in focus: to its start,
// then each line cut and the line break after it deleted.
func clearPart(lines int) string {
	return "[ctrl+home]" + strings.Repeat("[ctrl+k][delete]", lines+1)
}

// TestLabFromTheContents: the lab is a line of the contents after the
// single-instance scenes; enter opens its levels, esc comes back to the
// contents with the lab still selected, and the scenes' numbering is the
// registry's.
func TestLabFromTheContents(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	a.toc.menu.FilterInput.Cursor.SetMode(cursor.CursorStatic) // a blink's command runs for ever
	var ids []string
	for _, it := range a.toc.menu.Items() {
		ids = append(ids, it.(entry).id)
	}
	at := strings.Index(strings.Join(ids, " "), "key-naming lab redlock")
	if at < 0 {
		t.Fatalf("the lab should follow key-naming, before redlock: %v", ids)
	}
	drive(t, a, keys("/lab[enter]")...)
	if a.lab == nil || a.contents {
		t.Fatalf("/lab enter should open the lab:\n%s", a.View())
	}
	if v := a.View(); !strings.Contains(v, "break this lock") || !strings.Contains(v, "fix this lock") {
		t.Errorf("the lab's first page should list both kinds of level:\n%s", v)
	}
	drive(t, a, keys("[esc]")...)
	if a.lab != nil || !a.contents {
		t.Fatalf("esc on the levels should go back to the contents:\n%s", a.View())
	}
	if e := a.toc.menu.SelectedItem().(entry); !e.lab {
		t.Errorf("back in the contents the lab should be selected, not %s", e.id)
	}
	drive(t, a, keys("[down][enter]")...)
	if a.contents || a.pl.Scene.ID != "redlock" {
		t.Errorf("the line after the lab should open redlock, got %s", a.pl.Scene.ID)
	}
}
