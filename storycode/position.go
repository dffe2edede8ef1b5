package storycode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
)

// ownKinds are the own moves a code carries, by their index in this list
// (play.Own.Kind). The list is part of the format: a new kind goes at its
// end.
var ownKinds = []string{"step", "crash", "pause", "resume", "wait", "stop", "restart", "cut", "heal", "slow", "prompt", "hang", "wake", "jump"}

// raceReplies are the replies a race's SET gets, written as their index.
var raceReplies = []string{"OK", "(nil)"}

// The sections a position's record has, as bits of its flags byte; the
// ones a position leaves empty are not written.
const (
	hasSettings = 1 << iota
	hasPrediction
	hasSelected
	hasNode
	hasOwn
	hasQuiz
	hasRace
	hasAll = hasRace<<1 - 1
)

// appendPosition appends pos (of scene sc) to data, as unsigned varints
// unless said otherwise:
//
//	seed, step, flags (a byte: which sections follow)
//	settings:   count, then each knob's index in sc.Knobs and its value
//	prediction: chosen+1, then passed (0 or 1)
//	selected:   the actor's index among the script's actors
//	node:       the node's index among the script's nodes
//	own moves:  count, then each: at, kind (index in ownKinds), actor
//	            index+1 (0 for none), node index+1 (0 for none), ms
//	quiz:       at, count, each answer+1, count, the shown bits packed
//	            eight to a byte, lowest first
//	race:       count, then each shot: worker's actor index, order, and
//	            its reply: an index in raceReplies, or that list's length
//	            plus the reply's length, then its bytes
//
// The actors and nodes are those of the scene's script under pos's
// settings; indices stand for names because the fingerprint pins the
// settings, actors and nodes.
func appendPosition(data []byte, sc *scenes.Scene, pos play.Position) ([]byte, error) {
	script := sc.Script(pos.Settings)
	actor := func(name string) (uint64, error) {
		i := slices.IndexFunc(script.Actors, func(a sim.ActorSpec) bool { return a.Name == name })
		if i < 0 {
			return 0, fmt.Errorf("actor %q is not one of scene %s", name, sc.ID)
		}
		return uint64(i), nil
	}
	node := func(name string) (uint64, error) {
		i := slices.Index(script.Nodes, name)
		if i < 0 {
			return 0, fmt.Errorf("node %q is not one of scene %s", name, sc.ID)
		}
		return uint64(i), nil
	}
	u := func(n uint64) { data = binary.AppendUvarint(data, n) }
	flags := byte(0)
	for _, f := range []struct {
		on  bool
		bit byte
	}{{len(pos.Settings) > 0, hasSettings}, {pos.Prediction != nil, hasPrediction}, {pos.Selected != "", hasSelected},
		{pos.Node != "", hasNode}, {len(pos.Own) > 0, hasOwn}, {pos.Quiz != nil, hasQuiz}, {pos.Race != nil, hasRace}} {
		if f.on {
			flags |= f.bit
		}
	}
	if pos.Step < 0 {
		return nil, fmt.Errorf("step %d", pos.Step)
	}
	u(pos.Seed)
	u(uint64(pos.Step))
	data = append(data, flags)
	if flags&hasSettings != 0 {
		u(uint64(len(pos.Settings)))
		// in knob order, so the same settings make the same code
		for i, k := range sc.Knobs {
			if v, ok := pos.Settings[k.Name]; ok {
				u(uint64(i))
				u(uint64(v))
			}
		}
	}
	if p := pos.Prediction; p != nil {
		if p.Chosen < -1 {
			return nil, fmt.Errorf("prediction %d", p.Chosen)
		}
		u(uint64(p.Chosen + 1))
		data = append(data, map[bool]byte{false: 0, true: 1}[p.Passed])
	}
	if pos.Selected != "" {
		i, err := actor(pos.Selected)
		if err != nil {
			return nil, err
		}
		u(i)
	}
	if pos.Node != "" {
		i, err := node(pos.Node)
		if err != nil {
			return nil, err
		}
		u(i)
	}
	if len(pos.Own) > 0 {
		u(uint64(len(pos.Own)))
		for _, o := range pos.Own {
			k := slices.Index(ownKinds, o.Kind)
			if k < 0 {
				return nil, fmt.Errorf("own move %q: a story code of format %d cannot carry it", o.Kind, Version)
			}
			var a, n uint64
			if o.Actor != "" {
				i, err := actor(o.Actor)
				if err != nil {
					return nil, err
				}
				a = i + 1
			}
			if o.Node != "" {
				i, err := node(o.Node)
				if err != nil {
					return nil, err
				}
				n = i + 1
			}
			if o.At < 0 || o.MS < 0 {
				return nil, fmt.Errorf("own move %+v", o)
			}
			u(uint64(o.At))
			u(uint64(k))
			u(a)
			u(n)
			u(uint64(o.MS))
		}
	}
	if q := pos.Quiz; q != nil {
		if q.At < 0 {
			return nil, fmt.Errorf("quiz at %d", q.At)
		}
		u(uint64(q.At))
		u(uint64(len(q.Answers)))
		for _, a := range q.Answers {
			if a < -1 {
				return nil, fmt.Errorf("quiz answer %d", a)
			}
			u(uint64(a + 1))
		}
		u(uint64(len(q.Shown)))
		bits := make([]byte, (len(q.Shown)+7)/8)
		for i, s := range q.Shown {
			if s {
				bits[i/8] |= 1 << (i % 8)
			}
		}
		data = append(data, bits...)
	}
	if r := pos.Race; r != nil {
		u(uint64(len(r.Shots)))
		for _, s := range r.Shots {
			i, err := actor(s.Worker)
			if err != nil {
				return nil, err
			}
			if s.Order < 0 {
				return nil, fmt.Errorf("race shot %+v", s)
			}
			u(i)
			u(uint64(s.Order))
			if k := slices.Index(raceReplies, s.Reply); k >= 0 {
				u(uint64(k))
			} else {
				u(uint64(len(raceReplies) + len(s.Reply)))
				data = append(data, s.Reply...)
			}
		}
	}
	return data, nil
}

