package storycode

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
)

// fingerprintSeed is the seed the default stories are played with for a
// fingerprint: any fixed seed makes the tokens, and so the replies, the
// same on every machine.
const fingerprintSeed = 1

//go:generate go test -run ^TestFingerprintTable$ -update

// computed holds a fingerprint computed once per process for each scene
// of this build the table does not have; the map is made on first use,
// and never written after.
var computed = sync.OnceValue(func() map[string]func() ([fingerprintLen]byte, error) {
	m := map[string]func() ([fingerprintLen]byte, error){}
	for _, sc := range scenes.All() {
		if _, ok := built[sc.ID]; !ok {
			m[sc.ID] = sync.OnceValues(func() ([fingerprintLen]byte, error) { return computeFingerprint(sc, nil) })
		}
	}
	return m
})

// fingerprintLen is how many bytes of the SHA-256 a code carries: a chance
// of one in four billion that a changed scene goes unnoticed.
const fingerprintLen = 4

// Fingerprint is a short hash of what decides a replay of the scene with
// the given id: its kind, its settings (each knob's key, name and values,
// in order), and for every default story (Scene.Stories) its actors,
// nodes and moves and every command and reply it sends and gets, played
// headless with a fixed seed on a fresh embedded server (the race replayed
// in a fixed order); for a quiz, how many situations it has and the class
// of each. Not its prose: a reworded sentence keeps the fingerprint.
// Read from the table go generate writes (built, in fingerprints_table.go),
// which TestFingerprintTable checks against the scenes as they play, so
// that a start that prints a story code neither plays every default story
// first (two fifths of -plain -scene race) nor builds every scene; a scene
// the table does not have (one added since) has its fingerprint computed
// on first use, once per process (computed).
func Fingerprint(id string) ([fingerprintLen]byte, error) {
	if !slices.Contains(scenes.IDs(), id) {
		return [fingerprintLen]byte{}, fmt.Errorf("unknown scene %q (locksim -list shows them)", id)
	}
	if f, ok := built[id]; ok {
		return f, nil
	}
	return computed()[id]()
}

// hasher writes length-prefixed fields, so that no two different lists of
// fields hash alike.
type hasher struct {
	buf []byte
	// log, when set, gets a line for each story and event hashed (and each
	// event's note, which is not hashed but says why a story went another
	// way): two processes' logs show where their fingerprints part.
	log *strings.Builder
}

func (h *hasher) line(s string) {
	if h.log != nil {
		h.log.WriteString(s + "\n")
	}
}

func (h *hasher) str(s string) {
	h.buf = binary.AppendUvarint(h.buf, uint64(len(s)))
	h.buf = append(h.buf, s...)
}

func (h *hasher) num(n int64) { h.buf = binary.AppendVarint(h.buf, n) }

// computeFingerprint is sc's fingerprint; played, when not nil, is sc's
// one story played already as hashStories plays it (a lab story's, by the
// play that found its question: lab.Break.VetStory), not played again.
func computeFingerprint(sc *scenes.Scene, played *scenes.Played) ([fingerprintLen]byte, error) {
	return fingerprint(sc, played, nil)
}

// fingerprint is computeFingerprint, writing what it hashes to log if it
// is not nil.
func fingerprint(sc *scenes.Scene, played *scenes.Played, log *strings.Builder) ([fingerprintLen]byte, error) {
	var out [fingerprintLen]byte
	h := &hasher{log: log}
	h.str("locksim story fingerprint 1")
	h.str(sc.ID)
	h.num(int64(sc.Kind))
	h.num(int64(len(sc.Knobs)))
	for _, k := range sc.Knobs {
		h.str(k.Key)
		h.str(k.Name)
		h.num(int64(len(k.Values)))
		for _, v := range k.Values {
			h.str(v)
		}
	}
	if !sc.Sends() {
		text, err := content.Load(sc.ID)
		if err != nil {
			return out, err
		}
		items, err := scenes.Situations(text)
		if err != nil {
			return out, err
		}
		h.num(int64(len(items)))
		for _, s := range items {
			h.num(int64(s.Class))
		}
	} else if err := hashStories(h, sc, played); err != nil {
		return out, fmt.Errorf("scene %s: %w", sc.ID, err)
	}
	sum := sha256.Sum256(h.buf)
	copy(out[:], sum[:])
	return out, nil
}

