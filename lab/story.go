package lab

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/scenes"
	"locksim/sim"
)

// SceneID is the id of the scene a lab story plays as: its text is
// content/text/lab.txt.
const SceneID = "lab"

// ProbeClient is the client that, in a deadlock-freedom break of a
// story with clients clients, comes twice the TTL after the last move and
// is refused: the letter after the last client's (C after A and B), so
// the cards' names run on with no gap.
func ProbeClient(clients int) string { return string(rune('A' + clients)) }

// Script is the break as a story for the player: the clients A, B (and C)
// run l's parts on the story's backend, one command or Lua part per step,
// with the protected resource; the schedule is the break's moves (a pause
// is Pause, Advance, Resume; a clock jump an Advance; a restart a move
// that deletes the story's keys). A deadlock-freedom break ends with a
// new client, ProbeClient's, trying twice the TTL later. The lab runs it on
// the embedded server.
func (b *Break) Script() sim.Script { return StoryOf(&b.Lock, b.Clients, b.Moves, b.Probe) }

// storyOf is StoryOf with l compiled for running (compileRun's program and
// error): a program is never written after, so a lock's stories share it.
func storyOf(pr *program, err error, l *Lock, clients int, moves []Move, probe bool) sim.Script {
	st := &storyState{pr: pr, lost: map[string][]bool{}}
	names := clientNames[:max(2, min(clients, 3))]
	steps := map[string][]string{}
	for _, m := range moves {
		if m.IsStep() {
			steps[m.Client] = append(steps[m.Client], m.Client+" "+m.Label)
			st.lost[m.Client] = append(st.lost[m.Client], m.Fault == LostReply)
		}
	}
	var actors []sim.ActorSpec
	for i, n := range names {
		prog := []sim.Step{}
		labels := steps[n]
		if len(labels) == 0 && err == nil {
			labels = pr.plainSteps(n)
		}
		for _, lb := range labels {
			prog = append(prog, sim.Step{Label: strings.TrimPrefix(lb, n+" "), Run: st.run(i, err)})
		}
		actors = append(actors, sim.ActorSpec{Name: n, Program: prog})
	}
	var sm []sim.Move
	ttl := l.Policy.TTL
	for _, m := range moves {
		switch m.Fault {
		case "", LostReply:
			if strings.HasPrefix(m.Label, "retry") {
				// the retry delay passes for everyone, as in the search
				adv := sim.Advance(l.Policy.RetryDelay)
				adv.Label = m.Client + " waits to retry"
				sm = append(sm, adv)
			}
			if d, ok := workOf(m.Label); ok {
				// so does the time its work takes
				adv := sim.Advance(d)
				adv.Label = m.Client + " works for " + sim.FormatDuration(d)
				sm = append(sm, adv)
			}
			sm = append(sm, sim.Labeled(m.Client, m.String()))
		case PauseHalf, PausePast:
			d := ttl / 2
			if m.Fault == PausePast {
				d = ttl + time.Millisecond
			}
			adv := sim.Advance(d)
			adv.Label = m.String()
			sm = append(sm, sim.Pause(m.Client), adv, sim.Resume(m.Client))
		case Crash:
			sm = append(sm, sim.Crash(m.Client))
		case ClockJump:
			adv := sim.Advance(ttl + time.Millisecond)
			adv.Label = m.String()
			sm = append(sm, adv)
		case Restart:
			sm = append(sm, sim.Move{Kind: sim.MoveDo, Label: m.String(), Do: restart})
		}
	}
	if probe {
		actors = append(actors, sim.ActorSpec{Name: ProbeClient(clients), Program: []sim.Step{{Label: "acquire", Run: st.run(3, err)}}})
		adv := sim.Advance(2 * ttl)
		adv.Label = "twice the TTL passes"
		sm = append(sm, adv, sim.Labeled(ProbeClient(clients), ProbeClient(clients)+" acquire"))
	}
	return sim.Script{
		Actors:   actors,
		Keys:     []string{LockKey},
		Watch:    []string{LockKey},
		Moves:    sm,
		Resource: true,
		Setup: func(x *sim.Exec) {
			st.reset()
			if b := x.Run().Backend(); b.Embedded() != nil {
				// a key a script made of its own (KEYS[1] .. ":n") is
				// none of the run's, which a reset deletes: the story
				// starts on an empty server each time it plays, as every
				// schedule of the search does, or a replay, or the next
				// story on this server, would get other replies
				keys, _ := b.StoryKeys(context.Background())
				_ = b.Delete(context.Background(), keys...)
			}
			// the parts run in the lab's host, under its limits, not in
			// miniredis's own Lua
			st.sh = hostStory(x.Run().Backend(), st.pr)
		},
	}
}

