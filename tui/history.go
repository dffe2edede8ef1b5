package tui

import (
	"math"
	"slices"
	"strings"

	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/views"
)

// The glyphs of the history's tracks, and what the legend says of each.
const (
	gHolds    = "━" // a client acts as holder
	gStale    = "╍" // … after its lease on the server has ended
	gLease    = "═" // a lease on the server, with a TTL
	gNoTTL    = "≡" // a lease with no TTL
	gGranted  = "●"
	gRefused  = "○"
	gRelease  = "◇"
	gExtend   = "↻"
	gWrite    = "w"
	gTaken    = "✓"
	gStaleOK  = "!" // a write the resource took from a client whose lease had ended
	gRejected = "⊘"
	gLapsed   = "┤"
	gEnded    = "╳" // deleted or overwritten by another client, or vanished
	gLost     = "↯" // a node restarted empty, and the leases on it with it
	gPause    = "‖"
	gWake     = "›"
	gCrash    = "✗"
	gUnknown  = "?"
	gError    = "e" // an error reply (BUSY, NOSCRIPT, READONLY)
	gDown     = "↓"
	gUp       = "↑"
	gCut      = "÷"
	gHeal     = "="
	gSlow     = "~"
	gFast     = "»"
	gJump     = "⇥"
)

// legendOrder lists the glyphs the legend explains, in its order.
var legendOrder = []struct{ glyph, says string }{
	{gHolds, "acts as holder"}, {gStale, "…past its lease"}, {gLease, "lease on the server"}, {gNoTTL, "lease with no TTL"},
	{gGranted, "granted"}, {gRefused, "refused"}, {gRelease, "release sent"}, {gExtend, "extend sent"},
	{gWrite, "write sent"}, {gTaken, "write taken"}, {gStaleOK, "stale write taken"}, {gRejected, "write refused"}, {gLapsed, "TTL ran out"},
	{gEnded, "lease taken away"}, {gPause, "paused"}, {gWake, "woke"}, {gCrash, "crashed"}, {gUnknown, "no reply"}, {gError, "error reply"},
	{gDown, "node stopped"}, {gUp, "node restarted"}, {gLost, "restarted empty: leases lost"}, {gCut, "client cut off"}, {gHeal, "healed"},
	{gSlow, "node slowed"}, {gFast, "node fast again"}, {gJump, "clock jumped"},
}

// lapse is the instant a lease's TTL ran out: after every command of its
// last millisecond, as Redis keeps a key through the millisecond it ends.
// One its node's jumped clock ran out early ended just after that jump (its
// EndSeq), beside the jump's own mark; one a live server's clock, a little
// ahead of the story's, ran out early ended when a reply found it gone.
// One removed before its end is not a lapse: leaseEnd marks a key vanished,
// deleted or overwritten as taken away, and one lost with its node's
// memory as lost in the restart.
func lapse(l *ledger.Lease) views.Instant {
	if l.End == ledger.Lapsed && l.EndAt < l.Ends() {
		if l.EndSeq >= 0 {
			return views.Instant{At: l.EndAt, Seq: l.EndSeq + 1}
		}
		return views.Instant{At: l.EndAt, Seq: -1}
	}
	return views.Instant{At: l.Ends(), Seq: math.MaxInt32}
}

// leaseEnd is the instant lease l stopped holding its key, and the glyph
// that marks it ("" for its own release); ok is false while it holds.
func leaseEnd(l *ledger.Lease, now views.Instant) (at views.Instant, glyph string, ok bool) {
	switch {
	case l.End == ledger.Lapsed || l.End == ledger.Open && l.Expires() && now.At > l.Ends():
		return lapse(l), gLapsed, true
	case l.End == ledger.Open:
		return now, "", false
	case l.End == ledger.Released:
		return views.Instant{At: l.EndAt, Seq: l.EndSeq}, "", true
	case l.End == ledger.Restarted:
		// the same mark as its node's restart, at the same instant
		return views.Instant{At: l.EndAt, Seq: l.EndSeq}, gLost, true
	}
	return views.Instant{At: l.EndAt, Seq: l.EndSeq}, gEnded, true
}

