// Package storycode turns a learner's place in a scene (play.Position)
// into a story code a person can paste in a chat or on a slide, and back.
//
// A code reads "<scene>.<data>", e.g. "gc-pause.1f0k2…": the scene's id,
// then base32 (Crockford's digits and lower-case letters, no padding) of
// a compact binary record:
//
//	byte 0     format version (high 4 bits, 1) and payload kind (low 4 bits)
//	bytes 1-4  the scene's fingerprint (see Fingerprint)
//	…          for KindTrial and KindLock: a length and the deflated JSON of
//	           the position's trial (play.TrialRecord) or lab story
//	           (play.LabPlace); then the position (see appendPosition)
//	last 4     CRC-32 (IEEE) of the scene id, the dot and everything before it
//
// The fingerprint is a hash of what decides the replay, not of the prose:
// a code whose scene now plays differently is refused, never replayed as a
// different story. The package is headless: it never imports the screen.
package storycode

import (
	"bytes"
	"compress/flate"
	"encoding/base32"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"locksim/buildinfo"
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
	// KindTrial is a position in a recorded trial of the race's trials
	// (play.Position.Trial): the trial's commands come with it.
	KindTrial Kind = 2
	// KindLock is a position in a lab story (play.Position.Lab): the
	// learner's lock and its schedule come with it, and the fingerprint is
	// of the story they make.
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

// ErrNotCode is Decode's error for text with no scene and dot before
// letters and digits: not a mangled code, no code at all.
var ErrNotCode = errors.New(`story code: not a story code (one reads "<scene>.<letters and digits>", e.g. gc-pause.` + "1f0k2…)")

// Encode is the story code of pos: an error when pos does not pass
// play.Position.Check, or holds something a code cannot carry (an own
// move of a kind this format does not know).
func Encode(pos play.Position) (string, error) {
	var e Encoder
	return e.Encode(pos)
}

// Encoder makes story codes as Encode does, keeping its compressor from
// one code to the next: a compressor at the best compression is most of a
// megabyte to allocate, which a caller that makes many codes (a grade,
// one per break) pays once. Its codes are Encode's, byte for byte (a
// compressor Reset is as a new one). The zero Encoder is ready to use; it
// is not safe for concurrent use.
type Encoder struct {
	zw  *flate.Writer
	buf bytes.Buffer
}

// Encode is the package's Encode, with e's compressor.
func (e *Encoder) Encode(pos play.Position) (string, error) {
	// a lab story's scene is built (its break searched) once, here, and
	// serves the check, the fingerprint, the record and its reading back
	sc, err := pos.CheckedScene()
	if err != nil {
		return "", err
	}
	fp, err := fingerprintOf(sc, pos.Lab)
	if err != nil {
		return "", err
	}
	return e.encode(pos, sc, fp)
}

// sceneOf is the scene pos stands in: one of the registry, or the story a
// lab position carries.
func sceneOf(pos play.Position) (*scenes.Scene, error) {
	if pos.Lab != nil {
		return pos.Lab.Scene()
	}
	if sc := scenes.Find(pos.Scene); sc != nil {
		return sc, nil
	}
	return nil, fmt.Errorf("unknown scene %q (locksim -list shows them)", pos.Scene)
}

// fingerprintOf is Fingerprint for a scene of the registry; a lab story is
// built from what its code carries (lp, its place), so its fingerprint is
// computed from the story the lock and schedule make here, once for what
// the place holds (LabPlace.Fingerprint): a story's positions share it.
func fingerprintOf(sc *scenes.Scene, lp *play.LabPlace) ([fingerprintLen]byte, error) {
	if lp != nil {
		return lp.Fingerprint(computeFingerprint)
	}
	return Fingerprint(sc.ID)
}

// encode is Encode with the scene pos stands in and its fingerprint given.
func (e *Encoder) encode(pos play.Position, sc *scenes.Scene, fp [fingerprintLen]byte) (string, error) {
	var err error
	kind, extra := KindPosition, any(nil)
	switch {
	case pos.Trial != nil && pos.Lab != nil:
		return "", errors.New("story code: a position is in a trial or in the lab, not both")
	case pos.Trial != nil:
		kind, extra = KindTrial, pos.Trial
	case pos.Lab != nil:
		kind, extra = KindLock, pos.Lab
	}
	data := []byte{Version<<4 | byte(kind)}
	data = append(data, fp[:]...)
	if extra != nil {
		if data, err = e.appendDeflated(data, extra); err != nil {
			return "", err
		}
	}
	rest := pos
	rest.Trial, rest.Lab = nil, nil
	data, err = appendPosition(data, sc, rest)
	if err != nil {
		return "", err
	}
	// whatever the record leaves out would be lost without a word: a
	// position that does not come back whole is refused here
	back, _, err := readBody(pos.Scene, data, fp, &known{pos.Lab, sc})
	if err != nil {
		return "", fmt.Errorf("story code: %w", err)
	}
	if !samePosition(pos, back) {
		return "", fmt.Errorf("story code: the position %s cannot be carried whole (it reads back as %s)", jsonOf(pos), jsonOf(back))
	}
	return pos.Scene + "." + encoding.EncodeToString(appendCRC(pos.Scene, data)), nil
}

// appendDeflated appends v as JSON, deflated, after its length.
func (e *Encoder) appendDeflated(data []byte, v any) ([]byte, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	e.buf.Reset()
	if e.zw == nil {
		e.zw, _ = flate.NewWriter(&e.buf, flate.BestCompression) // a valid level: no error
	} else {
		e.zw.Reset(&e.buf)
	}
	e.zw.Write(js)
	if err := e.zw.Close(); err != nil {
		return nil, err
	}
	data = binary.AppendUvarint(data, uint64(e.buf.Len()))
	return append(data, e.buf.Bytes()...), nil
}

// maxInflated bounds what a code's deflated part may grow to: a trial or a
// lab story is a few kilobytes, and a damaged code must not ask for more.
const maxInflated = 1 << 20

// readDeflated reads what appendDeflated wrote into v.
func readDeflated(r *reader, v any) error {
	zipped := r.bytes(r.count())
	if r.err != nil {
		return r.err
	}
	js, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(zipped)), maxInflated+1))
	if err != nil || len(js) > maxInflated {
		return errors.New("the record's trial or lab story does not read")
	}
	if err := json.Unmarshal(js, v); err != nil {
		return fmt.Errorf("the record's trial or lab story does not read: %v", err)
	}
	return nil
}