// reader reads a record; the first thing it cannot read is its error.
type reader struct {
	data []byte
	err  error
}

var errShort = errors.New("the code ends too soon")

// uint reads an unsigned varint no larger than limit.
func (r *reader) uint(limit uint64) uint64 {
	if r.err != nil {
		return 0
	}
	n, k := binary.Uvarint(r.data)
	switch {
	case k <= 0:
		r.err = errShort
		return 0
	case n > limit:
		r.err = fmt.Errorf("a number %d past %d", n, limit)
		return 0
	}
	r.data = r.data[k:]
	return n
}

// int reads a varint that fits an int comfortably: steps, counts, indices.
func (r *reader) int() int { return int(r.uint(1 << 30)) }

// count reads how many items follow, each at least one byte long: no more
// than the bytes left, so a damaged count allocates nothing large.
func (r *reader) count() int { return int(r.uint(uint64(len(r.data)))) }

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.data) {
		r.err = errShort
		return nil
	}
	out := r.data[:n]
	r.data = r.data[n:]
	return out
}

func (r *reader) byte() byte {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

// readPosition reads a position of scene sc from a record written by
// appendPosition; names it does not find in the scene are errors.
func readPosition(sc *scenes.Scene, data []byte) (play.Position, error) {
	r := &reader{data: data}
	pos := play.Position{Version: play.PositionVersion, Scene: sc.ID}
	pos.Seed = r.uint(^uint64(0))
	pos.Step = r.int()
	flags := r.byte()
	if flags&^hasAll != 0 {
		return pos, fmt.Errorf("unknown sections %#x in the record", flags&^hasAll)
	}
	if flags&hasSettings != 0 {
		pos.Settings = map[string]int{}
		for range r.count() {
			k, v := r.int(), r.int()
			if r.err == nil && k >= len(sc.Knobs) {
				return pos, fmt.Errorf("scene %s has no setting %d", sc.ID, k)
			}
			if r.err == nil {
				pos.Settings[sc.Knobs[k].Name] = v
			}
		}
	}
	if r.err != nil {
		return pos, r.err
	}
	script := sc.Script(pos.Settings)
	actor := func(i uint64) string {
		if r.err == nil && i >= uint64(len(script.Actors)) {
			r.err = fmt.Errorf("scene %s has no actor %d", sc.ID, i)
		}
		if r.err != nil {
			return ""
		}
		return script.Actors[i].Name
	}
	node := func(i uint64) string {
		if r.err == nil && i >= uint64(len(script.Nodes)) {
			r.err = fmt.Errorf("scene %s has no node %d", sc.ID, i)
		}
		if r.err != nil {
			return ""
		}
		return script.Nodes[i]
	}
	if flags&hasPrediction != 0 {
		chosen := r.int() - 1
		passed := r.byte()
		if r.err == nil && passed > 1 {
			r.err = fmt.Errorf("prediction passed %d", passed)
		}
		pos.Prediction = &play.Prediction{Chosen: chosen, Passed: passed == 1}
	}
	if flags&hasSelected != 0 {
		pos.Selected = actor(r.uint(1 << 16))
	}
	if flags&hasNode != 0 {
		pos.Node = node(r.uint(1 << 16))
	}
	if flags&hasOwn != 0 {
		n := r.count()
		for range n {
			o := play.Own{At: r.int()}
			k := r.int()
			if r.err == nil && k >= len(ownKinds) {
				r.err = fmt.Errorf("own move of kind %d", k)
			}
			if r.err != nil {
				break
			}
			o.Kind = ownKinds[k]
			if a := r.uint(1 << 16); a > 0 {
				o.Actor = actor(a - 1)
			}
			if n := r.uint(1 << 16); n > 0 {
				o.Node = node(n - 1)
			}
			o.MS = int64(r.uint(1 << 62))
			pos.Own = append(pos.Own, o)
		}
	}
	if flags&hasQuiz != 0 {
		q := &play.QuizPlace{At: r.int()}
		for range r.count() {
			q.Answers = append(q.Answers, r.int()-1)
		}
		// eight bits to a byte
		if n := int(r.uint(8 * uint64(len(r.data)))); n > 0 {
			bits := r.bytes((n + 7) / 8)
			for i := range n {
				if bits != nil {
					q.Shown = append(q.Shown, bits[i/8]&(1<<(i%8)) != 0)
				}
			}
		}
		pos.Quiz = q
	}
	if flags&hasRace != 0 {
		rec := &play.RaceRecord{}
		for range r.count() {
			s := play.RaceShot{Worker: actor(r.uint(1 << 16)), Order: r.int()}
			if k := r.int(); k < len(raceReplies) {
				s.Reply = raceReplies[k]
			} else {
				s.Reply = string(r.bytes(k - len(raceReplies)))
			}
			if r.err != nil {
				break
			}
			rec.Shots = append(rec.Shots, s)
		}
		pos.Race = rec
	}
	if r.err != nil {
		return pos, r.err
	}
	if len(r.data) > 0 {
		return pos, fmt.Errorf("%d bytes past the end of the record", len(r.data))
	}
	return pos, nil
}
