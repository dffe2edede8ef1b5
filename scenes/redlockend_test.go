package scenes

import (
	"strings"
	"testing"

	"locksim/sim/ledger"
)

// The end of "3 down": c1 counted 2 of 5, and the count's own step tried
// the release on every node (A and B deleted its token, C, D and E were
// not sent it). c1's card keeps saying so through the last step, and the
// last readout says the release already went out, not that there was
// nothing to release.
func TestRedlockThreeDownEndKeepsTheRelease(t *testing.T) {
	sc := Find("redlock")
	card := func(v Frame) string {
		for _, c := range Explain(sc, v).Cards {
			if c.Name == "c1" {
				return c.Lines[1]
			}
		}
		t.Fatal("no card for c1")
		return ""
	}
	const want = "no lock 2/5 · release: C,D,E failed"
	_, v := readoutAfter(t, "redlock", story("3 down"), "c1 counts")
	// the card's claims, checked against the replies: A and B deleted,
	// C, D and E refused the connection
	var deleted, failed []string
	for i, e := range v.Snap.Events {
		if e.Actor != "c1" || !releasePart(e) {
			continue
		}
		switch v.L.Reads[i].What {
		case ledger.NodeReleased:
			deleted = append(deleted, e.Node)
		case ledger.NodeFailed:
			if !e.NotSent() || e.Reply != "not sent: connection refused" {
				t.Errorf("c1's release on %s: %q, want not sent: connection refused", e.Node, e.Reply)
			}
			failed = append(failed, e.Node)
		}
	}
	if strings.Join(deleted, "") != "AB" || strings.Join(failed, "") != "CDE" {
		t.Fatalf("c1's release deleted on %v and failed on %v, want A, B and C, D, E", deleted, failed)
	}
	if got := card(v); got != want {
		t.Errorf("c1's card after its count: %q, want %q", got, want)
	}
	got, v := readoutAfter(t, "redlock", story("3 down"), "c1 releases")
	if c := card(v); c != want {
		t.Errorf("c1's card at the end: %q, want %q", c, want)
	}
	if !strings.Contains(flat(got), "c1 holds no lock: it tried its release when it counted") || strings.Contains(got, "nothing to release") {
		t.Errorf("last readout of 3 down:\n%s", got)
	}
}

// A release the log shows as "not sent: connection refused" is told in
// the readout as not sent, never as "no reply" (the reason stays on the
// log's line: with it, "2 down"'s readout took four rows at 80 columns).
func TestRedlockRoundSaysNotSentAsTheLog(t *testing.T) {
	got, _ := readoutAfter(t, "redlock", story("2 down"), "c1 releases")
	want := "C 1 (its token, deleted); D not sent; E not sent."
	if !strings.Contains(flat(got), want) || strings.Contains(got, "no reply") {
		t.Errorf("readout after c1's release in 2 down:\n%s\nwant %q", got, want)
	}
}