// plainSteps are a client's step labels in a run with nobody in its way:
// acquire, extend, write, release, one per command of a Commands part;
// for a lock with work or nested acquires, the steps a client alone on
// an empty server takes (its stretches of work, renewals, nested acquire
// and release among them).
func (pr *program) plainSteps(name string) []string {
	if len(pr.moveKinds()) > 0 {
		if out := pr.soloSteps(name); len(out) > 0 {
			return out
		}
	}
	var out []string
	for _, p := range []*part{pr.acquire, pr.extend, nil, pr.release} {
		switch {
		case p == nil && len(out) > 0 && !slices.Contains(out, name+" write"):
			out = append(out, name+" write")
		case p == nil:
		case p.Lang == Lua:
			out = append(out, name+" "+p.Name)
		default:
			for _, ln := range p.lines {
				out = append(out, name+" "+p.Name+": "+strings.ToUpper(ln.Args[0]))
			}
		}
	}
	return out
}

// soloSteps are the labels of the steps client A takes alone on an
// empty server, each prefixed with name; nil if the lock cannot run.
func (pr *program) soloSteps(name string) []string {
	srv, err := NewServer()
	if err != nil {
		return nil
	}
	defer srv.Close()
	host := NewHost(srv, DefaultBudget())
	defer host.Close()
	var errs []*ScriptError
	w := world{n: 1, owner: -1}
	x := &searchExec{ctx: context.Background(), srv: srv, host: host, w: &w, errs: &errs}
	var out []string
	for c := &w.c[0]; c.active() && len(out) < 64; {
		label, err := pr.step(c, 0, token(0), &w.grants, false, x)
		if err != nil {
			return nil
		}
		out = append(out, name+" "+label)
	}
	return out
}

// storyState is one story run's clients; Setup resets it, so a replay
// starts afresh.
type storyState struct {
	pr     *program
	lost   map[string][]bool
	c      [4]client
	taken  [4]int
	grants int
	sh     *storyHost // the host the parts run in; nil on a live server
}

func (st *storyState) reset() {
	st.c, st.taken, st.grants = [4]client{}, [4]int{}, 0
}

func restart(ctx context.Context, r *sim.Run) {
	b := r.Backend()
	// the story's keys only: on a live server, the names the run sent,
	// never whatever a SCAN of its prefix finds
	keys, _ := b.StoryKeys(ctx)
	_ = b.Delete(ctx, keys...)
	r.Record(sim.Event{Kind: sim.Fault, Fault: sim.FaultNodeDown, Node: sim.LockNode, Note: "the server stops"})
	r.Record(sim.Event{Kind: sim.Fault, Fault: sim.FaultNodeUp, Node: sim.LockNode,
		Note: "the server restarts without persistence: every key is gone"})
}

