package sim

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// A node is one lock server of a distributed run: one of Redlock's N
// independent masters, or a primary and its replica. Each is a backend of
// its own (an embedded miniredis the run starts, or a live server given
// with SetNodes), each actor holds one connection to it, and each has its
// faults.
type node struct {
	name  string
	b     *Backend
	own   bool // an embedded server the run started
	conns map[string]*redis.Client
	keys  map[string]bool
	// skew is how far the node's clock runs ahead of the story's
	// (embedded only: a live server's clock cannot be moved).
	skew time.Duration
	down bool            // stopped: it answers nothing
	slow bool            // it answers after the client's per-node timeout
	cut  map[string]bool // actors it is partitioned from
	// hung: it reads nothing; the commands sent to it wait in backlog
	// and run when it wakes
	hung    bool
	backlog []waiting
}

// waiting is a command sent to a hung node: it runs when the node wakes,
// on the connection and under the step that sent it.
type waiting struct {
	actor, conn, step string
	move              int
	args, shown       []any
	op                *Op
}

// NodeState is a node's faults, for the screen.
type NodeState struct {
	Name      string
	Down      bool
	Slow      bool
	Hung      bool
	Waiting   int           // commands a hung node will run when it wakes
	Cut       []string      // actors that cannot reach it
	Skew      time.Duration // its clock's lead over the story's
	Simulated bool          // a live server: locksim fakes the fault on its side
}

// SetNodes gives b the live servers a distributed story runs on
// (-redlock); without them such a story starts embedded nodes of its own.
func (b *Backend) SetNodes(nodes []*Backend) { b.nodes = nodes }

// Nodes returns the servers set with SetNodes.
func (b *Backend) Nodes() []*Backend { return b.nodes }

// openNodes starts or connects the script's nodes.
func (r *Run) openNodes() error {
	live := r.b.Nodes()
	for i, name := range r.script.Nodes {
		n := &node{name: name, conns: map[string]*redis.Client{}, keys: map[string]bool{}, cut: map[string]bool{}}
		switch {
		case i < len(live):
			n.b = live[i]
		case r.b.Live():
			// no -redlock: each node is a namespace of the one live server,
			// so the story runs, but the nodes share one process and clock
			n.b = r.b.namespace("node-" + name + ":")
			r.shared = true
		default:
			b, err := r.b.borrowEmbedded()
			if err != nil {
				return err
			}
			n.b, n.own = b, true
		}
		for actor := range r.conns {
			n.conns[actor] = n.b.NewConn()
		}
		r.nodes = append(r.nodes, n)
	}
	return nil
}

// namespace is b with its keys under a further prefix: a node of a
// distributed story on a live server that has only one. It shares b's
// admin connection and its record of the names written (so b's Cleanup
// deletes the node's keys too), and is never closed on its own.
func (b *Backend) namespace(sub string) *Backend {
	return &Backend{Name: b.Name, Prefix: b.Prefix + sub, Scale: b.Scale, Timeout: b.Timeout, opts: b.opts, admin: b.admin, wrote: b.wrote}
}

func (r *Run) node(name string) *node {
	for _, n := range r.nodes {
		if n.name == name {
			return n
		}
	}
	return nil
}

// resetNodes brings every node back up, clears its faults and deletes the
// run's keys on it.
func (r *Run) resetNodes(ctx context.Context) error {
	for _, n := range r.nodes {
		if n.down && n.own {
			if err := n.b.restart(); err != nil {
				return fmt.Errorf("restarting node %s: %w", n.name, err)
			}
			n.reconnect()
		}
		n.down, n.slow, n.skew, n.hung, n.backlog = false, false, 0, false, nil
		clear(n.cut)
		if err := n.b.Delete(ctx, slices.Sorted(maps.Keys(n.keys))...); err != nil {
			return fmt.Errorf("reset: node %s: %w", n.name, err)
		}
	}
	return nil
}

func (r *Run) closeNodes() {
	for _, n := range r.nodes {
		for _, c := range n.conns {
			_ = c.Close()
		}
		switch {
		case !n.own:
		case n.down && n.b.restart() != nil:
			// a spare must answer: one that cannot come back is closed
			_ = n.b.Close(context.Background())
		default:
			r.b.spare(n.b)
		}
	}
}

// Nodes is every node's faults, in the script's order.
func (r *Run) Nodes() []NodeState {
	var out []NodeState
	for _, n := range r.nodes {
		s := NodeState{Name: n.name, Down: n.down, Slow: n.slow, Hung: n.hung, Waiting: len(n.backlog), Skew: n.skew, Simulated: !n.own}
		for _, a := range r.Actors {
			if n.cut[a.Name] {
				s.Cut = append(s.Cut, a.Name)
			}
		}
		out = append(out, s)
	}
	return out
}

