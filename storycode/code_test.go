package storycode

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"locksim/buildinfo"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
)

// positions are positions of every kind a code carries: settings, own
// moves on actors and nodes, waits, predictions given and passed, a
// selection, a quiz's place, a race's record.
var positions = []string{
	`{"version":1,"scene":"gc-pause","seed":48213,"step":8}`,
	`{"version":1,"scene":"gc-pause","settings":{"pause":1,"TTL":2},"seed":7,"own":[{"at":2,"kind":"wait","ms":5000},{"at":3,"kind":"crash","actor":"A"}],"step":6,"prediction":{"chosen":1},"selected":"B"}`,
	`{"version":1,"scene":"fencing","seed":7,"own":[{"at":2,"kind":"wait","ms":5000}],"step":7,"prediction":{"chosen":-1,"passed":true}}`,
	`{"version":1,"scene":"redlock","settings":{"story":3},"seed":99999,"own":[{"at":3,"kind":"stop","node":"C"},{"at":4,"kind":"cut","actor":"c2","node":"A"}],"step":9,"node":"C"}`,
	`{"version":1,"scene":"choose","quiz":{"at":2,"answers":[0,1,-1,-1,-1,-1,-1,-1],"shown":[false,false,true,false,false,false,false,false]}}`,
	`{"version":1,"scene":"race","seed":3,"step":1,"race":{"shots":[{"worker":"w3","order":1,"reply":"OK"},{"worker":"w1","order":2,"reply":"(nil)"},{"worker":"w2","order":3,"reply":"(nil)"},{"worker":"w4","order":4,"reply":"(nil)"}]}}`,
	`{"version":1,"scene":"options","step":0}`,
}

