// Package grade is the lab's headless grade (locksim -grade DIR -out OUT):
// the adversary run on a learner's lock under a policy the teacher pins
// (a level, a file) or the default one, and its verdicts written as
// results.json in Exercism's test-runner format. It sits above the lab
// and the story codes, so a failure's message carries a code -story
// opens, made here rather than handed down.
package grade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"locksim/lab"
	"locksim/play"
	"locksim/storycode"
)

// Results is results.json in Exercism's test-runner format, version 2:
// Status "pass" when every test passed, "fail" when one failed or erred,
// "error" when none could run (Message then says why, naming the
// policy); one test per judged property, named by its id, then under the
// default policy one entry per lesson ("lesson: PROPERTY (FAULT)"), then
// one per lint note ("note: FILE:LINE"), which pass.
type Results struct {
	Version int          `json:"version"`
	Status  lab.Status   `json:"status"`
	Message string       `json:"message,omitempty"`
	Tests   []TestResult `json:"tests"`
}

// TestResult is one property's test, or a lesson. Message is set for a
// failure (the shrunk break and its story code) or an error; Output holds
// a lesson's text (a break no lease survives, which does not fail the
// grade), within Exercism's 500 characters; TestCode says what was
// checked, within which bound and under which policy, as the format asks
// for the test's code, and for a lesson the command that opens its story.
type TestResult struct {
	Name     string     `json:"name"`
	Status   lab.Status `json:"status"`
	Message  string     `json:"message,omitempty"`
	Output   string     `json:"output,omitempty"`
	TestCode string     `json:"test_code"`
}

// Exercism's limits: a message (the top level's or a test's) of 65 535
// characters, a test's output of 500.
const (
	maxMessage = 65535
	maxOutput  = 500
)

// Pin is who decides the policy a lock is graded against: a level
// (-level ID: its threat model, bound and properties) or a teacher's file
// (-policy FILE, lab.json's format). With either, the student's lab.json
// is not read. With neither, the default policy applies and lab.json may
// only widen it (see widen).
type Pin struct {
	Level  string
	Policy string
}

// Name is the policy as results.json names it: "level ID", "the policy in
// FILE", "the default policy".
func (p Pin) Name() string {
	switch {
	case p.Level != "":
		return "level " + p.Level
	case p.Policy != "":
		return "the policy in " + filepath.Base(p.Policy)
	}
	return "the default policy"
}

// Dir grades the lock in dir against the policy pin names and returns its
// results. A usage error (no such directory, no acquire, an unknown level,
// a policy file that cannot be read, is malformed or judges no property)
// is returned as err; a lock that cannot run (a syntax error, a script
// over budget, a bad lab.json) is Results with status error. ctx's error
// is returned when it ends the search.
func Dir(ctx context.Context, dir string, pin Pin) (res Results, err error) {
	defer func() {
		// a fault anywhere in the grade (the lab's, or its Lua host's)
		// still ends in a results.json: status error, no Go trace
		if r := recover(); r != nil {
			res, err = crashed(pin, r), nil
		}
	}()
	var pol *lab.Policy
	var level *lab.Level
	switch {
	case pin.Level != "":
		lv, ok := lab.FindLevel(pin.Level)
		if !ok {
			ids := []string{}
			for _, l := range lab.Levels() {
				ids = append(ids, l.ID)
			}
			return Results{}, fmt.Errorf("-level %s: no such level (known: %s)", pin.Level, strings.Join(ids, ", "))
		}
		pol, level = &lv.Lock.Policy, &lv
	case pin.Policy != "":
		data, err := os.ReadFile(pin.Policy)
		if err != nil {
			// not wrapped: a missing policy file is not a missing lock
			return Results{}, fmt.Errorf("-policy: %v", err)
		}
		p, err := lab.ParsePolicy(data)
		if err != nil {
			return Results{}, fmt.Errorf("-policy %s: %s", pin.Policy, strings.TrimPrefix(err.Error(), "lab.json: "))
		}
		pol = &p
	}
	// the directory itself missing or not one is a usage error; anything
	// wrong inside it is the lock's, told in results.json
	if st, err := os.Stat(dir); err != nil {
		return Results{}, err
	} else if !st.IsDir() {
		return Results{}, fmt.Errorf("%s is not a directory", dir)
	}
	load := lab.Load
	if pol != nil {
		load = lab.LoadParts
	}
	l, err := load(dir)
	if err != nil {
		if errors.Is(err, lab.ErrNoAcquire) {
			return Results{}, err
		}
		return failed(err), nil
	}
	// the grade's story codes share one compressor (see storycode.Encoder)
	enc := &storycode.Encoder{}
	if pol == nil {
		return defaultGrade(ctx, l, pin, enc)
	}
	if level != nil {
		if err := level.CheckParts(l); err != nil {
			return failed(err), nil
		}
	}
	l.Policy = *pol
	rep, err := lab.Check(ctx, l, lab.Options{})
	if err != nil {
		if ctx.Err() != nil {
			return Results{}, err
		}
		return failed(err), nil
	}
	if rep.Refused {
		return failed(fmt.Errorf("%s: %s", pin.Name(), rep.Summary())), nil
	}
	res = Results{Version: 2, Tests: tests(rep, pin, true, enc)}
	if level != nil {
		res.Tests = append(res.Tests, levelRule(*level, rep, res.Tests)...)
	}
	return settle(Results{Version: 2, Tests: append(res.Tests, notes(l)...)}), nil
}

