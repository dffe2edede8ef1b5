package transcript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"locksim/check"
	"maps"
	"slices"
	"strings"
	"time"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/scenes/say"
	"locksim/sim"
)

// PlainOptions shape a transcript.
type PlainOptions struct {
	// Questions makes a handout for a class: each scene's story stops at
	// its question, which is printed without its answer, and everything
	// that would give the answer away (the reply that answers it, the
	// intro that tells the story, the read-back, the verdict, the other
	// settings, the recap) goes to an answer key at the end, numbered as
	// the questions are.
	Questions bool
	// Settings, when not nil, plays the scene's story with these settings
	// only (-plain -scene X -set …) instead of every combination.
	Settings scenes.Params
}

// Plain plays the scene with the given id on b without a terminal and writes
// its transcript to w: the story, one line per event (story time, actor,
// command as sent, reply as redis-cli prints it), what each actor's outcome
// means, the verdict, the prediction and its answer, the recap and the
// references. It plays every combination of the scene's settings. With id
// "" it plays the whole course, scene by scene: a handout, or a text for a
// screen reader (no box drawing, no colour, no keys of the screen, lines
// of at most 80 columns).
func Plain(ctx context.Context, w io.Writer, b *sim.Backend, id string, seed uint64) error {
	return PlainWith(ctx, w, b, id, seed, PlainOptions{})
}

// PlainWith is Plain shaped by o (-plain -questions).
func PlainWith(ctx context.Context, w io.Writer, b *sim.Backend, id string, seed uint64, o PlainOptions) error {
	ids := []string{id}
	if id == "" {
		ids = scenes.IDs()
	} else if scenes.Find(id) == nil {
		return fmt.Errorf("unknown scene %q (locksim -list shows them)", id)
	}
	t := &transcript{o: o, b: b, seed: seed}
	for i, id := range ids {
		var out bytes.Buffer
		if i > 0 {
			fmt.Fprintf(&out, "\n%s\n\n", strings.Repeat("=", 72))
		}
		err := t.scene(ctx, &out, id)
		// each scene is written as soon as it is played: a long live
		// course shows its progress, and | head stops it early
		if _, werr := io.WriteString(w, wrapColumns(out.String(), plainColumns)); werr != nil {
			return werr
		}
		if err != nil {
			return err
		}
	}
	if t.key.Len() > 0 {
		head := fmt.Sprintf("\n%s\n\nanswer key\n", strings.Repeat("=", 72))
		if _, err := io.WriteString(w, wrapColumns(head+t.key.String(), plainColumns)); err != nil {
			return err
		}
	}
	return nil
}

// plainColumns is the width of a transcript's lines: a handout's page, a
// screen reader's line.
const plainColumns = 80

// transcript is one transcript being written: its options, server and
// seed, and with Questions the answer key and the questions asked so far.
type transcript struct {
	o    PlainOptions
	b    *sim.Backend
	seed uint64
	key  bytes.Buffer
	n    int // questions asked so far
}

// role is the transcript's reader: a handout's (-questions), whose
// answers go to the key at its end, or a plain transcript's.
func (t *transcript) role() play.Role {
	if t.o.Questions {
		return play.Handout
	}
	return play.Transcript
}