// StopNode stops the node: it answers nothing until RestartNode. An
// embedded node is really stopped (its clients get connection refused); a
// live one is stopped on locksim's side only (its commands are not sent,
// and read as refused), which the event's Simulated says: locksim never
// sends SHUTDOWN to a server it was given.
func (r *Run) StopNode(name string) {
	n := r.node(name)
	if n == nil || n.down {
		return
	}
	n.down = true
	// a stopped process loses what waited in its buffers
	n.hung, n.backlog = false, nil
	simulated := ""
	if n.own {
		n.b.stop()
		n.reconnect() // the actors' next commands dial, and are refused
	} else {
		simulated = "locksim stops sending to it"
	}
	r.record(Event{Kind: Fault, Fault: FaultNodeDown, Node: name, Note: "node " + name + " stopped", Simulated: simulated})
}

// RestartNode brings a stopped node back. With empty, it comes back as a
// server without persistence would: every key gone (on a live server
// locksim deletes only its own run's keys there).
func (r *Run) RestartNode(ctx context.Context, name string, empty bool) {
	n := r.node(name)
	if n == nil || !n.down {
		return
	}
	if n.own {
		if err := n.b.restart(); err != nil {
			r.record(Event{Kind: Info, Node: name, Note: "node " + name + " could not restart: " + err.Error()})
			return
		}
		n.reconnect() // not the dial error a refused command left behind
	}
	n.down = false
	note, simulated := "node "+name+" restarted with its data", ""
	if !n.own {
		simulated = "locksim sends to it again"
	}
	if empty {
		_ = n.b.Delete(ctx, slices.Sorted(maps.Keys(n.keys))...)
		// what a restart without persistence does to the keys is the
		// story's question: the note says the cause, the same on every
		// server, and the keys show the rest; how a live server played it
		// (its keys deleted) is the answer, in Simulated
		note = "node " + name + " restarted, without persistence"
		if !n.own {
			simulated = "locksim deleted its own keys there"
		}
	}
	r.record(Event{Kind: Fault, Fault: FaultNodeUp, Node: name, Note: note, Simulated: simulated})
}

// Partition cuts actor off from the node (or heals the cut): its commands
// there fail after the client's per-node timeout, while other actors still
// reach it. It is always simulated, on locksim's side.
func (r *Run) Partition(actor, name string, cut bool) {
	n := r.node(name)
	if n == nil || n.cut[actor] == cut {
		return
	}
	n.cut[actor] = cut
	f, note := FaultCut, actor+" cannot reach node "+name+" (simulated partition)"
	if !cut {
		f, note = FaultHeal, actor+" reaches node "+name+" again"
	}
	r.record(Event{Kind: Fault, Fault: f, Node: name, Actor: actor, Note: note})
}

// SlowNode makes the node answer later than the client's per-node timeout
// (or fast again): a command sent there still runs, but the client has
// stopped waiting. Simulated on locksim's side.
func (r *Run) SlowNode(name string, slow bool) {
	n := r.node(name)
	if n == nil || n.slow == slow {
		return
	}
	n.slow = slow
	f, note := FaultSlow, "node "+name+" answers late (simulated delay)"
	if !slow {
		f, note = FaultFast, "node "+name+" answers promptly again"
	}
	r.record(Event{Kind: Fault, Fault: f, Node: name, Note: note})
}

// HangNode makes the node hang (or wake): a hung node is neither slow nor
// dead. It reads nothing, so a client's command times out and counts as a
// failure, but the command waits in the node's buffer and runs when the
// node wakes, with nobody reading its reply: a SET lands late, as a lease
// the client was never told about. A release sent to it while it hangs
// never arrives: in locksim's model the client gave up on it, and the log
// says so for each. The node is modelled on locksim's side (the commands
// wait in the run and are sent at the wake), the same on an embedded node
// and a live one, where the event's Simulated says so.
func (r *Run) HangNode(ctx context.Context, name string, hung bool) {
	n := r.node(name)
	if n == nil || n.hung == hung {
		return
	}
	n.hung = hung
	if hung {
		simulated := ""
		if !n.own {
			simulated = "locksim holds the commands"
		}
		r.record(Event{Kind: Fault, Fault: FaultHang, Node: name, Note: "node " + name + " hangs: it reads nothing, and what is sent to it waits", Simulated: simulated})
		return
	}
	note := "node " + name + " wakes: nothing waited"
	switch len(n.backlog) {
	case 0:
	case 1:
		note = "node " + name + " wakes and runs the command that waited: its reply reaches no one"
	default:
		note = fmt.Sprintf("node %s wakes and runs the %d commands that waited: their replies reach no one", name, len(n.backlog))
	}
	r.record(Event{Kind: Fault, Fault: FaultWake, Node: name, Note: note})
	backlog := n.backlog
	n.backlog = nil
	for _, w := range backlog {
		r.runLate(ctx, n, w)
	}
}

