package tui

import (
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/sim"
)

// TestNewFormsAsk walks the two stories of Redis 8.4's SET conditions on
// the embedded server: extend's GET story asks what A's SET … IFEQ … GET
// answers once B holds the lapsed lock (B's token: GET's old value, though
// nothing was set), and options' IFNE setting asks what w1's SET … IFNE
// maintenance gets on the missing key (OK: the key is made). While the
// question stands the reply has not been sent; after the answer the screen
// shows it, and the choice it made true.
func TestNewFormsAsk(t *testing.T) {
	t.Parallel()
	cases := []struct {
		scene, knob, value, question, actor string
		actual                              int
	}{
		{"extend", "story", "GET after takeover", "What does the renewal answer?", "A", 1},
		{"options", "NX", "IFNE", "w1 sends SET key token IFNE maintenance", "w1", 1},
	}
	for _, c := range cases {
		t.Run(c.scene, func(t *testing.T) {
			t.Parallel()
			p := scenes.Params{c.knob: knobIndex(t, c.scene, c.knob, c.value)}
			a, _ := openCourse(t, Options{Seed: 1, Scene: c.scene, Settings: p}, "")
			for i := 0; i < 20 && !a.pl.Asking; i++ {
				drive(t, a, keys("n")...)
			}
			v := strings.Join(strings.Fields(a.View()), " ")
			if !a.pl.Asking || !strings.Contains(v, c.question) {
				t.Fatalf("%s (%s) should ask %q:\n%s", c.scene, c.value, c.question, a.View())
			}
			asked := a.View()
			if e, ok := lastOf(a.pl.Snap.Events, c.actor, ""); ok && e.Op != nil && (e.Op.Form == sim.FormSetIfeqGet || e.Op.Form == sim.FormSetIfne) {
				t.Fatalf("the reply the question asks about was sent before the answer: %+v\n%s", e, asked)
			}
			drive(t, a, keys("1")...)
			e, ok := lastOf(a.pl.Snap.Events, c.actor, "")
			if !ok || e.Op == nil || a.pl.Actual != c.actual {
				t.Fatalf("%s's last command %+v; the question's answer is %d, want %d:\n%s", c.actor, e, a.pl.Actual, c.actual, a.View())
			}
			reply := e.Reply
			if c.scene == "extend" {
				// the renewal answers B's token, shortened on screen as
				// every token is
				b := sent(a.pl.Snap.Events, "B", "SET")
				if e.Op.Form != sim.FormSetIfeqGet || len(b) != 1 || e.Val != b[0].Op.Token {
					t.Fatalf("A's renewal %q answered %q, want B's token", e.Cmd, e.Reply)
				}
				reply = `"` + b[0].Op.Token[:8]
			} else if e.Op.Form != sim.FormSetIfne || e.Reply != "OK" {
				t.Fatalf("w1's SET %q answered %q, want OK", e.Cmd, e.Reply)
			}
			v = strings.Join(strings.Fields(a.View()), " ")
			if !strings.Contains(v, reply) || !strings.Contains(v, strings.Join(strings.Fields(a.pl.Choices()[c.actual]), " ")) {
				t.Errorf("the reveal should show the reply %s and the choice it made true:\n%s", reply, v)
			}
			if strings.Contains(asked, reply) && c.scene == "extend" {
				t.Errorf("the reply showed before the answer:\n%s", asked)
			}
		})
	}
}