// scene writes one scene's transcript to w (and, with Questions, what
// answers its question to the answer key).
func (t *transcript) scene(ctx context.Context, w io.Writer, id string) error {
	b, seed := t.b, t.seed
	sc := scenes.Find(id)
	// the handout's form: no sentence that names a key of the screen
	text, err := content.LoadHandout(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "locksim · %s · %s · %s\n", sc.ID, text.Get("dive"), text.Get("title"))
	if !sc.Sends() {
		if t.o.Questions {
			return t.quiz(w, text)
		}
		if err := plainQuiz(w, text); err != nil {
			return err
		}
		return plainEnd(w, text)
	}
	plainServer(w, sc.Script(scenes.Params{}), b, seed)
	// every story whose schedule has the decisive move asks its own
	// question (each setting is a question of its own, as a class counts
	// them), in the stories' order
	stories := sc.Stories()
	if t.o.Settings != nil {
		stories = []scenes.Params{t.o.Settings}
	}
	var asks []bool
	question := false
	for _, p := range stories {
		// the rule says where the story's question stands, open for a
		// reader at its start; a story whose fault a live server cannot
		// play asks nothing there
		start := play.Position{Version: play.PositionVersion, Scene: sc.ID, Settings: map[string]int(p), Seed: seed}
		ask := play.Disclose(start, t.role()).Open && !(b.Live() && sc.NeedsEmbedded(p)) && play.FormsRefusal(sc, p, b) == ""
		asks = append(asks, ask)
		question = question || ask
	}
	// a handout without answers keeps for its answer key what follows
	// each question; the intro stops at the first question, and the rest
	// of it (intro-answer) is printed after the stories, or in the key
	held := t.o.Questions && question
	var keyed bytes.Buffer // the scene's part of the answer key
	fmt.Fprintf(w, "\n%s\n", handoutLine(text.Get("intro")))
	asked := false
	// the scripts of the story as written, from its play among the
	// settings when it is one of them (a third play of the race's
	// transcript was a fifth of its start)
	var written *map[string]sim.Lua
	for i, p := range stories {
		out := w
		if held && asked && !asks[i] {
			// a story that asks nothing, played whole, may answer a
			// question asked before it: it goes to the key; a story that
			// asks is on the handout up to its question
			out = &keyed
		}
		pv := plainVariant{t: t, sc: sc, text: text, p: p, ask: asks[i], w: out, key: &keyed}
		if written == nil && asWritten(p) {
			written = new(map[string]sim.Lua)
			pv.scripts = written
		}
		asked = asked || asks[i]
		if err := pv.play(ctx); err != nil {
			return err
		}
	}
	rest := w
	if held {
		rest = &t.key
		keyed.WriteTo(rest)
	}
	if text.Has("intro-answer") {
		fmt.Fprintf(rest, "\n%s\n", handoutLine(text.Get("intro-answer")))
	}
	if written == nil || *written == nil {
		scripts, err := writtenScripts(ctx, sc, b, seed)
		if err != nil {
			return err
		}
		written = &scripts
	}
	plainScripts(rest, *written)
	return plainEnd(rest, text)
}

// asWritten reports whether p are the settings of the story as written:
// every knob at its first value, as a session with no settings plays it.
func asWritten(p scenes.Params) bool {
	for _, v := range p {
		if v != 0 {
			return false
		}
	}
	return true
}

// plainServer says where a story plays: the server, the seed, on a live
// server its prefix and scale, the resource's store, the nodes.
func plainServer(w io.Writer, script sim.Script, b *sim.Backend, seed uint64) {
	fmt.Fprintf(w, "server: %s · seed %d", b.Name, seed)
	scale := script.ScaleOn(b)
	if b.Live() {
		if scale < b.Scale {
			fmt.Fprintf(w, " · -scale capped at %d for this scene", scale)
		}
		fmt.Fprintf(w, " · keys under %s", b.Prefix)
	}
	if r := b.ResourceStore(); r != nil {
		fmt.Fprintf(w, "\nprotected resource: %s · keys under %s", r.Name, r.Prefix)
	}
	fmt.Fprintln(w)
	if len(script.Nodes) > 0 {
		fmt.Fprintln(w, plainNodes(b, script.Nodes))
	}
	if b.Live() {
		fmt.Fprintf(w, "units: t=+ is story time. Commands and replies are as sent and received on the wire, where story time is divided by %d; each duration on the wire is labelled with its story time, e.g. PX %d on the wire = %s of story.\n",
			scale, (sim.CourseTTL / time.Duration(scale)).Milliseconds(), storyDur(sim.CourseTTL))
	}
}

// plainNodes says where a distributed story's nodes keep their keys.
func plainNodes(b *sim.Backend, names []string) string {
	live := b.Nodes()
	switch {
	case len(live) >= len(names):
		var parts []string
		for i, n := range names {
			parts = append(parts, fmt.Sprintf("%s on %s under %s", n, live[i].Name, live[i].Prefix))
		}
		return "nodes (-redlock, one run prefix each): " + strings.Join(parts, " · ")
	case b.Live():
		return fmt.Sprintf("nodes %s to %s: namespaces of this one server (no -redlock: one process, one clock), keys under %snode-%s: to %snode-%s:",
			names[0], names[len(names)-1], b.Prefix, names[0], b.Prefix, names[len(names)-1])
	}
	return fmt.Sprintf("nodes %s to %s: %d embedded servers of their own, one clock each", names[0], names[len(names)-1], len(names))
}