// levelRule are the failing tests a level's whole rule adds to its
// properties' tests (Level.Passed, as the lab's screen applies it): a
// lock that does not grant when free fails the level whatever its
// properties say, and so does any other condition Passed finds unmet.
func levelRule(lv lab.Level, rep *lab.Report, have []TestResult) []TestResult {
	if lv.Passed(lab.FixIt, rep) {
		return nil
	}
	rule := "level " + lv.ID + " is passed when the adversary finds no break of " + joinProps(lv.Properties) +
		" within the bound and the lock still grants when free"
	var out []TestResult
	if !rep.Grants {
		why := "the lock refuses a client on a free server: it never lets anyone in"
		if rep.NoGrant != "" {
			why = "the lock does not grant when free: " + rep.NoGrant
		}
		out = append(out, TestResult{Name: "grants-when-free", Status: lab.Fail, Message: clip(why+" ("+rule+")", maxMessage),
			TestCode: "a client on an empty server, and another after its release, are granted the lock, under " + Pin{Level: lv.ID}.Name()})
	}
	failing := slices.ContainsFunc(have, func(t TestResult) bool { return t.Status != lab.Pass })
	if len(out) == 0 && !failing {
		// Passed found a condition no test above shows (a property of the
		// level left unjudged): the level's rule still decides
		out = append(out, TestResult{Name: "level " + lv.ID, Status: lab.Fail, Message: rule + "; this lock does not meet it",
			TestCode: "the level's rule, under " + Pin{Level: lv.ID}.Name()})
	}
	return out
}

func joinProps(ps []lab.Property) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}

// crashed is the results of a grade a fault ended: status error, its
// message the fault's first line (naming the part and line when the Lua
// host's error says them), never a Go trace.
func crashed(pin Pin, r any) Results {
	msg := fmt.Sprint(r)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return failed(fmt.Errorf("the grade stopped on a fault of the lab's (%s) while grading under %s; the lock could not be graded", clip(msg, 400), pin.Name()))
}

// notes are the lock's lint notes (lab.Lint) as entries that pass: what
// the search cannot see, said beside the verdicts and never failing them.
// Each is named "note: FILE:LINE" (or "note: lab.json"), its text in
// output.
func notes(l *lab.Lock) []TestResult {
	var out []TestResult
	for _, n := range lab.Lint(l) {
		where := n.File
		if n.Line > 0 {
			where += ":" + strconv.Itoa(n.Line)
		}
		out = append(out, TestResult{Name: "note: " + where, Status: lab.Pass, Output: clip(n.String(), maxOutput),
			TestCode: "a note, not a test: code the search cannot judge (dead code, or a setting that does nothing)"})
	}
	return out
}

// failed is the results of a lock that could not be graded at all; err
// says why, naming the policy when the policy is the cause.
func failed(err error) Results {
	return Results{Version: 2, Status: lab.Error, Message: clip(err.Error(), maxMessage), Tests: []TestResult{}}
}

