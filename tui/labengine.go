package tui

// What the lab screen needs of the engine (package lab): until the
// engine's API lands these are the screen's own stand-ins.

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Part names, in the editor's order.
var labPartNames = [3]string{"acquire", "release", "extend"}

type labLang int

const (
	labLua labLang = iota
	labCommands
)

type labPart struct {
	Name string
	Lang labLang
	Src  string
}

type labPolicy struct {
	TTL        time.Duration
	Retries    int
	RetryDelay time.Duration
	Watchdog   time.Duration // 0: none
}

type labLock struct {
	Acquire, Release, Extend labPart
	Policy                   labPolicy
}

type labLevel struct {
	ID, Title, Goal string
	Break           bool
	Lock            labLock
}

type labVerdict struct {
	ID    string
	Broke bool
	Note  string
}

type labReport struct {
	Bound    string
	Verdicts []labVerdict
	Broken   bool
}

type labScriptError struct {
	Part string
	File string
	Line int
	Msg  string
}

func (e *labScriptError) Error() string { return e.Msg }

func labLevels() []labLevel {
	getdel := labLock{Acquire: labPart{Name: "acquire", Lang: labCommands, Src: "SET {key} {token} NX PX {ttl}"},
		Release: labPart{Name: "release", Lang: labCommands, Src: "GET {key}\nDEL {key} if = {token}"},
		Extend:  labPart{Name: "extend"},
		Policy:  labPolicy{TTL: 30 * time.Second}}
	return []labLevel{
		{ID: "break-get-del", Title: "a GET-then-DEL release", Goal: "no-foreign-release · threats: a pause past the TTL", Break: true, Lock: getdel},
		{ID: "fix-get-del", Title: "a GET-then-DEL release", Goal: "no-foreign-release · threats: a pause past the TTL", Lock: getdel},
	}
}

func labSearch(ctx context.Context, lock labLock, progress func(done, total int)) (labReport, error) {
	for i := range 10 {
		if ctx.Err() != nil {
			return labReport{}, ctx.Err()
		}
		progress(i, 10)
	}
	if strings.Contains(lock.Release.Src, "error(") {
		return labReport{}, &labScriptError{Part: "release", File: "release.lua", Line: 2, Msg: "boom"}
	}
	if strings.Contains(lock.Release.Src, "GET") {
		return labReport{Bound: "all schedules of 3 clients with up to 2 faults, depth 14: 4 812 explored, 12 broke", Broken: true,
			Verdicts: []labVerdict{{ID: "no-foreign-release", Broke: true, Note: "A's DEL removed B's lock"}, {ID: "mutual-exclusion"}}}, nil
	}
	return labReport{}, errors.New("stand-in")
}

func labLoad(dir string) (labLock, error) { return labLevels()[1].Lock, nil }
func labSave(dir string, lk labLock) error { return nil }
func labDefault() labLock                { return labLevels()[1].Lock }