// run is the step of client i: its next command, as in the search.
func (st *storyState) run(i int, cerr error) func(x *sim.Exec) {
	return func(x *sim.Exec) {
		if cerr != nil {
			x.Note("the lock cannot run: " + cerr.Error())
			return
		}
		a := x.Actor()
		c := &st.c[i]
		if !c.active() {
			x.Note(a.Name + " has finished: nothing to do")
			return
		}
		if c.phase == phAcquire && c.wait && i == 3 {
			x.Note(a.Name + " was refused")
			return
		}
		lost := false
		if k := st.taken[i]; k < len(st.lost[a.Name]) {
			lost = st.lost[a.Name][k]
		}
		st.taken[i]++
		ex := &storyExec{x: x, ttl: st.pr.lock.Policy.TTL, sh: st.sh, nested: c.phase == phRelease && c.nest > 1}
		ph := c.phase
		if _, err := st.pr.step(c, i, a.Token, &st.grants, lost, ex); err != nil {
			x.Note(err.Error())
		}
		if ph == phAcquire && c.phase == phDone && c.grant == 0 && slices.Contains(st.pr.lock.Policy.Properties, NoLeaseWasted) {
			ex.gaveUp(c.tries, lost)
		}
		a.Holds, a.Fence = c.holds, c.fence
		if c.holds {
			a.Lock, a.Value = LockKey, a.Token
		}
	}
}

// storyExec sends a client's commands on its own connection in a story
// and logs each with the lock operation it belongs to, for the ledger.
type storyExec struct {
	x   *sim.Exec
	ttl time.Duration
	sh  *storyHost
	// nested is set for a reentrant lock's nested release (and its
	// retries): its client still holds its outer acquire after it
	nested bool
}

func (e *storyExec) lua(i int, p *part, keys, argv []string, lost bool) reply {
	x := e.x
	key := x.Key(keys[0])
	args := []any{}
	for _, a := range argv {
		args = append(args, a)
	}
	op := &sim.Op{Lock: LockKey, Key: key, Token: x.Actor().Token}
	// the ledger tells leases apart by the value in the key: a release or
	// an extend acts on the value the key holds as it runs, and a grant
	// wrote whatever the script wrote, which may not be the token (read
	// on the backend's own connection, not logged)
	if p.Name != PartAcquire {
		op.Token = e.value(key, op.Token)
	}
	before, known := e.keyNow(key)
	r := x.Eval(sim.Lua{Name: p.File(), Src: p.Src}, []string{key}, args...)
	switch p.Name {
	case PartAcquire:
		op.Kind, op.Form, op.NX, op.TTL = sim.OpAcquire, sim.FormSET, true, e.ttl
		if _, ok := r.Int(); ok {
			op.Form = sim.FormFenced
		}
		if ok, _ := granted(reply{r.Val, r.Err}, Lua); ok {
			op.Token = e.value(key, op.Token)
			op.Fixed = op.Token != x.Actor().Token
			// the lease is what the script set, not what the policy asks
			// for: PX 1, EX in place of PX, or no TTL at all
			if after, ok := e.keyNow(key); ok && after.Has {
				op.TTL = max(after.TTLAfter, 0)
			}
		}
	case PartRelease:
		op.Kind, op.Form, op.Nested = sim.OpRelease, sim.FormScript, e.nested
	case PartExtend:
		op.Kind, op.Form, op.TTL = sim.OpExtend, sim.FormScript, e.ttl
	}
	if op.Kind != sim.OpAcquire || !lost {
		// an acquire's too, its reply heard: the ledger reads one that
		// lets nobody in while the key holds nothing as a lock that never
		// grants (ledger.Refusal.Free), as the search does
		op.Seen = e.seen(key, before, known)
		if after := op.Seen; after != nil && after.Has && after.TTLAfter >= 0 && op.Kind == sim.OpExtend {
			op.TTL = after.TTLAfter
		}
	}
	out := e.logged(op, r, lost)
	if lossy := e.sh.lossy(); len(lossy) > 0 {
		// what Redis's Lua did to the tokens, which no reply shows
		names := map[string]string{}
		for _, a := range x.Run().Actors {
			names[a.Token] = a.Name
		}
		x.Note(x.Actor().Name + "'s " + p.Name + ": " + lossyNote(lossy, names))
	}
	return out
}

