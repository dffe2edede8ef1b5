package scenes

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"locksim/sim"
)

// updating reports -update, the flag teatest's golden package defines: it
// rewrites the golden files in testdata/.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// embedded starts an embedded backend for one test.
func embedded(t testing.TB) *sim.Backend {
	t.Helper()
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// drive feeds msgs to the app one at a time, and before the next one runs
// every command the last returned, feeding their messages back in, as the
// Bubble Tea runtime would once the work is done (but without timers: tests
// never press space). So a key is never pressed while the player is busy.
func drive(t testing.TB, a *App, msgs ...tea.Msg) {
	t.Helper()
	for _, msg := range msgs {
		_, cmd := a.Update(msg)
		if cmd == nil {
			continue
		}
		m := cmd()
		if _, quit := m.(tea.QuitMsg); m != nil && !quit {
			drive(t, a, m)
		}
	}
}

// keys turns a string of key presses into messages: "nnb" is n, n, b.
// Named keys go in brackets: "[right][tab]".
func keys(s string) []tea.Msg {
	var out []tea.Msg
	for len(s) > 0 {
		if s[0] == '[' {
			end := 1
			for end < len(s) && s[end] != ']' {
				end++
			}
			name := s[1:end]
			s = s[min(end+1, len(s)):]
			kt := map[string]tea.KeyType{"right": tea.KeyRight, "left": tea.KeyLeft, "tab": tea.KeyTab, "enter": tea.KeyEnter, "home": tea.KeyHome, "up": tea.KeyUp, "down": tea.KeyDown}[name]
			out = append(out, tea.KeyMsg{Type: kt})
			continue
		}
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(s[0])}})
		s = s[1:]
	}
	return out
}

// openScene starts the app on scene id with the seed, sized w x h, and
// presses the given keys (see keys).
func openScene(t testing.TB, b *sim.Backend, id string, seed uint64, w, h int, presses string) *App {
	t.Helper()
	a, err := NewApp(b, id, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Shutdown)
	drive(t, a, tea.WindowSizeMsg{Width: w, Height: h})
	if cmd := a.Init(); cmd != nil {
		drive(t, a, cmd())
	}
	drive(t, a, keys(presses)...)
	return a
}

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./scenes -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}