// historyOf draws the story on screen as tracks: for each client, where it
// acted as holder (the ledger's holds) over where its lease ran on the
// server (the ledger's leases), the protected resource's writes, and, in a
// story of several nodes, each node's shares of the lock and its faults.
// A hidden note other than "" leaves out the server's side (the leases, and
// where a belief outlived its lease), which would answer an open question,
// and stands in its rows.
func historyOf(snap sim.Snapshot, l *ledger.Ledger, hidden string) views.History {
	hide := hidden != ""
	now := views.Instant{At: snap.Now, Seq: math.MaxInt32}
	at := func(e sim.Event) views.Instant { return views.Instant{At: e.At, Seq: e.Seq} }
	h := views.History{Now: now}
	seen := map[string]bool{}
	for _, e := range snap.Events {
		seen[e.Actor] = true
	}
	for _, a := range snap.Actors {
		if !seen[a.Name] {
			continue
		}
		belief := views.Track{Label: a.Name}
		lease := views.Track{Label: a.Name + " lease"}
		for _, hd := range l.Holds {
			if hd.Actor != a.Name {
				continue
			}
			to := now
			if !hd.Open() {
				to = views.Instant{At: hd.ToAt, Seq: hd.To}
			}
			from := views.Instant{At: hd.FromAt, Seq: hd.From}
			belief.Spans = append(belief.Spans, views.Span{From: from, To: to, Glyph: gHolds})
			if end, _, ok := leaseEnd(hd.Lease, now); ok && !hide && cmpInstant(end, to) < 0 && hd.Lease.End != ledger.Released {
				belief.Spans = append(belief.Spans, views.Span{From: end, To: to, Glyph: gStale, Tone: views.Bad})
			}
			belief.Points = append(belief.Points, views.Point{At: from, Glyph: gGranted, Tone: views.Good})
		}
		for _, r := range l.Refusals {
			if r.Actor == a.Name {
				belief.Points = append(belief.Points, views.Point{At: views.Instant{At: r.At, Seq: r.Seq}, Glyph: gRefused, Tone: views.Warn})
			}
		}
		for _, e := range snap.Events {
			if e.Actor != a.Name {
				continue
			}
			if p, ok := actorPoint(e); ok {
				p.At = at(e)
				belief.Points = append(belief.Points, p)
			}
		}
		h.Tracks = append(h.Tracks, belief)
		for _, ls := range l.Leases {
			if ls.Actor != a.Name || ls.Copy || isShare(snap, ls) {
				continue
			}
			if hide {
				lease.Spans = nil
				break
			}
			glyph, tone := gLease, views.Dim
			if !ls.Expires() {
				glyph, tone = gNoTTL, views.Warn
			}
			end, mark, _ := leaseEnd(ls, now)
			lease.Spans = append(lease.Spans, views.Span{From: views.Instant{At: ls.Granted, Seq: ls.Seq}, To: end, Glyph: glyph, Tone: tone})
			if mark != "" {
				lease.Points = append(lease.Points, views.Point{At: end, Glyph: mark, Tone: views.Bad})
			}
		}
		if hide && hasLease(snap, l, a.Name) {
			lease.Note = hidden
		}
		if len(lease.Spans) > 0 || lease.Note != "" {
			h.Tracks = append(h.Tracks, lease)
		}
	}
	if len(l.Writes) > 0 {
		res := views.Track{Label: "resource"}
		for _, w := range l.Writes {
			p := views.Point{At: views.Instant{At: w.At, Seq: w.Seq}, Glyph: gTaken, Tone: views.Good}
			switch {
			case !w.Accepted:
				p.Glyph = gRejected
			case !w.Covered && !w.Fenced && !hide:
				// a stale write the resource took: read from the server's
				// leases, so hidden with them while the question is open
				p.Glyph, p.Tone = gStaleOK, views.Bad
			}
			res.Points = append(res.Points, p)
		}
		h.Tracks = append(h.Tracks, res)
	}
	for _, n := range snap.Nodes {
		node := views.Track{Label: "node " + n.Name}
		for _, e := range snap.Events {
			if e.Kind == sim.Fault && e.Node == n.Name {
				if g, tone := nodeGlyph(e); g != "" {
					node.Points = append(node.Points, views.Point{At: at(e), Glyph: g, Tone: tone})
				}
			}
		}
		for _, ls := range l.Leases {
			if ls.Node != n.Name || !isShare(snap, ls) {
				continue
			}
			if hide {
				node.Note = hidden
				break
			}
			end, mark, _ := leaseEnd(ls, now)
			node.Spans = append(node.Spans, views.Span{From: views.Instant{At: ls.Granted, Seq: ls.Seq}, To: end, Glyph: shortName(ls.Actor), Tone: views.Dim, Owner: ls.Actor})
			if mark != "" {
				node.Points = append(node.Points, views.Point{At: end, Glyph: mark, Tone: views.Bad})
			}
		}
		if len(node.Points) > 0 || len(node.Spans) > 0 || node.Note != "" {
			h.Tracks = append(h.Tracks, node)
		}
	}
	return h
}