// readBody reads a code's record (its checksum taken off) for the scene
// with id: the kind, then the trial or lab story if any, then the position.
// fp, when not zero, is the fingerprint the record must carry; zero checks
// it against this build (a refusal wraps ErrChanged).
//
// known, when not nil, is a lab place whose scene is already built: a
// record whose lab place reads back as the same JSON has the same scene
// (the place's every field is in its JSON), so it is not built again.
func readBody(id string, body []byte, fp [fingerprintLen]byte, known *known) (play.Position, *scenes.Scene, error) {
	if len(body) < 1+fingerprintLen {
		return play.Position{}, nil, errors.New("the record is cut short")
	}
	kind := Kind(body[0] & 0x0f)
	r := &reader{data: body[1+fingerprintLen:]}
	var trial *play.TrialRecord
	var lp *play.LabPlace
	switch kind {
	case KindPosition:
	case KindTrial:
		trial = &play.TrialRecord{}
		if err := readDeflated(r, trial); err != nil {
			return play.Position{}, nil, err
		}
	case KindLock:
		lp = &play.LabPlace{}
		if err := readDeflated(r, lp); err != nil {
			return play.Position{}, nil, err
		}
	default:
		return play.Position{}, nil, fmt.Errorf("it carries %s, which this build, %s, story-code format %d, cannot open", kind, buildinfo.Version(), Version)
	}
	var sc *scenes.Scene
	var err error
	if lp != nil && known.same(lp) {
		sc = known.sc
	} else if lp != nil {
		if sc, err = lp.Scene(); err != nil {
			return play.Position{}, nil, err
		}
	} else if sc = scenes.Find(id); sc == nil {
		return play.Position{}, nil, fmt.Errorf("scene %q is not in this locksim (locksim -list shows the scenes it has)", id)
	}
	if sc.ID != id {
		return play.Position{}, nil, fmt.Errorf("the record is of scene %s, the code names %s", sc.ID, id)
	}
	if fp == ([fingerprintLen]byte{}) {
		if fp, err = fingerprintOf(sc, lp); err != nil {
			return play.Position{}, nil, err
		}
		if string(fp[:]) != string(body[1:1+fingerprintLen]) {
			return play.Position{}, nil, changedError{id: id, lab: lp != nil}
		}
	}
	pos, err := readPosition(sc, r.data)
	if err != nil {
		return play.Position{}, nil, err
	}
	pos.Trial, pos.Lab = trial, lp
	return pos, sc, nil
}