func parse(t testing.TB, s string) play.Position {
	t.Helper()
	pos, err := play.ParsePosition([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return pos
}

// TestRoundTrip: every position comes back from its code whole, and the
// code is one pasteable token.
func TestRoundTrip(t *testing.T) {
	for _, s := range positions {
		pos := parse(t, s)
		code, err := Encode(pos)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		t.Logf("%d characters: %s", len(code), code)
		if strings.ContainsAny(code, " \t\n\"'`") || !strings.HasPrefix(code, pos.Scene+".") {
			t.Errorf("code %q is not one token starting with its scene", code)
		}
		back, err := Decode(code)
		if err != nil {
			t.Fatalf("%s → %s: %v", s, code, err)
		}
		if a, b := jsonOf(pos), jsonOf(back); a != b {
			t.Errorf("%s came back as %s", a, b)
		}
		// pasted with a shell's quotes, in upper case, or with o for 0
		for _, pasted := range []string{" `" + code + "`\n", strings.ToUpper(code), strings.ReplaceAll(code, "0", "o")} {
			if again, err := Decode(pasted); err != nil || jsonOf(again) != jsonOf(pos) {
				t.Errorf("pasted as %q: %v", pasted, err)
			}
		}
	}
}

// TestPositionFields: a code carries every field of a Position; a new
// field must be taught to the code (appendPosition, readPosition) first.
func TestPositionFields(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[play.Position]().Fields() {
		names = append(names, f.Name)
	}
	want := "Version Scene Settings Seed Own Step Prediction Quiz Selected Node Race Trial Lab"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("play.Position has fields %s; a story code carries %s", got, want)
	}
}

// TestDamagedCode: a code with any one character changed, dropped or
// added, or cut short, is refused with one line; never read as another
// position.
func TestDamagedCode(t *testing.T) {
	code, err := Encode(parse(t, positions[1]))
	if err != nil {
		t.Fatal(err)
	}
	dot := strings.Index(code, ".")
	var damaged []string
	for i := dot + 1; i < len(code); i++ {
		c := byte('x')
		if code[i] == 'x' {
			c = 'y'
		}
		damaged = append(damaged, code[:i]+string(c)+code[i+1:], code[:i]+code[i+1:], code[:i]+"7"+code[i:])
	}
	damaged = append(damaged, code[:len(code)-6], "release"+code[dot:], "fencing"+code[dot:], code[:dot], "", "gc-pause.", ".abc")
	for _, d := range damaged {
		_, err := Decode(d)
		if err == nil {
			t.Errorf("damaged code %q read as a position", d)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "story code: ") {
			t.Errorf("damaged code %q: %q is not one line about the code", d, msg)
		}
	}
}

// TestChangedSceneRefused: a code made when the scene played differently
// (another PX, one more move, a renamed setting value) is refused, and
// the refusal says so; the same code with the scene's own fingerprint
// opens.
func TestChangedSceneRefused(t *testing.T) {
	pos := parse(t, positions[1])
	sc := scenes.Find(pos.Scene)
	longer := *sc
	longer.Build = func(p scenes.Params) sim.Script {
		s := sc.Build(p)
		s.Moves = append(s.Moves, sim.Advance(sim.CourseTTL))
		return s
	}
	renamed := *sc
	renamed.Knobs = append([]scenes.Knob(nil), sc.Knobs...)
	renamed.Knobs[0].Values = append([]string{"a pause of another length"}, sc.Knobs[0].Values[1:]...)
	for name, changed := range map[string]*scenes.Scene{"one more move": &longer, "a setting renamed": &renamed} {
		old, err := computeFingerprint(changed, nil)
		if err != nil {
			t.Fatal(err)
		}
		now, err := Fingerprint(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		if old == now {
			t.Fatalf("%s: the fingerprint did not change", name)
		}
		code, err := new(Encoder).encode(pos, sc, old)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Decode(code)
		if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "now plays differently") || !strings.Contains(err.Error(), "this build: "+buildinfo.Version()) {
			t.Errorf("%s: a code from the scene as it was opened with %v", name, err)
		}
	}
}

// TestFingerprintRepeats: the fingerprint is the same each time it is
// computed (the tokens come from a fixed seed, the race is replayed), and
// differs between scenes.
func TestFingerprintRepeats(t *testing.T) {
	seen := map[[fingerprintLen]byte]string{}
	for _, sc := range scenes.All() {
		a, err := Fingerprint(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		if sc.ID == "race" || sc.ID == "gc-pause" {
			b, err := computeFingerprint(sc, nil)
			if err != nil || a != b {
				t.Errorf("%s: fingerprint %x, then %x (%v)", sc.ID, a, b, err)
			}
		}
		if other, ok := seen[a]; ok {
			t.Errorf("%s and %s have one fingerprint", other, sc.ID)
		}
		seen[a] = sc.ID
	}
	if _, err := Fingerprint("no-such-scene"); err == nil {
		t.Error("an unknown scene has a fingerprint")
	}
}

// TestOtherKindsRefused: a code of a kind this locksim does not open, or
// of a later format, says so. (A trial's and a lab story's kinds are read:
// see kinds_test.go.)
func TestOtherKindsRefused(t *testing.T) {
	code, err := Encode(parse(t, positions[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		first byte
		want  string
	}{{Version<<4 | 4, "payload kind 4"}, {Version<<4 | 0x0f, "payload kind 15"}, {2<<4 | byte(KindPosition), "format 2"}} {
		id, text, _ := strings.Cut(code, ".")
		data, _ := encoding.DecodeString(text)
		data[0] = c.first
		body := data[:len(data)-4]
		recoded := id + "." + encoding.EncodeToString(appendCRC(id, body))
		_, err := Decode(recoded)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("first byte %#x: %v, want it to name %s", c.first, err, c.want)
		}
		// a refusal names both versions: the build's and the format it reads
		if here := fmt.Sprintf("format %d", Version); err == nil || !strings.Contains(err.Error(), buildinfo.Version()) || !strings.Contains(err.Error(), here) {
			t.Errorf("first byte %#x: %v, want it to name this build, %s, and %s", c.first, err, buildinfo.Version(), here)
		}
	}
}

// FuzzDecode: whatever is pasted, reading it never panics, and a code
// that reads gives a position whose own code reads the same.
func FuzzDecode(f *testing.F) {
	for _, s := range positions {
		code, err := Encode(parse(f, s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(code)
	}
	for _, s := range []string{"", ".", "gc-pause.", "gc-pause.zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "race.00000000000000", "choose." + strings.Repeat("z", 200), "gc-pause.\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pos, err := Decode(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: the error %q is more than one line", s, err)
			}
			return
		}
		code, err := Encode(pos)
		if err != nil {
			t.Fatalf("%q read as %s, which has no code: %v", s, jsonOf(pos), err)
		}
		again, err := Decode(code)
		if err != nil || jsonOf(again) != jsonOf(pos) {
			t.Errorf("%q → %s → %s → %v", s, jsonOf(pos), code, err)
		}
	})
}

// TestKnownLabPlace: Encode reads its record back with the lab place's
// scene it already built only when the record's place is the same as
// JSON; any other place, or none known, builds its own.
func TestKnownLabPlace(t *testing.T) {
	place := &play.LabPlace{Clients: 2, Parts: []play.LabPart{{Name: "acquire", Lang: "lua", Src: "return 1"}}, Policy: json.RawMessage(`{"ttl_ms": 1000}`)}
	k := &known{place, &scenes.Scene{ID: "lab"}}
	same := *place
	same.Policy = json.RawMessage(`{ "ttl_ms":  1000 }`) // the same as JSON
	if !k.same(&same) {
		t.Error("the same place as JSON should be known")
	}
	other := *place
	other.Clients = 3
	if k.same(&other) {
		t.Error("a place with another number of clients should not be known")
	}
	if (*known)(nil).same(place) || (&known{place, nil}).same(place) {
		t.Error("no place known, or no scene, should be known")
	}
}