// hashStories plays every default story of sc to its end on a fresh
// embedded server and hashes its schedule, commands and replies; the
// scene's one story played already (played, not nil) is not played again.
func hashStories(h *hasher, sc *scenes.Scene, played *scenes.Played) error {
	ctx := context.Background()
	var b *sim.Backend // opened for the first story not played already
	defer func() {
		if b != nil {
			_ = b.Close(ctx)
		}
	}()
	stories := sc.Stories()
	for _, p := range stories {
		script := sc.Script(p)
		// the settings in knob order, each value by its index
		for _, k := range sc.Knobs {
			h.num(int64(p[k.Name]))
		}
		h.num(int64(len(script.Actors)))
		for _, a := range script.Actors {
			h.str(a.Name)
		}
		h.num(int64(len(script.Nodes)))
		for _, n := range script.Nodes {
			h.str(n)
		}
		var events []sim.Event
		var moves []string
		if played != nil && len(stories) == 1 {
			// played already, as playStory plays it: a lab story's, by
			// the play that found its question (TestLabPlayedAsPlayed)
			events, moves = played.Events, played.Moves
		} else {
			var err error
			if b == nil {
				if b, err = sim.OpenEmbedded(); err != nil {
					return err
				}
			}
			if events, moves, err = playStory(ctx, b, sc, storyPosition(sc, p)); err != nil {
				return fmt.Errorf("settings %v: %w", p, err)
			}
		}
		h.line(fmt.Sprintf("story %v: %q", p, moves))
		h.num(int64(len(moves)))
		for _, m := range moves {
			h.str(m)
		}
		h.num(int64(len(events)))
		for _, e := range events {
			h.num(int64(e.Move))
			h.num(e.At.Milliseconds())
			h.num(int64(e.Kind))
			h.str(e.Actor)
			h.str(e.Node)
			h.num(int64(len(e.Args)))
			for _, a := range e.Args {
				h.str(a)
			}
			h.str(e.Reply)
			h.num(int64(e.Fault))
			h.str(strconv.FormatBool(e.Timed))
			h.line(eventLine(e))
		}
	}
	return nil
}

// storyPosition is where the fingerprint plays the default story p of sc
// from: its start, with the fixed seed.
func storyPosition(sc *scenes.Scene, p scenes.Params) play.Position {
	pos := play.Position{Version: play.PositionVersion, Scene: sc.ID, Settings: p, Seed: fingerprintSeed}
	if sc.FiresAtOnce() {
		// the race's winner is decided by a real race, which its code
		// carries: replayed in the order of its workers, the replies are
		// the same each time
		rec := &play.RaceRecord{}
		for i, a := range sc.Script(p).Actors {
			rec.Shots = append(rec.Shots, play.RaceShot{Worker: a.Name, Order: i + 1, Reply: "OK"})
		}
		pos.Race = rec
	}
	return pos
}

// eventLine is one line for an event with every field a replay must
// repeat (and its note): what a test compares between two plays, and
// prints where they differ.
func eventLine(e sim.Event) string {
	op := "-"
	if e.Op != nil {
		// the key as read before and after, not where it sits in memory
		o := *e.Op
		seen := ""
		if o.Seen != nil {
			seen = fmt.Sprintf(" seen %+v", *o.Seen)
			o.Seen = nil
		}
		op = fmt.Sprintf("%+v", o) + seen
	}
	return fmt.Sprintf("#%d move %d at %s due %s kind %d fault %d timed %t order %d jump %s | %s @%s %s: %q → %q | op %s | %q",
		e.Seq, e.Move, sim.FormatDuration(e.At), sim.FormatDuration(e.Due), e.Kind, e.Fault, e.Timed, e.Order, e.Jump,
		e.Actor, e.Node, e.Step, e.Args, e.Reply, op, e.Note)
}

// playStory plays the story pos stands in from its start to its end,
// headless (no question, no read-back between moves), and returns its
// events and move labels.
func playStory(ctx context.Context, b *sim.Backend, sc *scenes.Scene, pos play.Position) ([]sim.Event, []string, error) {
	// the scene as the fingerprint has it: the lab's is built, no scene
	// of the registry
	s, err := play.Open(ctx, pos, play.Env{Backend: b, ID: 1, Scenes: []*scenes.Scene{sc}, Headless: true})
	if err != nil {
		return nil, nil, err
	}
	defer s.Close(context.WithoutCancel(ctx))
	d := play.Driver{S: s}
	d.Run(s.Start(nil))
	d.Run(s.SeekTo(len(s.Snap.Moves)))
	if s.Err != "" {
		return nil, nil, fmt.Errorf("%s", s.Err)
	}
	if s.Snap.Pos != len(s.Snap.Moves) {
		return nil, nil, fmt.Errorf("the story stopped at move %d of %d", s.Snap.Pos, len(s.Snap.Moves))
	}
	return slices.Clone(s.Snap.Events), slices.Clone(s.Snap.Moves), nil
}