// appendCRC appends the checksum of a code with this scene id and body.
func appendCRC(id string, body []byte) []byte {
	return binary.BigEndian.AppendUint32(body, crc32.ChecksumIEEE(append([]byte(id+"."), body...)))
}

// changedError is the refusal of a code whose scene now plays differently.
// lab is set for a lab story's code, which carries its lock and its
// schedule: only another build plays them differently.
type changedError struct {
	id  string
	lab bool
}

func (e changedError) Error() string {
	if e.lab {
		return fmt.Sprintf("story code: another build of locksim made this lab story's code, and this one plays its lock differently (a reply, a command or its text on screen changed), so the code cannot show the same story; run the lock again with -lab DIR or -grade DIR for a code of this build (this build: %s, story-code format %d)", buildinfo.Version(), Version)
	}
	return fmt.Sprintf("story code: scene %s now plays differently from when this code was made (its settings, commands or replies changed), so the code cannot show the same story; open the scene afresh with -scene %s (this build: %s, story-code format %d)", e.id, e.id, buildinfo.Version(), Version)
}

func (e changedError) Is(target error) bool { return target == ErrChanged }

// Decode reads a story code (spaces and line breaks anywhere in it,
// quotes and backticks around it, and case are ignored) and returns the position it
// carries, checked against this build's scenes (play.Position.Check). Its
// errors are one line each, starting "story code": a mangled code; one
// from a later format or of a kind this locksim does not open; a scene
// this build does not have; and, wrapping ErrChanged, a scene that now
// plays differently from when the code was made.
func Decode(code string) (play.Position, error) {
	// a long code wraps in a transcript or a chat: spaces and line breaks
	// inside it are not part of it (its alphabet has none)
	code = strings.ToLower(strings.Trim(strings.Join(strings.Fields(code), ""), "\"'`"))
	id, text, ok := strings.Cut(code, ".")
	if !ok || id == "" || text == "" {
		return play.Position{}, ErrNotCode
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
		return play.Position{}, fmt.Errorf("story code: made in code format %d; this build, %s, reads format %d (a newer locksim made it?)", v, buildinfo.Version(), Version)
	}
	pos, sc, err := readBody(id, body, [fingerprintLen]byte{}, nil)
	if errors.Is(err, ErrChanged) {
		return play.Position{}, err
	}
	if err != nil {
		return play.Position{}, fmt.Errorf("story code: %w", err)
	}
	// the scene the record was read with is the one pos stands in: a lab
	// story's is not built (its break searched) a second time
	if err := pos.CheckIn(sc); err != nil {
		return play.Position{}, fmt.Errorf("story code: %w", err)
	}
	return pos, nil
}

// known is a lab place and the scene it builds (LabPlace.Scene).
type known struct {
	lp *play.LabPlace
	sc *scenes.Scene
}

// same reports whether lp is k's place as JSON: the scene it builds is
// k's.
func (k *known) same(lp *play.LabPlace) bool {
	if k == nil || k.lp == nil || k.sc == nil {
		return false
	}
	a, errA := json.Marshal(k.lp)
	b, errB := json.Marshal(lp)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}
