package tui

import (
	"bytes"
	"context"
	"locksim/sim/simtest"
	"locksim/views"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"locksim/scenes"
	"locksim/sim"
	"locksim/transcript"
)

// openLost opens the lost-reply scene as a learner does, its questions
// asked, under settings p at w x h, and presses presses.
func openLost(t *testing.T, p scenes.Params, w, h int, presses string) *App {
	t.Helper()
	a, err := NewCourse(embedded(t), Options{Seed: 1, Scene: "lost-reply", Settings: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: w, Height: h})
	runCmd(t, a, a.Init())
	drive(t, a, keys(presses)...)
	return a
}

// TestLostReplyScreens: the lost SET story asks after A gave up, before B
// asks, the key and the readout hidden though A's plain retry answered
// (nil): when can B get the lock? Answered, B's SET is refused by A's key,
// which no release will free before its TTL. In the lost DEL story,
// answered, A's blind DEL sent again deletes B's lock, and C's grant raises
// the alarm.
func TestLostReplyScreens(t *testing.T) {
	a := openLost(t, scenes.Params{}, 80, 24, "nnnnn")
	if !a.pl.Asking || a.pl.Snap.Pos != 5 {
		t.Fatalf("the lost SET story should ask before B asks (step %d, asking %v):\n%s", a.pl.Snap.Pos, a.pl.Asking, a.View())
	}
	v := a.View()
	if !strings.Contains(v, "keys (hidden until") || strings.Contains(v, "resource:lock =") || !strings.Contains(v, "When can B get the lock?") || strings.Contains(v, "Who holds") {
		t.Errorf("at the question the key should be hidden:\n%s", v)
	}
	drive(t, a, keys("2")...)
	if v := strings.Join(strings.Fields(a.View()), " "); !strings.Contains(v, "right") || !strings.Contains(v, "no release will come") || !strings.Contains(v, `resource:lock = "6ae6783f…" (A's token)`) {
		t.Errorf("answered, B is refused by A's key, which no release frees:\n%s", a.View())
	}
	d := openLost(t, scenes.Params{"story": 1}, 80, 24, "nnnnn")
	if !d.pl.Asking || !strings.Contains(d.View(), "What becomes of B's lock?") {
		t.Fatalf("the lost DEL story should ask before A's release is sent again:\n%s", d.View())
	}
	drive(t, d, keys("1n")...)
	if v := strings.Join(strings.Fields(d.View()), " "); !strings.Contains(v, "B and C both acted as holder") {
		t.Errorf("after C's grant the alarm should name B and C:\n%s", d.View())
	}
}

