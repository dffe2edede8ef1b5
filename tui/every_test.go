package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/sim/simtest"
	"locksim/transcript"
	"locksim/views"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// unfilled finds a {slot} the text left empty; emptySlot a slot filled
// with nothing ("the key held 's token") or a sentinel PTTL read as time.
var (
	unfilled  = regexp.MustCompile(`\{[a-z]+\}`)
	emptySlot = regexp.MustCompile(`(^|\s)'s\b|\(-[0-9]+ ms|-[12] ms|\bby\s+deleted\b|^\s|\s\s`)
)

// TestEveryScene walks every registered scene: each variant move by move,
// and for a story each learner move (a crash, a pause, a step, a wait)
// inserted at every point. At each point, for every selection, it checks
// that the text is whole and fits, that cards calling an actor the holder
// agree with the keys read back, that with nothing selected the readout
// explains the latest step, that the ⚠ line and the scoreboard name the
// same violation, and that the screen is exactly 24 rows of 80 columns.
// A new scene is covered by registering it. The quick tier walks each
// story as written, each setting changed alone at a sample of its points,
// and a sample of the learner's moves; the slow tier the other points,
// the combinations of settings and the other moves (see points).
func TestEveryScene(t *testing.T) {
	t.Parallel()
	for _, sc := range scenes.All() {
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			text, err := content.Load(sc.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, part := range []string{"title", "dive", "intro", "start"} {
				if !text.Has(part) {
					t.Errorf("content/text/%s.txt has no %q section", sc.ID, part)
				}
			}
			if sc.Kind == scenes.Quiz {
				simtest.QuickOnly(t)
				walkQuiz(t, sc, text) // no schedule: every situation and the score instead
				return
			}
			st := views.ASCII()
			c := &pointChecks{st: st, readoutRows80: map[string]int{}, b: embedded(t), com: NewCommon(st, scenes.Export{})}
			for _, pt := range points(t, sc.ID, sc.Kind == scenes.Story) {
				checkPoint(t, sc, text, pt, c)
			}
		})
	}
}

// hasEmptySlot is emptySlot.MatchString(s), the regexp run only where a
// scan finds what one of its alternatives needs (a ' before s, "(-",
// "-1 ms", "-2 ms", "deleted", a leading space or two in a row): the
// regexp on every readout was a tenth of this walk under -race.
func hasEmptySlot(s string) bool {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	maybe := s != "" && space(s[0]) || strings.Contains(s, "(-") || strings.Contains(s, "-1 ms") ||
		strings.Contains(s, "-2 ms") || strings.Contains(s, "deleted")
	maybe = maybe || strings.HasPrefix(s, "'s")
	for i := 1; i < len(s) && !maybe; i++ {
		maybe = space(s[i]) && space(s[i-1]) || s[i] == '\'' && i+1 < len(s) && s[i+1] == 's' && space(s[i-1])
	}
	return maybe && emptySlot.MatchString(s)
}

// TestHasEmptySlot: the scan lets through every text the regexp matches.
func TestHasEmptySlot(t *testing.T) {
	for _, s := range []string{"the key held 's token", "'s token", "a PTTL (-2 ms", "(-17 ms left", "it waits -1 ms",
		"freed by deleted key", "by\tdeleted", " leading", "two  spaces", "a\n\nb", "x \ny"} {
		if !emptySlot.MatchString(s) || !hasEmptySlot(s) {
			t.Errorf("%q: the regexp says %v, the scan %v", s, emptySlot.MatchString(s), hasEmptySlot(s))
		}
	}
	for _, s := range []string{"A's token, 30000 ms", "the key is gone", "", "ok"} {
		if hasEmptySlot(s) {
			t.Errorf("%q has no empty slot", s)
		}
	}
}

// pointChecks is what the checks of one scene's points share: the styles
// its screens are drawn with, and a readout's rows at 80 columns, by
// readout (the same readout comes back at many points; drawn once); the
// backend each point's session is opened on (no run uses it), and the
// Common its screens are drawn with, whose memos (cards, log rows) keep
// what an earlier point drew, as a player's do from step to step.
type pointChecks struct {
	st            views.Styles
	readoutRows80 map[string]int
	b             *sim.Backend
	com           *Common
}