// gaveUp logs a client's decision to stop trying to acquire, after tries
// retries, the last refused or (lost) its reply never heard, with the lock key as it stands (Op.Seen): the ledger reads a
// key that holds the client's own token then as a lease wasted
// (ledger.WastedLeases). Logged only when no-lease-wasted is judged, so
// the stories of the other properties read as before.
func (e *storyExec) gaveUp(tries int, lost bool) {
	x := e.x
	a := x.Actor()
	key := x.Key(LockKey)
	last := "refused"
	if lost {
		last = "no reply heard"
	}
	form, why := sim.GiveUpFast, last+", and no retry left"
	if tries > 0 {
		form, why = sim.GiveUpRetries, last+", and its "+strconv.Itoa(tries)+" "+plural(tries, "retry", "retries")+" used up"
	}
	op := &sim.Op{Kind: sim.OpGiveUp, Form: form, Lock: LockKey, Key: key, Token: a.Token}
	if now, ok := e.keyNow(key); ok {
		op.Seen = &now
	}
	x.Run().Record(sim.Event{Kind: sim.Info, Actor: a.Name, Note: a.Name + " could not acquire: " + why, Op: op})
}

// keyNow is key's value and TTL left, read on the backend's own
// connection, as the before half of a sim.KeyChange (Had, Before,
// TTLBefore) and the after half alike (Has, After, TTLAfter).
// A hash of one field (a reentrant lock's: its holder's token, counting
// its acquires) reads as that field, the holder, whose count the value
// does not show; any other key of another type than a string is not read:
// known is false, and the ledger reads the part by its reply.
func (e *storyExec) keyNow(key string) (c sim.KeyChange, known bool) {
	ctx := context.Background()
	a := e.x.Run().Backend().Admin()
	var v string
	switch t, err := a.Type(ctx, key).Result(); {
	case err != nil:
		return c, false
	case t == "none":
		return sim.KeyChange{TTLBefore: -1, TTLAfter: -1}, true
	case t == "hash":
		fields, err := a.HKeys(ctx, key).Result()
		if err != nil || len(fields) != 1 {
			return c, false
		}
		v = fields[0]
	case t != "string":
		return c, false
	default:
		if v, err = a.Get(ctx, key).Result(); err != nil {
			return c, false
		}
	}
	ttl := time.Duration(-1)
	if ms, err := a.Do(ctx, "PTTL", key).Int64(); err == nil && ms >= 0 {
		ttl = time.Duration(ms) * time.Millisecond
	}
	return sim.KeyChange{Had: true, Has: true, Before: v, After: v, TTLBefore: ttl, TTLAfter: ttl}, true
}

// seen is what a part did to key: before as keyNow read it (known: it
// could), and the key now; nil when either read could not tell.
func (e *storyExec) seen(key string, before sim.KeyChange, known bool) *sim.KeyChange {
	now, ok := e.keyNow(key)
	if !known || !ok {
		return nil
	}
	return &sim.KeyChange{Had: before.Had, Before: before.Before, TTLBefore: before.TTLBefore,
		Has: now.Has, After: now.After, TTLAfter: now.TTLAfter}
}

// value is key's value read on the backend's own connection, or def when
// it holds none.
func (e *storyExec) value(key, def string) string {
	v, err := e.x.Run().Backend().Admin().Get(context.Background(), key).Result()
	if err != nil {
		return def
	}
	return v
}

func (e *storyExec) cmd(i int, p *part, n int, args []string, lost bool) reply {
	x := e.x
	name := strings.ToUpper(args[0])
	send := make([]any, len(args))
	for k, a := range args {
		if a == LockKey {
			a = x.Key(LockKey)
		}
		send[k] = a
	}
	key := x.Key(LockKey)
	var r sim.Reply
	before, known := e.keyNow(key)
	if blocked[name] {
		r = sim.Reply{Err: ErrorReply("ERR the lab does not run " + name)}
		x.Note(x.Actor().Name + ": the lab does not run " + name)
	} else {
		r = x.Do(send...)
	}
	op := opOf(p, n, name, args, key, x.Actor().Token)
	if op != nil && (op.Kind == sim.OpRelease || op.Kind == sim.OpExtend) && !sim.ComparesInOneCommand(op.Form) {
		// a command that compares in itself says in its reply what it did;
		// a DEL or EXPIRE's reply says less than the key
		op.Seen = e.seen(key, before, known)
	}
	if op != nil && op.Kind == sim.OpAcquire && !lost {
		// what the key held as it ran: see lua
		op.Seen = e.seen(key, before, known)
	}
	return e.logged(op, r, lost)
}

