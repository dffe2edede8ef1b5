package views

import (
	"reflect"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestBindIsNewBinding: Bind and BindOff make the binding key.NewBinding
// makes with the same keys, help and disabled option.
func TestBindIsNewBinding(t *testing.T) {
	cases := []struct {
		got, want key.Binding
	}{
		{Bind("→/n", "step", "right", "n"), key.NewBinding(key.WithKeys("right", "n"), key.WithHelp("→/n", "step"))},
		{Bind("", "", "-", "_"), key.NewBinding(key.WithKeys("-", "_"))},
		{BindOff("e/1", "efficiency lock", "e"), key.NewBinding(key.WithKeys("e"), key.WithHelp("e/1", "efficiency lock"), key.WithDisabled())},
	}
	for i, c := range cases {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("case %d: %#v, want %#v", i, c.got, c.want)
		}
	}
	if b := BindOff("e/1", "x", "e"); b.Enabled() {
		t.Error("BindOff's binding is enabled")
	}
}