func checkPoint(t *testing.T, sc *scenes.Scene, text content.Text, pt storyPoint, c *pointChecks) {
	t.Helper()
	led := scenes.Fold(pt.snap)
	edited := strings.Contains(pt.where, "inserted")
	var byActor []string
	readoutRows80 := c.readoutRows80
	// every selection on the stories as written; after a learner's move,
	// nothing selected and the actor of the latest step (the readout that
	// move changes)
	latest := -2
	if e, ok := lastStep(pt.snap); ok {
		for i, a := range pt.snap.Actors {
			if a.Name == e.Actor {
				latest = i
			}
		}
	}
	for sel := -1; sel < len(pt.snap.Actors); sel++ {
		if edited && sel >= 0 && sel != latest {
			byActor = append(byActor, "")
			continue
		}
		v := scenes.Frame{Snap: pt.snap, L: led, P: pt.p, Sel: sel, Text: text}
		ex := scenes.Explain(sc, v)
		where := fmt.Sprintf("%s, selected %d", pt.where, sel)
		all := ex.Readout + " " + ex.Verdict + " " + ex.Alarm + " " + cardText(ex.Cards)
		if ex.Readout == "" || strings.Contains(all, "[no text") || strings.Contains(all, "%!") || strings.Contains(all, "{") && unfilled.MatchString(all) || hasEmptySlot(ex.Readout+" "+ex.Alarm) {
			t.Fatalf("%s: readout %q, verdict %q, alarm %q, cards %q", where, ex.Readout, ex.Verdict, ex.Alarm, cardText(ex.Cards))
		}
		// three rows, or more at the start, when the log is empty and gives
		// the readout its rows
		limit := 3
		if pt.snap.Pos == 0 {
			limit = 5
		}
		rows, ok := readoutRows80[ex.Readout]
		if !ok {
			// drawn once per readout: the latest step's actor's is nothing
			// selected's again, and so are many points' of the scene
			rows = strings.Count(lipgloss.NewStyle().Width(80).Render(ex.Readout), "\n") + 1
			readoutRows80[ex.Readout] = rows
		}
		if rows > limit {
			t.Errorf("%s: readout takes %d rows at 80 columns: %s", where, rows, ex.Readout)
		}
		byActor = append(byActor, ex.Readout)
		if sel >= 0 {
			continue
		}
		checkCards(t, where, pt.snap, led, ex.Cards)
		// the ⚠ line and the scoreboard name the same violation
		broken := ex.Props[0] == say.Broken || ex.Props[1] == say.Broken
		if broken != (ex.Alarm != "") {
			t.Errorf("%s: scoreboard %v but alarm %q", where, ex.Props, ex.Alarm)
		}
		if len(led.Overlaps) > 0 && !strings.Contains(ex.Alarm, "acted as holder") {
			t.Errorf("%s: two holders overlap, but the alarm says %q", where, ex.Alarm)
		}
		// a grant that made two holders: the readout names that pair, and
		// the ⚠ line the first pair, from the moment mutual exclusion broke
		if e, ok := lastStep(pt.snap); ok {
			if rd := led.Reads[e.Seq]; rd.Overlap != nil {
				pair := rd.Overlap.First.Actor + " and " + rd.Overlap.Second.Actor
				o := led.FirstOverlap()
				first := o.First.Actor + " and " + o.Second.Actor + " both acted as holder"
				if !strings.HasPrefix(ex.Alarm, first) || !strings.Contains(ex.Alarm, scenes.Stamp(o.FromAt)) || !strings.Contains(ex.Readout, rd.Overlap.First.Actor) {
					t.Errorf("%s: the latest grant made %s holders, the first overlap was %s; the alarm says %q and the readout %q", where, pair, first, ex.Alarm, ex.Readout)
				}
			}
		}
		if edited {
			continue
		}
		if w := ansi.StringWidth("verdict " + ex.Verdict); w > 80 {
			t.Errorf("%s: verdict is %d columns: %s", where, w, ex.Verdict)
		}
		if w := ansi.StringWidth("⚠ " + ex.Alarm); w > 80 {
			t.Errorf("%s: alarm is %d columns: %s", where, w, ex.Alarm)
		}
		inner := 80/max(len(ex.Cards), 1) - 4
		for _, c := range ex.Cards {
			for _, l := range c.Lines {
				if w := ansi.StringWidth(l); w > inner {
					t.Errorf("%s: %s's card line %q is cut at 80 columns", where, c.Name, l)
				}
			}
		}
		checkScreen(t, where, sc, text, pt, led, c, 80, 24)
		if pt.final {
			checkScreen(t, where, sc, text, pt, led, c, 120, 40) // the wide layout
		}
	}
	// with nothing selected a story's readout explains the latest step
	if e, ok := lastStep(pt.snap); ok && sc.Kind == scenes.Story && pt.snap.Pos > 0 {
		for i, a := range pt.snap.Actors {
			if a.Name == e.Actor && byActor[0] != byActor[i+1] {
				t.Errorf("%s: the latest step is %s's (%s), but with nothing selected the readout says\n  %s\nand with %s selected\n  %s",
					pt.where, e.Actor, transcript.PlainEvent(e), byActor[0], e.Actor, byActor[i+1])
			}
		}
	}
}