// opOf tags a plain command with the lock operation it is, so the
// ledger reads it as it reads the scenes' own locks.
func opOf(p *part, n int, name string, args []string, key, token string) *sim.Op {
	op := &sim.Op{Lock: LockKey, Key: key, Token: token}
	switch {
	case p.Name == PartAcquire && name == "SET" && len(args) > 2:
		op.Kind, op.Form, op.Token = sim.OpAcquire, sim.FormSET, args[2]
		op.Fixed = args[2] != token
		op.NX = slices.ContainsFunc(args[3:], func(a string) bool { return strings.EqualFold(a, "NX") })
		op.TTL = setTTL(args)
	case p.Name == PartAcquire && name == "SETNX" && len(args) > 2:
		op.Kind, op.Form, op.NX, op.Token = sim.OpAcquire, sim.FormSETNX, true, args[2]
		op.Fixed = args[2] != token
	case p.Name == PartAcquire && (name == "EXPIRE" || name == "PEXPIRE") && len(args) > 2:
		op.Kind, op.Form = sim.OpExpire, sim.FormPExpire
		v, _ := strconv.ParseInt(args[2], 10, 64)
		op.TTL = time.Duration(v) * time.Millisecond
		if name == "EXPIRE" {
			op.Form, op.TTL = sim.FormExpire, time.Duration(v)*time.Second
		}
	case p.Name != PartAcquire && name == "GET":
		op.Kind = sim.OpCheck
	case p.Name == PartAcquire && name == "GET" && peekBeforeSet(p.lines[min(n+1, len(p.lines)):]):
		// the check-then-set acquire's check: the ledger reads (nil) as the
		// key looking free, a value as taken
		op.Kind = sim.OpPeek
	case p.Name == PartRelease && name == "DELEX" && len(args) == 4 && strings.EqualFold(args[2], "IFEQ"):
		// compares and deletes in one command, as the script does
		op.Kind, op.Form, op.Token = sim.OpRelease, sim.FormDelex, args[3]
		op.Fixed = args[3] != token
	case p.Name == PartRelease && name == "DELIFEQ" && len(args) == 3:
		op.Kind, op.Form, op.Token = sim.OpRelease, sim.FormDelifeq, args[2]
		op.Fixed = args[2] != token
	case p.Name == PartExtend && name == "SET" && len(args) > 2 && setIfeq(args) != "":
		op.Kind, op.Form, op.Token = sim.OpExtend, sim.FormSetIfeq, setIfeq(args)
		if slices.ContainsFunc(args[3:], func(a string) bool { return strings.EqualFold(a, "GET") }) {
			// with GET the reply is the old value, not OK: the ledger
			// reads it by comparing with the token
			op.Form = sim.FormSetIfeqGet
		}
		op.Fixed = op.Token != token
		op.TTL = setTTL(args)
	case p.Name == PartRelease && (name == "DEL" || name == "UNLINK" || (name == "DELEX" && len(args) == 2)):
		op.Kind, op.Form = sim.OpRelease, sim.FormDEL
		for _, ln := range p.lines[:n] {
			if strings.EqualFold(ln.Args[0], "GET") {
				op.Form = sim.FormGetDel
			}
		}
	case p.Name == PartExtend && (name == "EXPIRE" || name == "PEXPIRE"):
		op.Kind, op.Form = sim.OpExtend, sim.FormScript
	default:
		return nil
	}
	return op
}

