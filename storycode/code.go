// Package storycode turns a learner's place in a scene (play.Position)
// into a story code a person can paste in a chat or on a slide, and back.
//
// A code reads "<scene>.<data>", e.g. "gc-pause.1f0k2…": the scene's id,
// then base32 (Crockford's digits and lower-case letters, no padding) of
// a compact binary record:
//
//	byte 0     format version (high 4 bits, 1) and payload kind (low 4 bits)
//	bytes 1-4  the scene's fingerprint (see Fingerprint)
//	…          the payload (for KindPosition, see appendPosition)
//	last 4     CRC-32 (IEEE) of the scene id, the dot and everything before it
//
// The fingerprint is a hash of what decides the replay, not of the prose:
// a code whose scene now plays differently is refused, never replayed as a
// different story. The package is headless: it never imports the screen.
package storycode

import (
	"encoding/base32"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"

	"locksim/play"
	"locksim/scenes"
)

// Version is the code format this package writes and reads.
const Version = 1

// Kind is what a code carries.
type Kind byte

const (
	// KindPosition is a learner's place in a scene: play.Position.
	KindPosition Kind = 1
	// KindTrial is kept for a recorded trial; this locksim does not write it.
	KindTrial Kind = 2
	// KindLock is kept for a learner's own lock; this locksim does not write it.
	KindLock Kind = 3
)

func (k Kind) String() string {
	switch k {
	case KindPosition:
		return "a story position"
	case KindTrial:
		return "a recorded trial"
	case KindLock:
		return "a learner's lock"
	}
	return fmt.Sprintf("payload kind %d", byte(k))
}

// encoding is Crockford's base32 alphabet in lower case: no i, l, o or u,
// so a code read aloud or retyped is hard to get wrong.
var encoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// ErrChanged is wrapped by the error of a code whose scene now plays
// differently from when the code was made.
var ErrChanged = errors.New("scene changed")

// Encode is the story code of pos: an error when pos does not pass
// play.Position.Check, or holds something a code cannot carry (an own
// move of a kind this format does not know).
func Encode(pos play.Position) (string, error) {
	if err := pos.Check(); err != nil {
		return "", err
	}
	fp, err := Fingerprint(pos.Scene)
	if err != nil {
		return "", err
	}
	return encode(pos, fp)
}

// encode is Encode with the scene's fingerprint given.
func encode(pos play.Position, fp [fingerprintLen]byte) (string, error) {
	sc := scenes.Find(pos.Scene)
	data := []byte{Version<<4 | byte(KindPosition)}
	data = append(data, fp[:]...)
	data, err := appendPosition(data, sc, pos)
	if err != nil {
		return "", err
	}
	// whatever the record leaves out would be lost without a word: a
	// position that does not come back whole is refused here
	back, err := readPosition(sc, data[1+fingerprintLen:])
	if err != nil {
		return "", fmt.Errorf("story code: %w", err)
	}
	if a, b := jsonOf(pos), jsonOf(back); a != b {
		return "", fmt.Errorf("story code: the position %s cannot be carried whole (it reads back as %s)", a, b)
	}
	return sc.ID + "." + encoding.EncodeToString(appendCRC(sc.ID, data)), nil
}

// appendCRC appends the checksum of a code with this scene id and body.
func appendCRC(id string, body []byte) []byte {
	return binary.BigEndian.AppendUint32(body, crc32.ChecksumIEEE(append([]byte(id+"."), body...)))
}

// changedError is the refusal of a code whose scene now plays differently.
type changedError struct{ id string }

func (e changedError) Error() string {
	return fmt.Sprintf("story code: scene %s now plays differently from when this code was made (its settings, commands or replies changed), so the code cannot show the same story; open the scene afresh with -scene %s", e.id, e.id)
}

func (e changedError) Is(target error) bool { return target == ErrChanged }

// jsonOf is p as JSON, an empty list written as none: what a reader of
// the position sees.
func jsonOf(p play.Position) string {
	if q := p.Quiz; q != nil && len(q.Answers) == 0 {
		p.Quiz = &play.QuizPlace{At: q.At, Shown: q.Shown}
	}
	if r := p.Race; r != nil && len(r.Shots) == 0 {
		p.Race = &play.RaceRecord{}
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// Decode reads a story code (surrounding spaces, quotes and backticks
// pasted with it are ignored, and so is case) and returns the position it
// carries, checked against this build's scenes (play.Position.Check). Its
// errors are one line each, starting "story code": a mangled code; one
// from a later format or of a kind this locksim does not open; a scene
// this build does not have; and, wrapping ErrChanged, a scene that now
// plays differently from when the code was made.
func Decode(code string) (play.Position, error) {
	code = strings.ToLower(strings.Trim(code, " \t\r\n\"'`"))
	id, text, ok := strings.Cut(code, ".")
	if !ok || id == "" || text == "" {
		return play.Position{}, errors.New(`story code: not a story code (one reads "<scene>.<letters and digits>", e.g. gc-pause.` + "1f0k2…)")
	}
	// the letters Crockford's alphabet leaves out, read as the digits they
	// look like
	text = strings.NewReplacer("o", "0", "i", "1", "l", "1").Replace(text)
	data, err := encoding.DecodeString(text)
	mangled := errors.New("story code: the code is damaged (a character is wrong, missing or extra): copy it again, whole")
	// base32's last character can carry bits past the data's end: a code
	// that is not exactly how its bytes are written has been changed
	if err != nil || len(data) < 1+fingerprintLen+4 || encoding.EncodeToString(data) != text {
		return play.Position{}, mangled
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(append([]byte(id+"."), body...)) != sum {
		return play.Position{}, mangled
	}
	if v := body[0] >> 4; v != Version {
		return play.Position{}, fmt.Errorf("story code: made in code format %d; this locksim reads format %d (a newer locksim made it?)", v, Version)
	}
	if k := Kind(body[0] & 0x0f); k != KindPosition {
		return play.Position{}, fmt.Errorf("story code: it carries %s, which this locksim cannot open", k)
	}
	sc := scenes.Find(id)
	if sc == nil {
		return play.Position{}, fmt.Errorf("story code: scene %q is not in this locksim (locksim -list shows the scenes it has)", id)
	}
	fp, err := Fingerprint(id)
	if err != nil {
		return play.Position{}, fmt.Errorf("story code: %w", err)
	}
	if string(fp[:]) != string(body[1:1+fingerprintLen]) {
		return play.Position{}, changedError{id}
	}
	pos, err := readPosition(sc, body[1+fingerprintLen:])
	if err != nil {
		return play.Position{}, fmt.Errorf("story code: %w", err)
	}
	if err := pos.Check(); err != nil {
		return play.Position{}, fmt.Errorf("story code: %w", err)
	}
	return pos, nil
}
