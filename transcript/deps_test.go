package transcript

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// screenPackages are what a transcript never depends on, even through
// another package: the screen, its styles and the terminal libraries
// (termenv is lipgloss's colour profile).
var screenPackages = []string{
	"locksim/tui",
	"locksim/views",
	"github.com/charmbracelet/lipgloss",
	"github.com/charmbracelet/bubbles",
	"github.com/charmbracelet/bubbletea",
	"github.com/muesli/termenv",
}

// onScreen is the packages of deps that are, or are under, one of
// screenPackages.
func onScreen(deps []string) []string {
	var out []string
	for _, d := range deps {
		for _, s := range screenPackages {
			if d == s || strings.HasPrefix(d, s+"/") {
				out = append(out, d)
			}
		}
	}
	return out
}

// TestNoScreenInTheImportGraph: the whole import graph of transcript (go
// list -deps, which follows every package it imports, not only its own
// import lines) holds nothing of the screen.
func TestNoScreenInTheImportGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	// a list that misses what transcript does import reads nothing
	for _, want := range []string{"locksim/transcript", "locksim/scenes", "locksim/sim", "locksim/race"} {
		if !slices.Contains(deps, want) {
			t.Fatalf("go list -deps lacks %s: %v", want, deps)
		}
	}
	if bad := onScreen(deps); len(bad) > 0 {
		t.Errorf("transcript depends on the screen through %v", bad)
	}
}

// TestOnScreen: the check catches a screen package and its subpackages,
// and lets a package whose name only starts alike be.
func TestOnScreen(t *testing.T) {
	got := onScreen([]string{"locksim/scenes", "locksim/views", "github.com/charmbracelet/bubbles/key",
		"github.com/charmbracelet/bubbletea", "locksim/tuition", "github.com/charmbracelet/x/ansi"})
	want := []string{"locksim/views", "github.com/charmbracelet/bubbles/key", "github.com/charmbracelet/bubbletea"}
	if !slices.Equal(got, want) {
		t.Errorf("onScreen = %v, want %v", got, want)
	}
}