// setTTL is the TTL a SET's PX or EX option gives; 0 without one.
func setTTL(args []string) time.Duration {
	var ttl time.Duration
	for k := 3; k+1 < len(args); k++ {
		switch strings.ToUpper(args[k]) {
		case "PX":
			v, _ := strconv.ParseInt(args[k+1], 10, 64)
			ttl = time.Duration(v) * time.Millisecond
		case "EX":
			v, _ := strconv.ParseInt(args[k+1], 10, 64)
			ttl = time.Duration(v) * time.Second
		}
	}
	return ttl
}

// setIfeq is the value a SET's IFEQ option compares with, "" without one:
// SET key value IFEQ value PX ms renews a lease in one command (Redis 8.4,
// Valkey 8.1).
func setIfeq(args []string) string {
	for k := 3; k+1 < len(args); k++ {
		if strings.EqualFold(args[k], "IFEQ") {
			return args[k+1]
		}
	}
	return ""
}

// logged tags the event the command just logged with op and, for a lost
// reply, replaces what the client heard with a timeout.
func (e *storyExec) logged(op *sim.Op, r sim.Reply, lost bool) reply {
	evs := e.x.Run().Events
	if len(evs) > 0 {
		ev := &evs[len(evs)-1]
		ev.Op = op
		if lost {
			ev.Val, ev.Err, ev.Reply = nil, errLost, sim.FormatReply(nil, errLost)
			ev.Note = "the command ran; its reply was lost on the way back"
			ev.Lost = true
		}
	}
	if lost {
		return reply{err: errLost}
	}
	return reply{r.Val, r.Err}
}

func (e *storyExec) write(i int, fence int64) bool {
	x := e.x
	var r sim.Reply
	if fence > 0 {
		r = x.FencedWrite(x.Actor().Name+"'s work", fence)
	} else {
		r = x.Write(x.Actor().Name + "'s work")
	}
	return r.Err == nil
}

func (e *storyExec) work(i int, d time.Duration) {
	// the story's clock moved before the step (see StoryOf)
	e.x.Note(e.x.Actor().Name + " works for " + sim.FormatDuration(d))
}

func (e *storyExec) wait(i int, d time.Duration) {
	e.x.Note(e.x.Actor().Name + " waits " + sim.FormatDuration(d) + " before it retries")
}

// Scene is the break as a scene the player opens: SceneID, a story whose
// HandScene is l as a scene with no schedule, for "break this lock": the
// clients' programs are their steps in a run with nobody in their way,
// and the learner makes every move with the player's own moves (a step of
// a client, a pause, a crash, time passing). The verdict line names the
// properties BrokenIn finds in the ledger.
func HandScene(l *Lock, clients int) *scenes.Scene {
	return &scenes.Scene{
		ID:    SceneID,
		Kind:  scenes.Story,
		Wait:  l.Policy.TTL/2 + time.Millisecond,
		Build: func(scenes.Params) sim.Script { return StoryOf(l, clients, nil, false) },
		Say: func(v scenes.Frame, s *scenes.Said) {
			broken := BrokenWithin(v.L, l.Policy.TTL)
			if len(broken) > 0 {
				s.Verdict = "broken: " + joinNames(broken)
			}
			s.Broken = scoreboardOf(broken)
		},
	}
}

// confirm plays b as a story on be (an embedded server), through the
// engine every scene uses, and reports whether the ledger's reading of its
// replies shows b's property broken at its end, and whether the story
// asks its question (Question: it does only when the replies answer it
// with b's property).
//
// pr is b's lock compiled for running (the search's): b's story need not
// compile it and read its reentrance again.
func confirm(ctx context.Context, be *sim.Backend, b *Break, pr *program) (shown, asks bool, err error) {
	script := storyOf(pr, nil, &b.Lock, b.Clients, b.Moves, b.Probe)
	broken, _, err := brokenOn(ctx, be, b, script)
	if err != nil {
		return false, false, err
	}
	return slices.Contains(broken[len(broken)-1], b.Property), len(b.questionOf(script, broken).Choices) > 0, nil
}
