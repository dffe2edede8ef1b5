package lab

import (
	"slices"
	"strings"
)

// lesson is the plain statement of what the threat model alone breaks:
// own when the shrunk break of mutual exclusion is the lock's own, broke
// when the search found one at all, grants when the lock lets a client in
// on a free server. A lock whose mutual exclusion did not break is told
// the faults' lesson conditionally: it keeps mutual exclusion, trivially
// when it grants nobody.
func lesson(p Policy, own, broke, grants bool) string {
	if !slices.Contains(p.Properties, MutualExclusion) || p.Bound.Faults == 0 {
		return ""
	}
	var why []string
	if p.Has(PausePast) {
		why = append(why, "a holder paused past its TTL wakes still acting as holder after its key expired and another client took the lock")
	}
	if p.Has(ClockJump) {
		why = append(why, "a server clock that jumps past the TTL expires the key under a holder that is still working")
	}
	if p.Has(Restart) {
		why = append(why, "a restart without persistence forgets the key while its holder works")
	}
	if len(why) == 0 {
		return ""
	}
	fencing := "resource-safety can still hold: have the acquire return a fencing token (an INCR in the same script as the grant) and the resource refuses a write whose token is lower than one it has seen"
	if p.Has(Restart) {
		fencing += ", as long as the counter survives: a restart without persistence loses it too, and the tokens start again from 1"
	}
	whose := "That is the lesson, not a bug in your lock. "
	switch {
	case own:
		whose = "Here, though, mutual-exclusion breaks without any of them: that break is the lock's own. "
	case !broke && !grants:
		return "With these faults in scope no lease keeps mutual-exclusion once it is granted, whatever the scripts do: " +
			strings.Join(why, "; ") + ". This lock grants nobody, so it keeps mutual-exclusion trivially: its break is its own, a client refused on a free server. Once it grants, " +
			fencing + "."
	case !broke:
		return "With these faults in scope no lease keeps mutual-exclusion once it is granted, whatever the scripts do: " +
			strings.Join(why, "; ") + ". Within this bound no schedule showed it for this lock. " + fencing + "."
	}
	return "With these faults in scope no lease keeps mutual-exclusion, whatever the scripts do: " +
		strings.Join(why, "; ") + ". " + whose + fencing + "."
}

// LeaseFaults are the faults that end a lease under a holder that is
// still working: no TTL survives a pause past it, a clock that jumps past
// it, or a restart that forgets the key.
func LeaseFaults() []Fault { return []Fault{PausePast, ClockJump, Restart} }

// LessonFaults are the faults whose breaks of p are lessons of the course,
// not bugs of the lock: for mutual-exclusion, every fault that ends a
// lease; for resource-safety, a restart (it forgets the fencing counter
// too) and, for a lock that hands out no fencing token (fenced false), the
// others as well. Every other break is the lock's own.
func LessonFaults(p Property, fenced bool) []Fault {
	switch {
	case p == MutualExclusion, p == ResourceSafety && !fenced:
		return LeaseFaults()
	case p == ResourceSafety:
		return []Fault{Restart}
	}
	return nil
}

// errorsLine is the runtime errors a search met, each with its schedule,
// in one line.
func errorsLine(errs []*ScriptError) string {
	var out []string
	for _, e := range errs {
		line := e.Error()
		if w := e.Where(); w != "" {
			line += " (in the schedule " + w + ")"
		}
		out = append(out, line)
	}
	return strings.Join(out, "; ")
}
