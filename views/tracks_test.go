package views

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// TestTracksOrderAndScale: instants keep the story's order, those of one
// story time side by side, and a long gap between story times takes more
// columns than a short one.
func TestTracksOrderAndScale(t *testing.T) {
	h := History{Now: Instant{At: ms(35000), Seq: 99}, Tracks: []Track{
		{Label: "A", Spans: []Span{{From: Instant{0, 0}, To: Instant{ms(35000), 9}, Glyph: "━"}},
			Points: []Point{{At: Instant{0, 0}, Glyph: "●"}, {At: Instant{0, 1}, Glyph: "‖"}, {At: Instant{ms(35000), 9}, Glyph: "◇"}}},
		{Label: "B", Points: []Point{{At: Instant{ms(32000), 3}, Glyph: "●"}, {At: Instant{ms(32000), 4}, Glyph: "w"}}},
	}}
	d := Tracks(ASCII(), h, 80, 0)
	if len(d.Rows) != 3 || d.Before != 0 || d.After != 0 {
		t.Fatalf("%d rows, %d before, %d after:\n%s", len(d.Rows), d.Before, d.After, strings.Join(d.Rows, "\n"))
	}
	a, b := []rune(d.Rows[1]), []rune(d.Rows[2])
	col := func(r []rune, g rune) int {
		for i, c := range r {
			if c == g {
				return i
			}
		}
		return -1
	}
	grant, pause, rel := col(a, '●'), col(a, '‖'), col(a, '◇')
	bGrant, bWrite := col(b, '●'), col(b, 'w')
	if !(grant < pause && pause == grant+1) {
		t.Errorf("A's grant and pause at one story time are not side by side: %d, %d", grant, pause)
	}
	if !(bGrant+1 == bWrite && bWrite < rel) {
		t.Errorf("B's grant %d and write %d are not side by side before A's release %d", bGrant, bWrite, rel)
	}
	// 0 → 32 s is ten times 32 → 35 s, and takes more columns
	if bGrant-pause <= rel-bWrite {
		t.Errorf("32 s took %d columns, 3 s %d", bGrant-pause, rel-bWrite)
	}
	for _, label := range []string{"+0s", "+32s", "+35s"} {
		if !strings.Contains(d.Rows[0], label) {
			t.Errorf("the axis lacks %s: %q", label, d.Rows[0])
		}
	}
}

// TestTracksWindow: a story with more instants than columns is drawn as a
// window of them, the newest by default; back moves it earlier; a span
// that began before the window shows ◂, a flag outside it says where.
func TestTracksWindow(t *testing.T) {
	var pts []Point
	for i := range 200 {
		pts = append(pts, Point{At: Instant{ms(10 * i), i}, Glyph: "○"})
	}
	h := History{Now: Instant{At: ms(1990), Seq: 1 << 30}, Flag: &Flag{At: Instant{0, 0}, Text: "the first"},
		Tracks: []Track{{Label: "c1", Points: pts}, {Label: "H", Spans: []Span{{From: Instant{0, 0}, To: Instant{ms(1990), 1 << 30}, Glyph: "━"}}}}}
	st := ASCII()
	d := Tracks(st, h, 80, 0)
	if d.Before == 0 || d.After != 0 {
		t.Fatalf("the newest window has %d instants before it, %d after", d.Before, d.After)
	}
	for _, r := range d.Rows {
		if ansi.StringWidth(r) > 80 {
			t.Errorf("a row is %d wide: %s", ansi.StringWidth(r), r)
		}
	}
	if !strings.HasPrefix(d.Rows[0], "◂ [") || !strings.Contains(d.Rows[2], "◂") || !strings.Contains(strings.Join(d.Rows, "\n"), "◂ earlier") {
		t.Errorf("the window does not say there is more before it:\n%s", strings.Join(d.Rows, "\n"))
	}
	back := Tracks(st, h, 80, 50)
	if back.After != 50 || back.Before >= d.Before-48 || back.Before < d.Before-51 {
		t.Errorf("50 back: %d before, %d after; the newest had %d before", back.Before, back.After, d.Before)
	}
	first := Tracks(st, h, 80, 1000)
	if first.Before != 0 || !strings.Contains(strings.Join(first.Rows, "\n"), "▲ the first") {
		t.Errorf("scrolled to the start: %d before, flag:\n%s", first.Before, strings.Join(first.Rows, "\n"))
	}
}

// TestTracksNote: a track's note stands in for what it hides.
func TestTracksNote(t *testing.T) {
	h := History{Now: Instant{At: ms(5), Seq: 9}, Tracks: []Track{{Label: "A lease", Note: "(hidden)",
		Spans: []Span{{From: Instant{0, 0}, To: Instant{ms(5), 9}, Glyph: "═"}}}}}
	d := Tracks(ASCII(), h, 80, 0)
	if !strings.Contains(d.Rows[1], "(hidden)") || strings.Contains(d.Rows[1], "═") {
		t.Errorf("the hidden track reads %q", d.Rows[1])
	}
}

func TestAxisTime(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {ms(400), "400ms"}, {9333 * time.Microsecond, "9.3ms"}, {200 * time.Microsecond, "0.2ms"},
		{ms(32000), "32s"}, {ms(80000), "1m20s"}, {ms(1200), "1.2s"},
	} {
		if got := AxisTime(c.d); got != c.want {
			t.Errorf("AxisTime(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