// settle sets the overall status from the tests: fail when one failed or
// erred, pass otherwise.
func settle(res Results) Results {
	res.Status = lab.Pass
	for _, t := range res.Tests {
		if t.Status != lab.Pass {
			res.Status = lab.Fail
		}
	}
	return res
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// widen is the policy the default grade applies given the student's
// lab.json, p: the lease and the client's settings (TTL, retries, their
// delay, the work's duration, the watchdog, retry_release) are the lock's own, p's; the faults and properties
// are the default's with p's added; each field of the bound is the
// default's or p's, the larger. So lab.json can make the grade harder,
// never easier.
func widen(p lab.Policy) lab.Policy {
	d := lab.DefaultPolicy()
	for _, f := range p.Faults {
		if !slices.Contains(d.Faults, f) {
			d.Faults = append(d.Faults, f)
		}
	}
	for _, pr := range p.Properties {
		if !slices.Contains(d.Properties, pr) {
			d.Properties = append(d.Properties, pr)
		}
	}
	d.TTL, d.Retries, d.RetryDelay, d.Watchdog, d.Work = p.TTL, p.Retries, p.RetryDelay, p.Watchdog, p.Work
	// a release retried after a lost reply only adds schedules to judge
	d.RetryRelease = p.RetryRelease
	d.Bound.Clients = max(d.Bound.Clients, p.Bound.Clients)
	d.Bound.Faults = max(d.Bound.Faults, p.Bound.Faults)
	d.Bound.Depth = max(d.Bound.Depth, p.Bound.Depth)
	d.Bound.MaxSchedules = max(d.Bound.MaxSchedules, p.Bound.MaxSchedules)
	return d
}

// leaseFaults and lessonFaults are the lab's (lab.LeaseFaults,
// lab.LessonFaults), which the lab's screen reads too.
func leaseFaults() []lab.Fault { return lab.LeaseFaults() }

func lessonFaults(p lab.Property, fenced bool) []lab.Fault { return lab.LessonFaults(p, fenced) }

// defaultGrade grades l under the default policy widened by its lab.json:
// each property is a test over every fault in scope but its lesson
// faults, so it fails only on the lock's own bugs; then a search for
// each lesson fault alone finds what it breaks besides, each reported
// in an entry of its own ("lesson: PROPERTY (FAULT)", one per lesson
// fault that breaks it searched alone, status pass, its story code in
// the test's code), which does not fail the grade.
func defaultGrade(ctx context.Context, l *lab.Lock, pin Pin, enc *storycode.Encoder) (Results, error) {
	pol := widen(l.Policy)
	fenced := lab.HandsOutFences(ctx, l)
	// the properties that share a threat model share a search
	var groups [][]lab.Property
	var threat [][]lab.Fault
	for _, p := range pol.Properties {
		own := slices.DeleteFunc(slices.Clone(pol.Faults), func(f lab.Fault) bool {
			return slices.Contains(lessonFaults(p, fenced), f)
		})
		i := slices.IndexFunc(threat, func(fs []lab.Fault) bool { return slices.Equal(fs, own) })
		if i < 0 {
			threat, groups = append(threat, own), append(groups, nil)
			i = len(threat) - 1
		}
		groups[i] = append(groups[i], p)
	}
	search := func(faults []lab.Fault, props []lab.Property) (*lab.Report, error) {
		lk := *l
		lk.Policy = pol
		lk.Policy.Faults, lk.Policy.Properties = faults, props
		rep, err := lab.Check(ctx, &lk, lab.Options{})
		if err == nil && rep.Refused {
			err = fmt.Errorf("%s: %s", pin.Name(), rep.Summary())
		}
		return rep, err
	}
	byProp := map[lab.Property]TestResult{}
	var held []lab.Property // passed, with lessons to look for
	for i, props := range groups {
		rep, err := search(threat[i], props)
		if err != nil {
			if ctx.Err() != nil {
				return Results{}, err
			}
			return failed(err), nil
		}
		for _, t := range tests(rep, pin, false, enc) {
			p := lab.Property(t.Name)
			byProp[p] = t
			if t.Status == lab.Pass && len(lessonFaults(p, fenced)) > 0 {
				held = append(held, p)
			}
		}
	}
	res := Results{Version: 2, Tests: []TestResult{}}
	for _, p := range pol.Properties {
		res.Tests = append(res.Tests, byProp[p])
	}
	// each lesson fault in scope is searched alone, one at a time, so
	// every one that breaks a property gets its lesson and its story;
	// they are listed by property, then by fault
	var lessons []TestResult
	for _, f := range leaseFaults() {
		if !slices.Contains(pol.Faults, f) {
			continue
		}
		var props []lab.Property
		for _, p := range held {
			if slices.Contains(lessonFaults(p, fenced), f) {
				props = append(props, p)
			}
		}
		if len(props) == 0 {
			continue
		}
		lk := *l
		lk.Policy = pol
		lk.Policy.Faults, lk.Policy.Properties = []lab.Fault{f}, props
		lk.Policy.Bound.Faults = 1
		rep, err := lab.Check(ctx, &lk, lab.Options{})
		if err == nil && rep.Refused {
			err = fmt.Errorf("%s: %s", pin.Name(), rep.Summary())
		}
		if err != nil {
			if ctx.Err() != nil {
				return Results{}, err
			}
			return failed(err), nil
		}
		for _, v := range rep.Judgements {
			if v.Status == lab.Fail && v.Break != nil {
				lessons = append(lessons, lesson(v, rep, pin, fenced, f, enc))
			}
		}
	}
	for _, p := range pol.Properties {
		for _, t := range lessons {
			if strings.HasPrefix(t.Name, "lesson: "+string(p)+" (") {
				res.Tests = append(res.Tests, t)
			}
		}
	}
	res.Tests = append(res.Tests, notes(l)...)
	return settle(res), nil
}

// lesson is the entry of a break the lesson faults make: what no lease
// survives, with the story of it.
func lesson(v lab.Judgement, rep *lab.Report, pin Pin, fenced bool, f lab.Fault, enc *storycode.Encoder) TestResult {
	var why []string
	seen := map[lab.Fault]bool{}
	for _, m := range v.Break.Moves {
		if seen[m.Fault] || !slices.Contains(leaseFaults(), m.Fault) {
			continue
		}
		seen[m.Fault] = true
		switch m.Fault {
		case lab.PausePast:
			if pol := v.Break.Lock.Policy; pol.Watchdog > 0 && pol.Work > 0 && !v.Break.Lock.Extend.Empty() {
				// the pause stops the whole client, its watchdog's timer too
				why = append(why, "a holder paused past its TTL, its watchdog frozen with it, wakes still acting as holder")
			} else {
				why = append(why, "a holder paused past its TTL wakes still acting as holder")
			}
		case lab.ClockJump:
			why = append(why, "a server clock that jumps past the TTL expires a working holder's key")
		case lab.Restart:
			why = append(why, "a restart without persistence forgets the key, and any fencing counter with it")
		}
	}
	text := "Not a bug of your lock: no lease survives this (" + strings.Join(why, "; ") + ")."
	switch {
	case !fenced && !seen[lab.Restart] && countsGrants(v.Break.Lock.Acquire):
		// a number the resource never checks is no fencing token
		text += " Your acquire's INCR makes a number, but no fencing token: the resource never sees it (only an integer a Lua acquire returns goes with its writes). Return it from the script that grants, and the resource refuses a stale write."
	case !fenced && !seen[lab.Restart]:
		text += " A fencing token handed out with the grant keeps the resource safe."
	}
	if sched := " The break: " + v.Break.String() + "."; len(text)+len(sched) <= maxOutput {
		text += sched
	}
	// a story code is longer than an output may be: it goes with the
	// test's code, whole
	// the code once: each is a story built and searched again
	code := codeWith(enc, v.Break)
	return TestResult{Name: "lesson: " + string(v.Property) + " (" + string(f) + ")", Status: lab.Pass, Output: clip(text, maxOutput),
		TestCode: "a lesson, not a test of the lock: " + testCode(v.Property, rep, pin) +
			"; its story" + alsoIn(code) + ": locksim -story " + code}
}

// countsGrants reports an acquire that sends INCR (a counter of grants,
// as a fencing token is made), whatever it hands back.
func countsGrants(p lab.Part) bool {
	return strings.Contains(strings.ToUpper(p.Src), "INCR")
}

// tests are a report's judgements as tests; with lesson, a failure of
// mutual-exclusion carries the report's lesson too (a pinned policy's
// grade, which has no lesson entries). enc makes the breaks' story codes.
func tests(rep *lab.Report, pin Pin, lesson bool, enc *storycode.Encoder) []TestResult {
	out := []TestResult{}
	for _, v := range rep.Judgements {
		t := TestResult{Name: string(v.Property), Status: v.Status, TestCode: testCode(v.Property, rep, pin)}
		switch v.Status {
		case lab.Fail:
			t.Message = v.Message
			if v.Break != nil {
				// the break in one sentence first: a long schedule and its
				// code follow
				t.Message = v.Break.Sentence() + " " + v.Message + storyRef(codeWith(enc, v.Break))
				// every break its story should show, a refusal by a lock
				// that does not grant when free too (ledger.Refusal.Free)
				if !v.Ledger {
					t.Message += "; its story, played, does not show the break in the ledger's verdict: step through it to see what the search saw"
				}
			}
			if lesson && v.Property == lab.MutualExclusion && rep.Lesson != "" {
				t.Message += ". " + rep.Lesson
			}
		case lab.Error:
			t.Message = v.Message
		}
		t.Message = clip(t.Message, maxMessage)
		out = append(out, t)
	}
	return out
}

// Of turns a report into results.json's shape, as a grade under the
// default policy's name with no lesson entries.
func Of(rep *lab.Report) Results {
	if rep.Refused {
		return failed(fmt.Errorf("%s: %s", Pin{}.Name(), rep.Summary()))
	}
	return settle(Results{Version: 2, Tests: tests(rep, Pin{}, true, &storycode.Encoder{})})
}

// Code is the story code of a shrunk break, at its first step: locksim
// -story CODE opens it as a story of the lab, to step through. A break the
// code cannot carry keeps its schedule as plain text: "lab:" and the
// moves, separated by commas (see lab.Move.String).
func Code(b *lab.Break) string { return codeWith(&storycode.Encoder{}, b) }

// codeWith is Code, made with enc.
func codeWith(enc *storycode.Encoder, b *lab.Break) string {
	pos := play.Position{Version: play.PositionVersion, Scene: lab.SceneID, Seed: 1, Lab: play.LabBreak(b, "")}
	if code, err := enc.Encode(pos); err == nil {
		return code
	}
	s := make([]string, len(b.Moves))
	for i, m := range b.Moves {
		s[i] = strings.ReplaceAll(m.String(), " ", "_")
	}
	return "lab:" + strings.Join(s, ",")
}

func testCode(p lab.Property, rep *lab.Report, pin Pin) string {
	faults := "no faults"
	if len(rep.Faults) > 0 {
		names := make([]string, len(rep.Faults))
		for i, f := range rep.Faults {
			names[i] = string(f)
		}
		faults = "faults: " + strings.Join(names, ", ")
	}
	moves := ""
	if len(rep.Moves) > 0 {
		moves = "; moves counted: steps, faults, " + strings.Join(rep.Moves, ", ")
	}
	return fmt.Sprintf("check %s over all schedules of %d clients with up to %d faults, depth %d (%s%s), under %s",
		p, rep.Bound.Clients, rep.Bound.Faults, rep.Bound.Depth, faults, moves, pin.Name())
}

// storyRef is a failure's story as its message ends: the file beside
// results.json that holds its code (see fileRef), then the code itself.
func storyRef(code string) string {
	return fileRef(code) + " (story code " + code + ")"
}

// fileRef names the file Write puts code in beside results.json, by its
// short pointer (storycode.Pointer): a story code that carries a lock
// runs to hundreds of characters. "" for a break the code cannot carry.
func fileRef(code string) string {
	if strings.HasPrefix(code, "lab:") {
		return ""
	}
	return " (its story: locksim -story OUT/" + storycode.PointerFile(storycode.Pointer(code)) + ")"
}

// alsoIn is ", also in OUT/lab-<hash>.code" for a code Write puts in a
// file (see fileRef), "" for none.
func alsoIn(code string) string {
	if strings.HasPrefix(code, "lab:") {
		return ""
	}
	return ", also in OUT/" + storycode.PointerFile(storycode.Pointer(code))
}

// storyCodes finds the story codes in results.json's messages and test
// codes, as storyRef and lesson write them.
var storyCodes = regexp.MustCompile(`\(story code ([^ ()]+)\)|-story ([^ ()]+\.[^ ()]+)`)

// Write writes OUT/results.json (OUT created if missing), and beside it
// each story code the results name, in the file its pointer names
// (lab-<hash>.code), which locksim -story reads. The messages name those
// files by the directory out, as given: the grade that made them did not
// know it, and wrote OUT/ in its place.
func Write(out string, res Results) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, t := range res.Tests {
		for _, m := range storyCodes.FindAllStringSubmatch(t.Message+" "+t.TestCode, -1) {
			code := m[1] + m[2]
			if strings.HasPrefix(code, "lab:") || strings.HasPrefix(code, "OUT/") {
				continue
			}
			name := filepath.Join(out, storycode.PointerFile(storycode.Pointer(code)))
			if err := os.WriteFile(name, []byte(code+"\n"), 0o644); err != nil {
				return err
			}
		}
	}
	res.Tests = slices.Clone(res.Tests)
	for i, t := range res.Tests {
		res.Tests[i].Message, res.Tests[i].TestCode = inOut(t.Message, out), inOut(t.TestCode, out)
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "results.json"), append(data, '\n'), 0o644)
}

// inOut is s with the OUT/ of fileRef and alsoIn naming the directory
// out.
func inOut(s, out string) string {
	dir := filepath.Clean(out) + string(filepath.Separator)
	s = strings.ReplaceAll(s, "-story OUT/", "-story "+dir)
	return strings.ReplaceAll(s, "also in OUT/", "also in "+dir)
}