func cardText(cards []say.Card) string {
	var parts []string
	for _, c := range cards {
		parts = append(parts, strings.Join(c.Lines, " / "))
	}
	return strings.Join(parts, " | ")
}

// checkCards: a card that calls its actor the holder needs the key of the
// actor's latest lease to read back holding that lease's value, and no key
// may have two such cards.
func checkCards(t *testing.T, where string, snap sim.Snapshot, led *ledger.Ledger, cards []say.Card) {
	t.Helper()
	claims := map[string][]string{}
	for _, c := range cards {
		line := c.Lines[1]
		if !strings.Contains(line, "holder") || strings.Contains(line, "thinks") {
			continue
		}
		ls := led.Latest(c.Name)
		if ls == nil {
			t.Errorf("%s: %s's card says %q, but it was never granted a lease", where, c.Name, line)
			continue
		}
		if ls.Node == ledger.QuorumNode {
			if !led.Agrees(ls) {
				t.Errorf("%s: %s's card says %q, but no majority of the nodes holds its token", where, c.Name, line)
			}
			claims[ls.Key] = append(claims[ls.Key], c.Name)
			continue
		}
		var got *sim.KeyState
		for i := range snap.Keys {
			if k := snap.Keys[i]; k.Name == ls.Key && (k.Node == "" || k.Node == ls.Node) {
				got = &snap.Keys[i]
			}
		}
		if got == nil || !ls.In(*got) {
			t.Errorf("%s: %s's card says %q, but %s reads back %+v (it wrote %q)", where, c.Name, line, ls.Key, got, ls.Token)
		}
		// one key may hold many claims (a queue's active set): one card
		// per member
		claims[ls.Key+" "+ls.Token] = append(claims[ls.Key+" "+ls.Token], c.Name)
	}
	for key, names := range claims {
		if len(names) > 1 {
			t.Errorf("%s: %v are all shown holding %s", where, names, key)
		}
	}
}

// checkScreen draws the point as the player would at w x h: exactly h
// rows, none wider than w columns.
func checkScreen(t *testing.T, where string, sc *scenes.Scene, text content.Text, pt storyPoint, led *ledger.Ledger, c *pointChecks, w, h int) {
	t.Helper()
	p := newPlayer(openedOn(t, c.b, sc, text, pt.p, pt.snap, led), c.com)
	p.SetSize(w, h)
	screen := p.View() + "\nhelp"
	if sc.Kind == scenes.Quiz {
		q := newQuiz(p)
		q.SetSize(w, h)
		screen = q.View() + "\nhelp"
	}
	lines := strings.Split(screen, "\n")
	if len(lines) != h {
		t.Errorf("%s: the screen has %d rows, want %d:\n%s", where, len(lines), h, screen)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s: row %d is %d columns at %dx%d: %s", where, i, lw, w, h, l)
		}
	}
}

// lastStep is the latest event of the story's latest move, if an actor on
// stage took it (not a clock move, not the scene's setup); ok is false if
// there is none, or if the clock moved after it. Bookkeeping outside the
// story's moves (the clock held, a stall noted) is not a step.
func lastStep(s sim.Snapshot) (sim.Event, bool) {
	var e sim.Event
	found := false
	for _, x := range s.Events {
		if x.Move >= 0 && x.Move == s.Pos-1 && x.Kind != sim.Aside {
			e, found = x, true
		}
	}
	if !found || e.Kind == sim.Clock {
		return sim.Event{}, false
	}
	for _, a := range s.Actors {
		if a.Name == e.Actor {
			return e, true
		}
	}
	return sim.Event{}, false
}