// TestGoldensLostReply draws the lost-reply scene at its turning points:
// the lost SET's question (when can B get the lock?) and its answer, the lost DEL's question and C's
// grant after A's blind DEL sent again.
func TestGoldensLostReply(t *testing.T) {
	cases := []struct {
		name    string
		p       scenes.Params
		presses string
	}{
		{"lost-reply-asks", scenes.Params{}, "nnnnn"},
		{"lost-reply-answered", scenes.Params{}, "nnnnn2"},
		{"lost-reply-del-asks", scenes.Params{"story": 1}, "nnnnn"},
		{"lost-reply-del", scenes.Params{"story": 1}, "nnnnn1n"},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a := openLost(t, c.p, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}

// TestLostSetHoldsFromTheLostSet: one step into the lost SET story, the key
// (A's token) and the readout (the key holds A's token) would answer the
// question asked two steps later: from the lost SET on they are hidden.
func TestLostSetHoldsFromTheLostSet(t *testing.T) {
	a := openLost(t, scenes.Params{}, 120, 40, "n")
	v := strings.Join(strings.Fields(a.View()), " ")
	if a.pl.Snap.Pos != 1 || !strings.Contains(v, "keys (hidden until") || strings.Contains(v, "resource:lock =") || strings.Contains(v, "The key holds A's token") {
		t.Errorf("after the lost SET the key and the readout should be hidden (step %d):\n%s", a.pl.Snap.Pos, a.View())
	}
}

// TestLostSetAsksBeforeAReadingRetry: a retry that reads the key back (SET
// NX GET, GET and compare) answers whose the lock is, so the question comes
// before it, not stating its reply, with A's card not yet its holder.
func TestLostSetAsksBeforeAReadingRetry(t *testing.T) {
	for _, r := range []int{1, 2} {
		a := openLost(t, scenes.Params{"story": 0, "retry": r}, 120, 40, "nnnn")
		v := strings.Join(strings.Fields(a.View()), " ")
		if !a.pl.Asking || a.pl.Snap.Pos != 2 {
			t.Fatalf("retry %d: the story should ask before A's retry (step %d, asking %v):\n%s", r, a.pl.Snap.Pos, a.pl.Asking, a.View())
		}
		if !strings.Contains(v, "What does it answer?") || strings.Contains(v, "own token") || strings.Contains(v, "acts as holder") || strings.Contains(v, "resource:lock =") {
			t.Errorf("retry %d: the question should not state its answer:\n%s", r, a.View())
		}
		drive(t, a, keys("1")...)
		if a.pl.Actual != 1 {
			t.Errorf("retry %d: the right answer should be A's token (got %d):\n%s", r, a.pl.Actual, a.View())
		}
	}
}

// TestLostRenewalTellsNothingBeforeItsQuestion: in each renewal story the
// question asks, before A's renewal is sent, what the server does with
// it, its reply to be lost: the question and its choices speak of it as to
// come, not as done. Until it is answered, nothing the learner can read may say it: not
// the screen (the start line, the title), the notes (N), the story page
// (i), the glossary (its "lost reply" says the server ran the command),
// nor the handout's text above its questions; nor the premise that the
// loss is played on locksim's side, the reply lost on the way back. A time B asks that is
// the renewed lease's end plus a second ("51 s") says it ran; "the server
// runs the command" and "after the server ran" say it reached the server
// and ran; "said yes" that it was granted. And choice 2 is true of the late
// renewal, where the key is gone, not holding another token.
func TestLostRenewalTellsNothingBeforeItsQuestion(t *testing.T) {
	told := []string{"51 s", "runs the command", "ran the command", "server ran", "said yes", "renewed nothing", "ends at 50 s",
		// the premise: a loss locksim plays on its side after the server
		// got the command, a reply that will come, but late
		"on the way back", "its own side", "no reply will come", "no reply comes in time"}
	var handout bytes.Buffer
	if err := transcript.PlainWith(context.Background(), &handout, embedded(t), "lost-reply", 1, transcript.PlainOptions{Questions: true}); err != nil {
		t.Fatal(err)
	}
	body, _, _ := strings.Cut(handout.String(), "\nanswer key\n")
	for _, st := range []int{2, 3, 4, 5} {
		a := openLost(t, scenes.Params{"story": st}, 80, 24, "")
		for i := 0; i < 10 && !a.pl.Asking; i++ {
			drive(t, a, keys("n")...)
		}
		if !a.pl.Asking || !strings.Contains(a.pl.Question("predict"), "What does the server do with A's renewal?") {
			t.Fatalf("story %d should ask what the server does with A's renewal:\n%s", st, a.View())
		}
		// asked before the renewal is sent (the log has no extend yet), the
		// question speaks of it as to come, not as done
		q := strings.Join(strings.Fields(a.pl.Question("predict")), " ")
		sent := false
		for _, e := range a.pl.Snap.Events {
			sent = sent || (e.Op != nil && e.Op.Kind == sim.OpExtend)
		}
		// at 80x24 the question leaves the log its rows: the time that
		// passed up to the renewal is on the screen
		if sent || !strings.Contains(q, "will get no answer") || !strings.Contains(a.View(), "s pass]") {
			t.Errorf("story %d: the question should be asked before the renewal, which it tells as to come: %q\n%s", st, q, a.View())
		}
		for _, past := range []string{"did the server", "gets no reply", "got no reply", "it ran", "it refused"} {
			if strings.Contains(q+" "+strings.Join(a.pl.Choices(), " "), past) {
				t.Errorf("story %d: the question or a choice says %q of a renewal not sent yet: %q %q", st, past, q, a.pl.Choices())
			}
		}
		texts := map[string]string{"the screen": a.View(), "the notes": a.pl.Notes(a.pl.role), "the story page": a.pl.Page(a.pl.role),
			"the glossary": newGlossary(a.com, a.pl.Session, a.pl.role).text(80)}
		for _, k := range []string{"N", "i"} {
			drive(t, a, keys(k)...)
			texts["the page "+k] = a.View()
			drive(t, a, keys(k)...)
		}
		if st == 2 {
			texts["the handout"] = body
		}
		for what, v := range texts {
			flat := strings.Join(strings.Fields(v), " ")
			for _, p := range told {
				if strings.Contains(flat, p) {
					t.Errorf("story %d: %s says %q while the question is open:\n%s", st, what, p, v)
				}
			}
		}
		if st >= 4 && strings.Contains(strings.Join(a.pl.Choices(), "\n"), "did not hold A's token") {
			t.Errorf("story %d: the key was gone (PTTL -2), not holding another token: %q", st, a.pl.Choices())
		}
	}
}

// TestLostSetGiveUpFitsItsLine: A's giving up, in the log at 80 columns,
// is read whole, not cut mid-phrase.
func TestLostSetGiveUpFitsItsLine(t *testing.T) {
	a := openLost(t, scenes.Params{}, 80, 24, "nnnnn2")
	seen := false
	for range 6 {
		for _, r := range strings.Split(a.View(), "\n") {
			if strings.Contains(r, "gives up") {
				seen = true
				if strings.Contains(r, "…") || !strings.Contains(r, "]") {
					t.Errorf("A's giving up is cut at 80 columns: %q", r)
				}
			}
		}
		drive(t, a, keys("n")...)
	}
	if !seen {
		t.Errorf("the log never showed A giving up:\n%s", a.View())
	}
}

// TestLostSetCardsSayWhatHappened: in the lost SET story (the plain
// retry), A's card says A gave up from the moment it did (it was blank),
// and B's second ask, whose token is new, says so in the log before its
// SET: the token on B's card changes with a word.
func TestLostSetCardsSayWhatHappened(t *testing.T) {
	a := openLost(t, scenes.Params{}, 80, 24, "nnnn")
	if v := a.View(); !strings.Contains(v, "gives up") || !strings.Contains(cardRow(v, 1), "gave up") {
		t.Errorf("after A gives up its card should say so:\n%s", v)
	}
	first := cardRow(a.View(), 0)
	drive(t, a, keys("n2")...)
	if a.pl.Guess != 1 {
		t.Fatalf("the question should be answered:\n%s", a.View())
	}
	for i := 0; i < 6 && a.pl.Snap.Pos < len(a.pl.MoveLabels()); i++ {
		drive(t, a, keys("n")...)
	}
	v := a.View()
	if cardRow(v, 0) == first {
		t.Fatalf("B's token should be another at its second ask:\n%s", v)
	}
	flat := strings.Join(strings.Fields(views.Strip(v)), " ")
	again := strings.Index(flat, "B asks again, with a fresh token")
	if again < 0 || !strings.Contains(flat[again:], "B> SET") {
		t.Errorf("the log should say B asks again with a fresh token, before its SET:\n%s", v)
	}
}

// cardRow is the n-th row inside the cards of screen v (0 the tokens),
// as plain text.
func cardRow(v string, n int) string {
	var rows []string
	for _, r := range strings.Split(views.Strip(v), "\n") {
		if strings.HasPrefix(r, "│") {
			rows = append(rows, r)
		}
	}
	if n < len(rows) {
		return rows[n]
	}
	return ""
}

// TestLostSetTellsNothingBeforeItsQuestion: with a retry that reads the key
// back (SET NX GET, GET and compare), the story asks what the retry
// answers, one choice being another client's token. Until it is answered,
// nothing the learner can read may say what became of A: not the screen
// (the start line), the notes (N), the story page (i), nor the handout's
// text above its questions. "before and after A releases" told that A held
// the lock, ruling out another client's token.
func TestLostSetTellsNothingBeforeItsQuestion(t *testing.T) {
	told := []string{"A releases", "A released", "A holds", "A held", "A gives up", "A gave up", "A wins", "A takes"}
	for _, r := range []int{1, 2} {
		p := scenes.Params{"story": 0, "retry": r}
		var handout bytes.Buffer
		if err := transcript.PlainWith(context.Background(), &handout, embedded(t), "lost-reply", 1, transcript.PlainOptions{Questions: true, Settings: p}); err != nil {
			t.Fatal(err)
		}
		body, _, _ := strings.Cut(handout.String(), "\nanswer key\n")
		a := openLost(t, p, 80, 24, "")
		texts := map[string]string{"the start": a.View()}
		for i := 0; i < 10 && !a.pl.Asking; i++ {
			drive(t, a, keys("n")...)
		}
		if !a.pl.Asking || !strings.Contains(a.pl.Question("predict"), "What does it answer?") {
			t.Fatalf("retry %d should ask what the retry answers:\n%s", r, a.View())
		}
		texts["the screen"], texts["the notes"], texts["the story page"], texts["the handout"] = a.View(), a.pl.Notes(a.pl.role), a.pl.Page(a.pl.role), body
		for _, k := range []string{"N", "i"} {
			drive(t, a, keys(k)...)
			texts["the page "+k] = a.View()
			drive(t, a, keys(k)...)
		}
		for what, v := range texts {
			flat := strings.Join(strings.Fields(v), " ")
			for _, s := range told {
				if strings.Contains(flat, s) {
					t.Errorf("retry %d: %s says %q while the question is open:\n%s", r, what, s, v)
				}
			}
		}
	}
}
