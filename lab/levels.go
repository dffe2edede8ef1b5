package lab

import (
	"fmt"
	"slices"
)

// Mode is how a level is played.
type Mode int

const (
	// BreakIt: the learner is the adversary. The flawed lock runs as a
	// story (StoryOf with no moves) and the learner schedules steps and
	// faults by hand; won when BrokenIn shows one of the level's
	// properties broken.
	BreakIt Mode = iota
	// FixIt: the learner repairs the lock; passed when Check finds no
	// break of the level's properties within the bound and the lock still
	// grants when free (Level.Passed).
	FixIt
)

// Level is a built-in lock with a known flaw, to break or to fix.
type Level struct {
	ID    string
	Title string
	// Goal is one line per mode: what to break, what to fix.
	BreakGoal, FixGoal string
	// Properties are the ones the level is about; Lock.Policy judges
	// exactly these, under the level's threat model and bound.
	Properties []Property
	// Lock is the flawed lock the level starts from.
	Lock Lock
}

// Passed reports whether a report on the learner's lock passes the level
// in mode m: FixIt when every property of the level passed within the
// bound and the lock grants when free; BreakIt when one of them broke.
func (lv Level) Passed(m Mode, r *Report) bool {
	if r == nil || r.Refused {
		return false
	}
	broke := false
	for _, p := range lv.Properties {
		v, ok := r.Judgement(p)
		if !ok || v.Status == Error {
			return false
		}
		broke = broke || v.Status == Fail
	}
	if m == BreakIt {
		return broke
	}
	return !broke && r.Grants
}

// CheckParts refuses a lock with a part the level's lock does not have:
// an extend in a level whose lock has none. The level's properties are
// judged on the clients its parts make, so an added part changes what is
// judged (an extend that answers 0 makes every holder give up before its
// release, and a level about the release then never sees it run). The
// error is one line naming the part's file.
func (lv Level) CheckParts(l *Lock) error {
	if lv.Lock.Extend.Empty() && !l.Extend.Empty() {
		return fmt.Errorf("%s: level %s has no extend (its lock is an acquire and a release): remove %s to be graded on the level",
			l.Extend.File(), lv.ID, l.Extend.File())
	}
	return nil
}

// The parts the levels share.
const (
	acquireSET = `-- take the lock only if it is free, with a TTL
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
`
	releaseCAD = `-- delete the lock only if it still holds our token
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`
)

func levelLock(acq, rel, ext Part, faults []Fault, props []Property, b Bound) Lock {
	pol := DefaultPolicy()
	pol.Faults, pol.Properties, pol.Bound = faults, props, b
	if ext.Name == "" {
		ext.Name = PartExtend
	}
	return Lock{Acquire: acq, Release: rel, Extend: ext, Policy: pol}
}

func luaPart(name, src string) Part  { return Part{Name: name, Lang: Lua, Src: src} }
func commands(name, src string) Part { return Part{Name: name, Lang: Commands, Src: src} }