// runLate runs a command that waited on a hung node, now that it woke.
func (r *Run) runLate(ctx context.Context, n *node, w waiting) {
	c := n.conns[w.conn]
	if c == nil {
		return
	}
	var op *Op
	if w.op != nil {
		late := *w.op
		late.Late = true
		op = &late
	}
	at := r.Now()
	val, err := c.Do(ctx, w.args...).Result()
	r.record(Event{At: at, Kind: Command, Actor: w.actor, Step: w.step, Move: w.move, Node: n.name,
		Args: toStrings(w.args), Cmd: FormatCommand(w.shown), Reply: FormatReply(val, err), Val: val, Err: err, Op: op,
		Due: at, Note: "sent before node " + n.name + " hung, run when it woke"})
}

// ErrClockFixed is JumpClock's answer on a live server.
var ErrClockFixed = errors.New("a live server's clock cannot jump: only embedded nodes can")

// JumpClock moves the node's clock d forward (embedded only): its keys'
// TTLs run out d early while the other nodes' do not. Clocks only jump
// forward: miniredis would keep a key's remaining TTL across a jump back,
// which Redis would not.
func (r *Run) JumpClock(name string, d time.Duration) error {
	n := r.node(name)
	if n == nil || d <= 0 {
		return nil
	}
	if !n.own {
		return ErrClockFixed
	}
	n.skew += d
	n.b.setClock(r.now + n.skew)
	r.record(Event{Kind: Fault, Fault: FaultClockJump, Node: name, Jump: d, Note: "node " + name + "'s clock jumps " + FormatSpan(d) + " forward"})
	return nil
}

// errNode is the client-side error a faulted node gives: what a Redis
// client reports, and that locksim produced it.
type errNode struct{ msg string }

func (e errNode) Error() string { return e.msg }

// sendOn sends args, about key (as sent), to node name on the actor's
// connection, through the node's faults, and logs it under that node.
// timeout is the client's per-node timeout in story time: a partitioned or
// slow node costs it.
func (x *Exec) sendOn(name, key string, args, shown []any, op *Op, timeout time.Duration) Reply {
	r := x.r
	n := r.node(name)
	if n == nil {
		return Reply{Err: fmt.Errorf("no node %s", name)}
	}
	c := n.conns[x.connName()]
	n.keys[key] = true // deleted at reset, and by an empty restart
	var fake error
	simulated := ""
	switch {
	case n.cut[x.actor.Name]:
		fake = errNode{fmt.Sprintf("i/o timeout after %s: node %s unreachable (simulated partition)", FormatSpan(timeout), name)}
	case n.down && !n.own:
		// what an embedded node's client reads (a refused dial), the same
		// before a question on every server; how it was played is apart
		fake = errNode{"connection refused"}
		simulated = "node " + name + " is stopped: locksim did not send it"
	case n.hung:
		fake = x.hangOn(n, key, args, shown, op, timeout)
		if !n.own {
			simulated = "node " + n.name + " is hung: locksim holds the command"
		}
	}
	if fake != nil {
		at := r.Now()
		r.record(Event{At: at, Kind: Command, Actor: x.actor.Name, Step: x.label, Move: x.move, Node: name,
			Args: toStrings(args), Cmd: FormatCommand(shown), Reply: FormatReply(nil, fake), Err: fake, Op: op,
			Timed: x.timed, Due: x.due(), Simulated: simulated})
		if n.cut[x.actor.Name] || n.hung {
			r.waitUntil(x.ctx, at+timeout)
		}
		return Reply{Err: fake, Text: FormatReply(nil, fake)}
	}
	rep := x.send(c, name, FormatCommand(shown), args, op)
	if rep.Err != nil && n.own {
		// a stopped embedded node: the port is the embedded server's own
		// detail, the node's name says which one refused
		e := &r.Events[len(r.Events)-1]
		e.Reply = strings.ReplaceAll(e.Reply, n.b.Addr(), "node "+name)
		rep.Text = e.Reply
	}
	if n.slow && rep.Err == nil {
		// it ran, but the reply came after the client stopped waiting
		e := &r.Events[len(r.Events)-1]
		late := errNode{fmt.Sprintf("no reply within %s (node %s is slow, simulated): the command ran, the client cannot know", FormatSpan(timeout), name)}
		e.Val, e.Err, e.Reply = nil, late, FormatReply(nil, late)
		r.waitUntil(x.ctx, e.At+timeout)
		return Reply{Err: late, Text: e.Reply}
	}
	return rep
}

