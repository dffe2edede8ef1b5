package scenes

import (
	"context"
	"fmt"
	"io"
	"strings"

	"locksim/content"
	"locksim/sim"
	"locksim/views"
)

// Plain plays the scene with the given id on b without a terminal and writes
// its transcript to w: the intro, one line per event (time, actor, command as
// sent, reply as redis-cli prints it), what each actor's outcome means, and
// the verdict. A scene with variants plays each in turn.
func Plain(ctx context.Context, w io.Writer, b *sim.Backend, id string, seed uint64) error {
	sc := Find(id)
	if sc == nil {
		return fmt.Errorf("unknown scene %q (locksim -list shows them)", id)
	}
	text, err := content.Load(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "locksim · %s · %s · %s\n", sc.ID, text.Get("dive"), text.Get("title"))
	fmt.Fprintf(w, "server: %s · seed %d", b.Name, seed)
	if b.Live() {
		scale := b.Scale
		if m := sc.Script(Params{}).MaxScale; m > 0 && scale > m {
			scale = m
			fmt.Fprintf(w, " · -scale capped at %d for this scene", m)
		}
		fmt.Fprintf(w, " · story time divided by %d · keys under %s", scale, b.Prefix)
	}
	if r := b.ResourceStore(); r != nil {
		fmt.Fprintf(w, "\nprotected resource: %s · keys under %s", r.Name, r.Prefix)
	}
	fmt.Fprintf(w, "\n\n%s\n", text.Get("intro"))
	variants := sc.Variants
	if len(variants) == 0 {
		variants = []Params{{}}
	}
	for _, p := range variants {
		if err := plainVariant(ctx, w, sc, text, b, p, seed); err != nil {
			return err
		}
	}
	return nil
}

func plainVariant(ctx context.Context, w io.Writer, sc *Scene, text content.Text, b *sim.Backend, p Params, seed uint64) error {
	run := sim.NewRun(b, sc.Script(p), seed)
	defer run.Close()
	defer run.Clear(context.WithoutCancel(ctx))
	if err := run.Reset(ctx); err != nil {
		return err
	}
	if len(sc.Knobs) > 0 {
		fmt.Fprintf(w, "\n== %s ==\n", sc.describe(p))
	}
	fmt.Fprintln(w)
	printed := 0
	flush := func() error {
		for _, e := range run.Events[printed:] {
			if _, err := fmt.Fprintln(w, plainEvent(e)); err != nil {
				return err
			}
			if e.Unknown() {
				// an outage is not a lock outcome: stop, and say which command
				return fmt.Errorf("%s got no answer (%s): the server may or may not have run it", e.Cmd, strings.TrimPrefix(e.Reply, "(error) "))
			}
		}
		printed = len(run.Events)
		return nil
	}
	if err := flush(); err != nil {
		return err
	}
	for run.Pos() < len(run.Moves()) {
		if err := run.Seek(ctx, run.Pos()+1); err != nil {
			return err
		}
		if err := flush(); err != nil {
			return err
		}
	}
	snap := run.Snapshot(ctx)
	if snap.Err != "" {
		return fmt.Errorf("reading keys back: %s", snap.Err)
	}
	fmt.Fprintln(w)
	for _, k := range snap.Keys {
		if k.Exists() {
			fmt.Fprintf(w, "%s = %q · PTTL %d\n", k.Name, k.Value, k.PTTL)
		} else {
			fmt.Fprintf(w, "%s: no such key · PTTL -2\n", k.Name)
		}
	}
	if r := snap.Resource; r != nil {
		fmt.Fprintf(w, "resource: last write %q by %s · accepted %d · rejected %d", r.Value, orDash(r.Writer), r.Accepted, r.Rejected)
		if r.MaxToken > 0 {
			fmt.Fprintf(w, " · largest token %d", r.MaxToken)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	led := fold(snap)
	for i, a := range snap.Actors {
		ex := explain(sc, View{Snap: snap, L: led, P: p, Sel: i, Text: text})
		fmt.Fprintf(w, "%s: %s\n", a.Name, ex.Readout)
	}
	ex := explain(sc, View{Snap: snap, L: led, P: p, Sel: -1, Text: text})
	if ex.Alarm != "" {
		fmt.Fprintf(w, "ALARM: %s\n", ex.Alarm)
	}
	if ex.Verdict != "" {
		fmt.Fprintf(w, "verdict: %s\n", ex.Verdict)
	}
	var props []string
	for i, pr := range ex.Props {
		props = append(props, views.PropNames[i]+" "+[...]string{"untested", "held", "BROKEN", "absent"}[pr])
	}
	fmt.Fprintf(w, "properties: %s\n", strings.Join(props, " · "))
	return nil
}

// plainEvent prints an event as a transcript line:
// t=+40.000s w2> SETNX resource:lock 5be1… → (integer) 0
func plainEvent(e sim.Event) string {
	at := "t=+" + sim.FormatDuration(e.At)
	switch e.Kind {
	case sim.Command:
		who := e.Actor
		if e.Node == sim.ResourceNode {
			who += "→resource"
		}
		return fmt.Sprintf("%s %s> %s → %s", at, who, e.Cmd, e.Reply)
	case sim.Clock:
		return fmt.Sprintf("%s [%s]", at, e.Note)
	default:
		return fmt.Sprintf("%s [%s]", at, e.Note)
	}
}