// quiz writes a quiz with Questions: every situation and the choices,
// without its class, tool and reason, which go to the answer key.
func (t *transcript) quiz(w io.Writer, text content.Text) error {
	items, err := scenes.Situations(text)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "a quiz: no command is sent to any server\n\n")
	fmt.Fprintf(w, "every situation asks: %s\n", text.Get("predict"))
	for i, c := range strings.Split(text.Get("choices"), "\n") {
		fmt.Fprintf(w, "  %d) %s\n", i+1, c)
	}
	for i := int64(1); text.Has("hint-" + itoa(i)); i++ {
		fmt.Fprintf(w, "hint %d: %s\n", i, handoutLine(text.Get("hint-"+itoa(i))))
	}
	for _, s := range items {
		t.n++
		fmt.Fprintf(w, "\nquestion %d: %s\n   %s\n   assumes: %s\n   your answer:\n", t.n, s.Name, s.Text, s.Assumption)
		fmt.Fprintf(&t.key, "\nquestion %d (choose · %s): %s (choice %d)\n   tool: %s\n   why: %s\n", t.n, s.Name,
			text.Get("class-"+s.Class.String()), int(s.Class)+1, text.Get("tool-"+s.Tool), s.Why)
	}
	fmt.Fprintf(&t.key, "\nchoose: %s\n", handoutLine(text.Get("intro")))
	return plainEnd(&t.key, text)
}

// plainQuiz writes a quiz as an instructor's answer key: the question
// every situation asks, then each situation with its assumption, the
// class, the tool that fits and why.
func plainQuiz(w io.Writer, text content.Text) error {
	items, err := scenes.Situations(text)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "a quiz: no command is sent to any server\n\n%s\n\n", text.Get("intro"))
	fmt.Fprintf(w, "every situation asks: %s\n", text.Get("predict"))
	for i, c := range strings.Split(text.Get("choices"), "\n") {
		fmt.Fprintf(w, "  %d) %s\n", i+1, c)
	}
	for i := int64(1); text.Has("hint-" + itoa(i)); i++ {
		fmt.Fprintf(w, "hint %d: %s\n", i, text.Get("hint-"+itoa(i)))
	}
	byClass := map[scenes.Class][]string{}
	for i, s := range items {
		fmt.Fprintf(w, "\n%d. %s\n   %s\n   assumes: %s\n", i+1, s.Name, s.Text, s.Assumption)
		fmt.Fprintf(w, "   key: %s (choice %d)\n   tool: %s\n   why: %s\n", text.Get("class-"+s.Class.String()), int(s.Class)+1,
			text.Get("tool-"+s.Tool), s.Why)
		byClass[s.Class] = append(byClass[s.Class], itoa(int64(i+1)))
	}
	_, err = fmt.Fprintf(w, "\nanswer key: %s %s · %s %s\n", scenes.Efficiency, strings.Join(byClass[scenes.Efficiency], ", "),
		scenes.Correctness, strings.Join(byClass[scenes.Correctness], ", "))
	return err
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

// plainScripts prints the source of every script in scripts (the ones the
// scene's log names by <name>), by name.
func plainScripts(w io.Writer, scripts map[string]sim.Lua) {
	for _, name := range slices.Sorted(maps.Keys(scripts)) {
		fmt.Fprintf(w, "\nscript <%s>, as sent with EVAL:\n%s\n", name, scripts[name].Src)
	}
}

// writtenScripts is every script the story as written sends, played to
// its end.
func writtenScripts(ctx context.Context, sc *scenes.Scene, b *sim.Backend, seed uint64) (map[string]sim.Lua, error) {
	s, err := openStory(ctx, b, play.Position{Version: play.PositionVersion, Scene: sc.ID, Seed: seed}, content.Text{}, sc)
	if err != nil {
		return nil, err
	}
	defer s.Close(context.WithoutCancel(ctx))
	play.Driver{S: s}.Run(s.SeekTo(len(s.Snap.Moves)))
	if err := runErr(s); err != nil {
		return nil, err
	}
	return s.Snap.Scripts, nil
}