// hangOn is what the client sees of a command sent to a hung node: a
// timeout. The command waits for the node to wake, except a release, which
// never arrives.
func (x *Exec) hangOn(n *node, key string, args, shown []any, op *Op, timeout time.Duration) error {
	if op != nil && op.Kind == OpRelease {
		return errNode{fmt.Sprintf("i/o timeout after %s: node %s is hung; this release never arrives", FormatSpan(timeout), n.name)}
	}
	n.backlog = append(n.backlog, waiting{actor: x.actor.Name, conn: x.connName(), step: x.label, move: x.move, args: args, shown: shown, op: op})
	return errNode{fmt.Sprintf("i/o timeout after %s: node %s is hung; the command waits and runs when it wakes", FormatSpan(timeout), n.name)}
}

// The learner's and the stories' node faults, as schedule moves.

// NodeStop is the move in which the node stops.
func NodeStop(name string) Move {
	return Move{Kind: MoveDo, Label: name + " stops", Do: func(_ context.Context, r *Run) { r.StopNode(name) }}
}

// NodeRestart is the move in which a stopped node comes back; empty, as a
// server without persistence would.
func NodeRestart(name string, empty bool) Move {
	label := name + " restarts"
	if empty {
		// the cause, not its effect on the keys: that can be a question
		label += ", no persistence"
	}
	return Move{Kind: MoveDo, Label: label, Do: func(ctx context.Context, r *Run) { r.RestartNode(ctx, name, empty) }}
}

// NodeCut is the move in which actor loses (cut) or regains its link to
// the node.
func NodeCut(actor, name string, cut bool) Move {
	label := actor + " ✂ " + name
	if !cut {
		label = actor + " ↔ " + name
	}
	return Move{Kind: MoveDo, Label: label, Do: func(_ context.Context, r *Run) { r.Partition(actor, name, cut) }}
}

// NodeSlow is the move in which the node starts (or stops) answering after
// the client's per-node timeout.
func NodeSlow(name string, slow bool) Move {
	label := name + " slow"
	if !slow {
		label = name + " prompt"
	}
	return Move{Kind: MoveDo, Label: label, Do: func(_ context.Context, r *Run) { r.SlowNode(name, slow) }}
}

// NodeHang is the move in which the node hangs (or wakes, running what
// waited).
func NodeHang(name string, hung bool) Move {
	label := name + " hangs"
	if !hung {
		label = name + " wakes"
	}
	return Move{Kind: MoveDo, Label: label, Do: func(ctx context.Context, r *Run) { r.HangNode(ctx, name, hung) }}
}

// NodeJump is the move in which the node's clock jumps d forward. On a
// live node it cannot: the log says so, and nothing happens.
func NodeJump(name string, d time.Duration) Move {
	return Move{Kind: MoveDo, Label: name + " clock +" + FormatSpan(d), Do: func(_ context.Context, r *Run) {
		if err := r.JumpClock(name, d); err != nil {
			r.record(Event{Kind: Info, Node: name, Note: err.Error()})
		}
	}}
}

// NodeReplicate is the move in which the primary's replication link copies
// the lock key to the replica.
func NodeReplicate(from, to, name string) Move {
	return Move{Kind: MoveDo, Label: from + " → " + to, Do: func(ctx context.Context, r *Run) { r.Replicate(ctx, from, to, name) }}
}

// AcquireOn sends the course's SET key token NX PX ttl to one node as a
// whole lock (a primary, not a share of Redlock's majority): OK makes the
// actor its holder. ttl and timeout (the client's wait for the node's
// reply) are story time.
func (x *Exec) AcquireOn(node, lock, name string, ttl, timeout time.Duration) Reply {
	rep, op := x.setOn(node, lock, name, x.r.mint(x.actor), ttl, timeout, false)
	if op != nil {
		x.r.believe(x.actor, op, rep)
	}
	return rep
}

// setOn sends SET key token NX PX ttl to one node, as a whole lock or (part)
// as one share of a distributed acquire; op is nil when there is no such
// node.
func (x *Exec) setOn(node, lock, name, token string, ttl, timeout time.Duration, part bool) (Reply, *Op) {
	n := x.r.node(node)
	if n == nil {
		return Reply{}, nil
	}
	key := n.b.Key(name)
	args := []any{"SET", key, token, "NX", "PX", x.TTL(ttl)}
	op := &Op{Kind: OpAcquire, Form: FormSET, Lock: lock, Key: key, Token: token, TTL: ttl, NX: true, Part: part}
	return x.sendOn(node, key, args, args, op, timeout), op
}

// reconnect gives every actor a fresh connection to the node.
func (n *node) reconnect() {
	for actor, c := range n.conns {
		_ = c.Close()
		n.conns[actor] = n.b.NewConn()
	}
}
