package tui

import (
	"strings"
	"testing"
)

// H hangs the picked node and wakes it again; the node line says so.
func TestHangKey(t *testing.T) {
	a := openScene(t, embedded(t), "redlock", 1, 80, 24, "CH")
	if n := a.pl.Snap.Nodes[2]; n.Name != "C" || !n.Hung {
		t.Fatalf("after C then H, node C should hang: %+v", n)
	}
	if v := a.View(); !strings.Contains(v, "hung · 0 waiting") {
		t.Errorf("the node line should say C hangs:\n%s", v)
	}
	drive(t, a, keys("H")...)
	if n := a.pl.Snap.Nodes[2]; n.Hung {
		t.Fatalf("a second H should wake C: %+v", n)
	}
}
