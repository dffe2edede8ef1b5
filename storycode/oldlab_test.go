package storycode

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"locksim/buildinfo"
	"locksim/lab"
	"locksim/play"
)

// TestOtherBuildsLabCode: a lab story's code carries its lock and
// schedule, so a fingerprint that differs from this build's play of them
// means another build made it (one that escaped a hostile reply another
// way, say): opening it is refused in one line that says so, names this
// build and what makes a code it opens, and wraps ErrChanged; it is no
// panic, and sends nobody to -scene lab, which is no scene to open.
func TestOtherBuildsLabCode(t *testing.T) {
	pol, err := lab.DefaultPolicy().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	lp := &play.LabPlace{Clients: 2, Policy: json.RawMessage(pol), Parts: []play.LabPart{
		{Name: "acquire", Lang: "lua", Src: `return redis.error_reply("\27[2J\27]0;PWNED\7\27[31mRED\226\128\174rev")` + "\n"},
		{Name: "release", Lang: "redis", Src: "DEL {key}\n"},
	}, Moves: []play.LabMove{{Client: "A", Label: "acquire"}}, Property: string(lab.DeadlockFreedom),
		Why: "on an empty server, A's acquire is refused: the lock never lets a client in"}
	pos := play.Position{Version: play.PositionVersion, Scene: lab.SceneID, Seed: 1, Lab: lp}
	sc, err := lp.Scene()
	if err != nil {
		t.Fatal(err)
	}
	now, err := fingerprintOf(sc, lp)
	if err != nil {
		t.Fatal(err)
	}
	code, err := new(Encoder).encode(pos, sc, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(code); err != nil {
		t.Fatalf("this build's code does not open: %v", err)
	}
	old := now
	old[0] ^= 0xff // the play of another build: another reply's text
	code, err = new(Encoder).encode(pos, sc, old)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Decode(code)
	if err == nil {
		t.Fatal("a code of another build's play opened")
	}
	msg := err.Error()
	if !errors.Is(err, ErrChanged) || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "story code: ") ||
		!strings.Contains(msg, "another build") || !strings.Contains(msg, buildinfo.Version()) || strings.Contains(msg, "-scene") {
		t.Errorf("the refusal: %q", msg)
	}
}