// actorPoint is the mark an actor's own event puts on its row: a release,
// an extension or a write sent, a command with no reply, a crash, a pause,
// a wake-up. Grants and refusals come from the ledger's reading instead.
func actorPoint(e sim.Event) (views.Point, bool) {
	switch {
	case e.Kind == sim.Fault && e.Node == "":
		switch e.Fault {
		case sim.FaultCrash:
			return views.Point{Glyph: gCrash, Tone: views.Bad}, true
		case sim.FaultPause:
			return views.Point{Glyph: gPause, Tone: views.Warn}, true
		case sim.FaultResume:
			return views.Point{Glyph: gWake, Tone: views.Warn}, true
		}
	case e.Kind != sim.Command || e.Op == nil || e.Op.Part && e.Op.Kind == sim.OpAcquire:
	case e.Unknown():
		return views.Point{Glyph: gUnknown, Tone: views.Warn}, true
	case e.ErrorReply() && e.Op.Kind != sim.OpWrite && e.Op.Kind != sim.OpFencedWrite:
		// a refused write is the resource's row's to show
		return views.Point{Glyph: gError, Tone: views.Warn}, true
	case e.Op.Kind == sim.OpRelease:
		return views.Point{Glyph: gRelease}, true
	case e.Op.Kind == sim.OpExtend:
		return views.Point{Glyph: gExtend}, true
	case e.Op.Kind == sim.OpWrite || e.Op.Kind == sim.OpFencedWrite:
		return views.Point{Glyph: gWrite}, true
	}
	return views.Point{}, false
}

// nodeGlyph is the mark of a node's fault e on its row.
func nodeGlyph(e sim.Event) (string, views.Tone) {
	switch e.Fault {
	case sim.FaultNodeDown:
		return gDown, views.Bad
	case sim.FaultNodeUp:
		if e.RestartedEmpty() {
			return gLost, views.Bad
		}
		return gUp, views.Warn
	case sim.FaultCut:
		return gCut, views.Bad
	case sim.FaultHeal:
		return gHeal, views.Plain
	case sim.FaultSlow:
		return gSlow, views.Warn
	case sim.FaultFast:
		return gFast, views.Plain
	case sim.FaultClockJump:
		return gJump, views.Bad
	case sim.FaultHang:
		return gPause, views.Bad
	case sim.FaultWake:
		return gWake, views.Warn
	}
	return "", views.Plain
}

// isShare reports a lease that is one node's share of a distributed
// acquire: it makes no holder, and is drawn on its node's row.
func isShare(snap sim.Snapshot, ls *ledger.Lease) bool {
	for _, e := range snap.Events {
		if e.Seq == ls.Seq {
			return e.Op != nil && e.Op.Part
		}
	}
	return false
}

// hasLease reports that the actor was granted a lease of its own (not a
// node's share) at any point: its lease row is there, hidden or not.
func hasLease(snap sim.Snapshot, l *ledger.Ledger, actor string) bool {
	return slices.ContainsFunc(l.Leases, func(ls *ledger.Lease) bool { return ls.Actor == actor && !ls.Copy && !isShare(snap, ls) })
}

// shortName is one cell for an actor on a node's row: its last character
// (c1 → 1, A → A).
func shortName(name string) string {
	r := []rune(name)
	if len(r) == 0 {
		return "?"
	}
	return string(r[len(r)-1])
}

func cmpInstant(a, b views.Instant) int {
	if a.At != b.At {
		if a.At < b.At {
			return -1
		}
		return 1
	}
	return a.Seq - b.Seq
}

// legend is the glyphs the drawn history uses and what each means, across
// width in as many rows as it takes.
func legend(st views.Styles, h views.History, width int) []string {
	used := map[string]bool{}
	for _, t := range h.Tracks {
		for _, s := range t.Spans {
			used[s.Glyph] = true
		}
		for _, p := range t.Points {
			used[p.Glyph] = true
		}
	}
	var parts []string
	for _, g := range legendOrder {
		if used[g.glyph] {
			parts = append(parts, g.glyph+" "+g.says)
		}
	}
	// a node's row draws each client's lease there by its name's last character
	shares := map[string]bool{}
	for _, t := range h.Tracks {
		if strings.HasPrefix(t.Label, "node ") {
			for _, s := range t.Spans {
				if !shares[s.Glyph] {
					shares[s.Glyph] = true
					parts = append(parts, s.Glyph+" "+s.Owner+"'s lease on the node")
				}
			}
		}
	}
	if len(parts) == 0 {
		return nil
	}
	var out []string
	for _, l := range strings.Split(st.Wrap(strings.Join(parts, "  "), width, 3), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
