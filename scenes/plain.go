package scenes

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"locksim/content"
	"locksim/sim"
	"locksim/views"
)

// Plain plays the scene with the given id on b without a terminal and writes
// its transcript to w: the story, one line per event (story time, actor,
// command as sent, reply as redis-cli prints it), what each actor's outcome
// means, the verdict, the prediction and its answer, the recap and the
// references. It plays every combination of the scene's settings. With id
// "" it plays the whole course, scene by scene: a handout, or a text for a
// screen reader (no box drawing, no colour, no keys of the screen).
func Plain(ctx context.Context, w io.Writer, b *sim.Backend, id string, seed uint64) error {
	if id == "" {
		for i, sc := range All() {
			if i > 0 {
				fmt.Fprintf(w, "\n%s\n\n", strings.Repeat("=", 72))
			}
			if err := Plain(ctx, w, b, sc.ID, seed); err != nil {
				return err
			}
		}
		return nil
	}
	sc := Find(id)
	if sc == nil {
		return fmt.Errorf("unknown scene %q (locksim -list shows them)", id)
	}
	text, err := content.Load(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "locksim · %s · %s · %s\n", sc.ID, text.Get("dive"), text.Get("title"))
	if sc.Kind == Quiz {
		if err := plainQuiz(w, text); err != nil {
			return err
		}
		return plainEnd(w, text)
	}
	fmt.Fprintf(w, "server: %s · seed %d", b.Name, seed)
	if b.Live() {
		scale := sc.Script(Params{}).ScaleOn(b)
		if scale < b.Scale {
			fmt.Fprintf(w, " · -scale capped at %d for this scene", scale)
		}
		fmt.Fprintf(w, " · story time divided by %d · keys under %s", scale, b.Prefix)
	}
	if r := b.ResourceStore(); r != nil {
		fmt.Fprintf(w, "\nprotected resource: %s · keys under %s", r.Name, r.Prefix)
	}
	fmt.Fprintf(w, "\n\n%s\n", text.Get("intro"))
	// the question is asked once: in the first setting whose story has
	// the decisive move
	asked := false
	for _, p := range sc.variants() {
		var labels []string
		for _, m := range sc.Script(p).Moves {
			labels = append(labels, sim.MoveLabel(m))
		}
		ask := !asked && sc.predictAt(labels) >= 0
		asked = asked || ask
		if err := plainVariant(ctx, w, sc, text, b, p, seed, ask); err != nil {
			return err
		}
	}
	if err := plainScripts(ctx, w, sc, b, seed); err != nil {
		return err
	}
	return plainEnd(w, text)
}

// plainEnd closes a scene's transcript: the recap, what a lock library
// does, the references.
func plainEnd(w io.Writer, text content.Text) error {
	fmt.Fprintf(w, "\nrecap: %s\n", text.Get("recap"))
	fmt.Fprintf(w, "what a lock library does here: %s\n", text.Get("library"))
	fmt.Fprintln(w, "references:")
	for _, r := range strings.Split(text.Get("references"), "\n") {
		fmt.Fprintf(w, "  %s\n", r)
	}
	return nil
}

// plainScripts prints the source of every script the scene's log names by
// <name>, from a run of the story as written.
func plainScripts(ctx context.Context, w io.Writer, sc *Scene, b *sim.Backend, seed uint64) error {
	run := sim.NewRun(b, sc.Script(Params{}), seed)
	defer run.Close()
	defer run.Clear(context.WithoutCancel(ctx))
	if err := run.Reset(ctx); err != nil {
		return err
	}
	if err := run.Seek(ctx, len(run.Moves())); err != nil {
		return err
	}
	scripts := run.Scripts()
	for _, name := range slices.Sorted(maps.Keys(scripts)) {
		fmt.Fprintf(w, "\nscript <%s>, as sent with EVAL:\n%s\n", name, scripts[name].Src)
	}
	return nil
}

func plainVariant(ctx context.Context, w io.Writer, sc *Scene, text content.Text, b *sim.Backend, p Params, seed uint64, ask bool) error {
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
			// a distributed story's failing node is its lesson, not an outage
			if e.Unknown() && (e.Node == sim.LockNode || e.Node == sim.ResourceNode) {
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
	var labels []string
	for _, m := range run.Moves() {
		labels = append(labels, sim.MoveLabel(m))
	}
	at := sc.predictAt(labels)
	for run.Pos() < len(run.Moves()) {
		if ask && run.Pos() == at {
			fmt.Fprintf(w, "[predict: %s]\n", strings.ReplaceAll(text.Get("predict"), "\n", " "))
			for i, c := range strings.Split(text.Get("choices"), "\n") {
				fmt.Fprintf(w, "[  %d) %s]\n", i+1, c)
			}
		}
		if err := run.Seek(ctx, run.Pos()+1); err != nil {
			return err
		}
		if err := flush(); err != nil {
			return err
		}
		if ask && run.Pos() == at+1 && at >= 0 {
			s := run.Snapshot(ctx)
			n := sc.Predict.Answer(View{Snap: s, L: fold(s), P: p, Sel: -1, Text: text})
			answer := "none of them"
			if choices := strings.Split(text.Get("choices"), "\n"); n >= 0 && n < len(choices) {
				answer = fmt.Sprintf("%d) %s", n+1, choices[n])
			}
			fmt.Fprintf(w, "[the replies answer: %s]\n", answer)
		}
	}
	snap := run.Snapshot(ctx)
	if snap.Err != "" {
		return fmt.Errorf("reading keys back: %s", snap.Err)
	}
	fmt.Fprintln(w)
	for _, k := range snap.Keys {
		name := k.Name
		if k.Node != "" {
			name = "node " + k.Node + " " + name
		}
		switch {
		case k.Down:
			fmt.Fprintf(w, "%s: node stopped, not read\n", name)
		case k.Exists():
			fmt.Fprintf(w, "%s = %q · PTTL %d\n", name, k.Value, k.PTTL)
		default:
			fmt.Fprintf(w, "%s: no such key · PTTL -2\n", name)
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
		switch e.Node {
		case sim.LockNode:
		case sim.ResourceNode:
			who += "→resource"
		default:
			who += "→" + e.Node
		}
		return fmt.Sprintf("%s %s> %s → %s", at, who, e.Cmd, e.Reply)
	case sim.Clock:
		return fmt.Sprintf("%s [%s]", at, e.Note)
	default:
		return fmt.Sprintf("%s [%s]", at, e.Note)
	}
}