// openStory opens a session of the core at pos on b, as the screen would,
// for a reader that reads nothing between moves: the session never stops
// at the question (the transcript asks it itself) and a live run's clock
// is never held. The learner's own moves are in its schedule, and it
// stands at the story's start. text, when it has sections, is the text the
// readouts are written from (the handout's form). sc, if not nil, is the
// scene pos names. Close the session when done.
func openStory(ctx context.Context, b *sim.Backend, pos play.Position, text content.Text, sc *scenes.Scene) (*play.Session, error) {
	pos.Step, pos.Prediction = 0, nil
	env := play.Env{Backend: b, ID: 1, Headless: true, Text: text}
	if sc != nil && sc.ID == pos.Scene {
		// the scene the caller has: the registry's is built afresh on
		// each look-up
		env.Scenes = []*scenes.Scene{sc}
	}
	s, err := play.Open(ctx, pos, env)
	if err != nil {
		return nil, err
	}
	d := play.Driver{S: s}
	d.Run(s.Start(nil))
	if s.Snap.Pos > 0 {
		// the own moves went in: the story starts from the top of its
		// schedule (a headless session fires no race as it starts)
		d.Run(s.SeekTo(0))
	}
	if err := runErr(s); err != nil {
		s.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return s, nil
}

// runErr is the session's failure to run its last command, if any; a
// failed read-back is left to the caller, which reads the keys at the end.
func runErr(s *play.Session) error {
	if s.Err != "" && s.Snap.Err == "" {
		return errors.New(s.Err)
	}
	return nil
}

// plainVariant is one setting of a scene, played to its end.
type plainVariant struct {
	t    *transcript
	sc   *scenes.Scene
	text content.Text
	p    scenes.Params
	own  []play.Own // the learner's own moves in the story, if any
	// lab and trial are a position's lab story or trial of the race, if any
	lab   *play.LabPlace
	trial *play.TrialRecord
	// guess is the prediction a position gave at the question, if any
	guess *play.Prediction
	ask   bool // this setting asks its story's question
	// stop: the question is open for the reader, who has not answered
	// it: the story stops there, and goOn says how to answer and play on
	stop bool
	goOn string
	w    io.Writer // where the story goes; after a Questions question, key
	key  io.Writer // the scene's part of the answer key
	// scripts, if not nil, gets the scripts the story sent once it has
	// played to its end
	scripts *map[string]sim.Lua
}

func (v plainVariant) play(ctx context.Context) (err error) {
	sc, b, p, w := v.sc, v.t.b, v.p, v.w
	pos := play.Position{Version: play.PositionVersion, Scene: sc.ID, Settings: map[string]int(p), Seed: v.t.seed, Own: v.own, Lab: v.lab, Trial: v.trial}
	if r := play.FormsRefusal(sc, p, b); r != "" {
		// a story in a command this server does not have is not played
		fmt.Fprintf(w, "\n== %s ==\nNot played here: %s.\n", sc.Describe(p), r)
		return nil
	}
	s, err := openStory(ctx, b, pos, v.text, sc)
	if err != nil {
		return err
	}
	// a trial of the race plays as a story of its own commands
	sc = s.Scene
	defer s.Close(context.WithoutCancel(ctx))
	d := play.Driver{S: s}
	if len(sc.Knobs) > 0 {
		fmt.Fprintf(w, "\n== %s ==\n", sc.Describe(p))
		if b.Live() && sc.NeedsEmbedded(p) {
			fmt.Fprintln(w, "This story needs the embedded server: on a live one it plays without its fault, and asks nothing.")
		}
	}
	// the start line, as the screen's readout says it before the first step
	if s.Snap.Err == "" {
		if start := handoutLine(s.Explanation().Readout); start != "" {
			fmt.Fprintf(w, "\nstart: %s\n", start)
		}
	}
	fmt.Fprintln(w)
	// a story cut short says so where it stops, and why, in the transcript
	// itself: what follows the last line would not be the story's
	defer func() {
		if err != nil {
			fmt.Fprintf(w, "\nThe story stops here: %v.\n", err)
		}
	}()
	printed := 0
	// how a live server played a fault (sim.Event.Simulated) may answer
	// the question about it: while the rule holds the question open it is
	// held, and said once the replies have answered
	var held []string
	var answer pendingAnswer
	flush := func() error {
		events := s.Snap.Events
		here := pos
		here.Step = s.Snap.Pos
		checked := !v.ask || play.Disclose(here, v.t.role()).Checked
		for _, e := range events[printed:] {
			if said := e; e.Simulated != "" {
				if checked {
					// the reply or note with how it was played, in its line
					if e.Kind == sim.Command {
						said.Reply += " (simulated: " + e.Simulated + ")"
					} else {
						said.Note += " (simulated: " + e.Simulated + ")"
					}
					e = said
				} else {
					held = append(held, simulatedLine(e))
				}
			}
			line := plainEventOn(e, events, s.Snap.Scale, b.Live())
			if _, err := fmt.Fprintln(w, line); err != nil {
				return err
			}
			// a distributed story's failing node is its lesson, not an outage
			if e.Unknown() && !e.Lost && (e.Node == sim.LockNode || e.Node == sim.ResourceNode) {
				// an outage is not a lock outcome: stop, and say which command
				if e.NotSent() {
					return fmt.Errorf("at %s, %s's %s was never sent (%s), and what follows would not be the story",
						scenes.Stamp(e.At), e.Actor, e.Cmd, e.Reply)
				}
				return fmt.Errorf("at %s, %s's %s got %s, and what follows would not be the story",
					scenes.Stamp(e.At), e.Actor, e.Cmd, e.Reply)
			}
		}
		printed = len(events)
		return nil
	}
	if err := flush(); err != nil {
		return err
	}
	// where the question stands, as the rule reads the story's start
	at := play.Disclose(pos, v.t.role()).At
	for s.Snap.Pos < len(s.Snap.Moves) {
		// a signal cancels ctx: a step then returns without moving on
		if err := ctx.Err(); err != nil {
			return err
		}
		if v.ask && s.Snap.Pos == at {
			v.question(w)
			if v.stop {
				// the reader's question: nothing past it until answered
				fmt.Fprintf(w, "[the story stops at its question: to answer it and play on, %s]\n", v.goOn)
				return nil
			}
			if v.t.o.Questions {
				fmt.Fprintf(w, "(the story goes on in the answer key, question %d)\n", v.t.n)
				w = v.key
				fmt.Fprintf(w, "\nquestion %d (%s):", v.t.n, sc.ID)
			}
		}
		from := printed
		if err := step(d); err != nil {
			return err
		}
		if v.ask && s.Snap.Pos == at+1 && at >= 0 && v.t.o.Questions {
			fmt.Fprintf(w, " the replies answer: %s\nthe story goes on:\n", v.answer(s))
		}
		if err := flush(); err != nil {
			return err
		}
		if v.ask && s.Snap.Pos == at+1 && at >= 0 && !v.t.o.Questions {
			answer = pendingAnswer{v.answer(s), from}
		}
		answer.say(w, s.Snap.Events, s.Snap.Pos == len(s.Snap.Moves))
		if len(held) > 0 && s.Snap.Pos > at && answer.text == "" {
			fmt.Fprintf(w, "[how locksim played the faults on this live server: %s]\n", strings.Join(held, "; "))
			held = nil
		}
	}
	snap := s.Snap
	if snap.Err != "" {
		return fmt.Errorf("reading keys back: %s", snap.Err)
	}
	if v.scripts != nil {
		*v.scripts = maps.Clone(snap.Scripts)
		if *v.scripts == nil {
			*v.scripts = map[string]sim.Lua{} // played: none sent
		}
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
			fmt.Fprintf(w, "%s = %q · %s\n", name, k.Value, pttlLabel(k.PTTL, snap.Scale, b.Live()))
		default:
			fmt.Fprintf(w, "%s: no such key · PTTL -2\n", name)
		}
	}
	if r := snap.Resource; r != nil {
		fmt.Fprintf(w, "resource: %s · accepted %d · rejected %d", r.LastWrite(), r.Accepted, r.Rejected)
		if r.MaxToken > 0 {
			fmt.Fprintf(w, " · largest token %d", r.MaxToken)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	// each actor's readout, as the screen shows it with that actor picked
	for i, a := range snap.Actors {
		s.Select(i)
		fmt.Fprintf(w, "%s: %s\n", a.Name, handoutLine(s.Explanation().Readout))
	}
	s.Select(-1)
	ex := s.Explanation()
	if ex.Alarm != "" {
		fmt.Fprintf(w, "ALARM: %s\n", ex.Alarm)
	}
	if ex.Verdict != "" {
		fmt.Fprintf(w, "verdict: %s\n", ex.Verdict)
	}
	var props []string
	for i, pr := range ex.Props {
		props = append(props, say.PropNames()[i]+" "+[...]string{"untested", "held", "BROKEN", "absent"}[pr])
	}
	fmt.Fprintf(w, "properties: %s\n", strings.Join(props, " · "))
	// the same history checked against each of the checker's models
	rep := check.Check(check.FromSnapshot(snap), check.DefaultTimeout)
	for _, f := range rep.Findings {
		line := "checked as " + f.Model.Title + ": " + f.Short()
		if f.Result == check.NotLinearizable || f.Result == check.Unknown {
			line += ". " + f.Sentence
		}
		fmt.Fprintln(w, line)
	}
	code, err := storyCode(s, v.guess, at >= 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "story code: -story %s\n", code)
	return nil
}

// simulatedLine is how a live server played an event's fault, said once
// the question is answered: "node C restarted, without persistence:
// locksim deleted its own keys there".
func simulatedLine(e sim.Event) string {
	what := e.Note
	if e.Kind == sim.Command {
		cmd := "command"
		if len(e.Args) > 0 {
			cmd = e.Args[0]
		}
		what = fmt.Sprintf("%s's %s at %s", e.Actor, cmd, scenes.Stamp(e.At))
	}
	return what + ": " + e.Simulated
}