// Levels are the built-in levels, in the order the lab lists them. Each
// call returns fresh values.
func Levels() []Level {
	small := Bound{Clients: 2, Faults: 1, Depth: 10, MaxSchedules: 200_000}
	two := Bound{Clients: 2, Faults: 2, Depth: 10, MaxSchedules: 200_000}
	// the race needs no fault, and a level that offers none cannot be
	// won by waiting out the lease instead
	race := Bound{Clients: 2, Faults: 0, Depth: 10, MaxSchedules: 200_000}
	return []Level{
		{
			ID: "get-then-set", Title: "An acquire in two commands",
			BreakGoal:  "Make two clients hold the lock at once, with no fault at all.",
			FixGoal:    "Make the acquire one atomic command, so only one client can be granted.",
			Properties: []Property{MutualExclusion},
			Lock: levelLock(commands(PartAcquire, `# is the lock free? then take it
GET {key}
if nil: SET {key} {token} PX {ttl}
`), luaPart(PartRelease, releaseCAD), Part{}, []Fault{}, []Property{MutualExclusion}, race),
		},
		{
			ID: "get-then-del", Title: "A release in two commands",
			BreakGoal:  "Make a client's release delete a lock another client holds.",
			FixGoal:    "Make the check and the delete one atomic step.",
			Properties: []Property{NoForeignRelease},
			Lock: levelLock(luaPart(PartAcquire, acquireSET), commands(PartRelease, `# is it still ours? then delete it
GET {key}
if token: DEL {key}
`), Part{}, []Fault{PausePast, Crash, LostReply}, []Property{NoForeignRelease}, small),
		},
		{
			ID: "blind-release", Title: "A release that checks nothing",
			BreakGoal:  "Make a client's release delete a lock another client holds.",
			FixGoal:    "Release only the lock that still holds your own token.",
			Properties: []Property{NoForeignRelease},
			Lock: levelLock(luaPart(PartAcquire, acquireSET), commands(PartRelease, `DEL {key}
`), Part{}, []Fault{PausePast, Crash}, []Property{NoForeignRelease}, small),
		},
		{
			ID: "constant-token", Title: "Every client writes the same value",
			BreakGoal:  "Make a client's release delete a lock another client holds, although the release compares values.",
			FixGoal:    "Make the value tell one acquisition from another.",
			Properties: []Property{NoForeignRelease},
			Lock: levelLock(luaPart(PartAcquire, `return redis.call('SET', KEYS[1], 'locked', 'NX', 'PX', ARGV[2])
`), luaPart(PartRelease, `if redis.call('GET', KEYS[1]) == 'locked' then
  return redis.call('DEL', KEYS[1])
end
return 0
`), Part{}, []Fault{PausePast, Crash}, []Property{NoForeignRelease}, small),
		},
		{
			ID: "setnx-expire", Title: "SETNX, then EXPIRE",
			BreakGoal:  "Leave a lock nobody can ever take again.",
			FixGoal:    "Give the key its TTL in the same command that takes it.",
			Properties: []Property{DeadlockFreedom},
			Lock: levelLock(commands(PartAcquire, `SETNX {key} {token}
if 1: PEXPIRE {key} {ttl}
`), luaPart(PartRelease, releaseCAD), Part{}, []Fault{Crash}, []Property{DeadlockFreedom}, small),
		},
		{
			ID: "extend-recreates", Title: "An extend that brings a lapsed lock back",
			BreakGoal:  "Leave a lock nobody can ever take again, through the extend.",
			FixGoal:    "An extend that finds the key gone must say so, not recreate it.",
			Properties: []Property{DeadlockFreedom},
			Lock: levelLock(luaPart(PartAcquire, acquireSET), luaPart(PartRelease, releaseCAD), luaPart(PartExtend, `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
elseif not v then
  -- the lock lapsed: take it back
  redis.call('SET', KEYS[1], ARGV[1])
  return 1
end
return 0
`), []Fault{PausePast, Crash}, []Property{DeadlockFreedom}, two),
		},
		{
			ID: "no-fencing", Title: "A lease without a fencing token",
			BreakGoal:  "Make the resource accept a write from a client whose lease was taken over.",
			FixGoal:    "Hand out a fencing token with the grant, in the same script, so the resource refuses stale writes.",
			Properties: []Property{ResourceSafety},
			Lock: levelLock(luaPart(PartAcquire, acquireSET), luaPart(PartRelease, releaseCAD), Part{},
				[]Fault{PausePast, Crash}, []Property{ResourceSafety}, small),
		},
	}
}

// FindLevel returns the level with the given id.
func FindLevel(id string) (Level, bool) {
	i := slices.IndexFunc(Levels(), func(l Level) bool { return l.ID == id })
	if i < 0 {
		return Level{}, false
	}
	return Levels()[i], true
}
