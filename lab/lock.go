// Package lab is the engine of the lab: a learner's own lock (an acquire,
// a release and an optional extend, as Lua scripts or as short lists of
// plain commands, with a policy in lab.json), a Lua host with the
// semantics of Redis's EVAL under an instruction budget, and an adversary
// that runs two or three clients of the lock around a critical section and
// explores every schedule of their steps and of the faults in scope, up to
// a stated bound, on an embedded server whose state it restores rather
// than replays. The first break it finds, shrunk to the fewest faults and
// steps, comes back as a story (a sim.Script and a scenes.Scene) for the
// player to step through.
//
// It is headless: it never imports the screen (tui, views, lipgloss,
// Bubble Tea). The lab runs on the embedded server only: a learner's
// script can name any key, and nothing proves a live server's other users
// safe from its writes.
package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Lang is the language a part of the lock is written in.
type Lang int

const (
	// Lua is a script run as with EVAL: KEYS[1] the lock key, ARGV[1] the
	// client's token, ARGV[2] the TTL in milliseconds.
	Lua Lang = iota
	// Commands is one plain command per line with {key}, {token} and
	// {ttl}, each line optionally guarded by a condition on the reply of
	// the command before it (see ParseCommands).
	Commands
)

// Ext is the file extension of the language: ".lua" or ".redis".
func (l Lang) Ext() string {
	if l == Commands {
		return ".redis"
	}
	return ".lua"
}

// The parts of a lock, by name.
const (
	PartAcquire = "acquire"
	PartRelease = "release"
	PartExtend  = "extend"
)

// Part is one piece of the learner's lock.
//
// Replies, for a Lua part (the reply of its script) or a Commands part
// (the reply of the last command it ran):
//   - acquire: OK or an integer above 0 means granted; an integer returned
//     by a Lua acquire is the client's fencing token. Nil, 0, an error or
//     anything else means refused.
//   - release and extend: 1 means done, and so does OK (an extend written
//     as SET {key} {token} IFEQ {token} PX {ttl}); 0, -1, nil or anything
//     else, not done.
type Part struct {
	Name string // PartAcquire, PartRelease or PartExtend
	Lang Lang
	Src  string
}

// File is the part's file name in a lab directory: "acquire.lua",
// "release.redis".
func (p Part) File() string { return p.Name + p.Lang.Ext() }

// Empty reports a part with no source: an absent extend.
func (p Part) Empty() bool { return strings.TrimSpace(p.Src) == "" }

// Lock is a learner's lock: its parts and the policy around them.
type Lock struct {
	Acquire Part
	Release Part
	Extend  Part // optional: Empty when the lock has none
	Policy  Policy
	// Read are notes on how Load read the lock's files (a byte order mark
	// dropped), which Lint passes on; nil for a lock not read from files.
	Read []Note
}

// Parts lists the lock's non-empty parts: acquire, release, then extend.
func (l *Lock) Parts() []Part {
	ps := []Part{l.Acquire, l.Release}
	if !l.Extend.Empty() {
		ps = append(ps, l.Extend)
	}
	return ps
}

// Fault is a fault the adversary may inject, as lab.json names it.
type Fault string

const (
	// PauseHalf freezes the holder for half a TTL: the clock moves on by
	// TTL/2 while it does nothing.
	PauseHalf Fault = "pause-half"
	// PausePast freezes the holder until just past its TTL (TTL + 1 ms).
	PausePast Fault = "pause-past"
	// Crash stops a client for good: its remaining steps never run.
	Crash Fault = "crash"
	// LostReply runs a client's next command on the server, but the client
	// never hears the reply: it treats the command as failed.
	LostReply Fault = "lost-reply"
	// ClockJump moves the server's clock forward past the TTL (TTL + 1 ms)
	// while every client stands still.
	ClockJump Fault = "clock-jump"
	// Restart restarts the server without persistence: every key is lost.
	Restart Fault = "restart"
)

// Phrase names the fault in a sentence: "a pause past the TTL".
func (f Fault) Phrase() string {
	switch f {
	case PauseHalf:
		return "a pause of half the TTL"
	case PausePast:
		return "a pause past the TTL"
	case Crash:
		return "a crash"
	case LostReply:
		return "a lost reply"
	case ClockJump:
		return "the server's clock jumping past the TTL"
	case Restart:
		return "a restart without persistence"
	}
	return string(f)
}

// AllFaults is every fault the adversary knows, in the order it tries them.
func AllFaults() []Fault {
	return []Fault{PauseHalf, PausePast, Crash, LostReply, ClockJump, Restart}
}

// Property is a property of a lock the adversary judges, by its stable id.
type Property string

const (
	// MutualExclusion: never two clients acting as holder at overlapping
	// times (the ledger's overlap: from a grant until the holder sends its
	// release, a GET that checks the key first not counting, crashes, or
	// learns from an extend that it lost the lock, which the ledger does
	// not yet read; a paused client still acts as holder).
	MutualExclusion Property = "mutual-exclusion"
	// ResourceSafety: the protected resource never accepts a write from a
	// stale holder: one whose grant came before the grant of a write the
	// resource had already accepted.
	ResourceSafety Property = "resource-safety"
	// NoForeignRelease: a release or an extend never deletes, rewrites or
	// changes the TTL of a lock key another client's acquire wrote.
	NoForeignRelease Property = "no-foreign-release"
	// DeadlockFreedom: once every client has finished or crashed, a new
	// client can take the lock within the horizon (twice the TTL): no key
	// left behind with no TTL, no lock nobody can take.
	DeadlockFreedom Property = "deadlock-freedom"

	// NoLeaseWasted (opt-in): a client that holds the lock knows it holds
	// it: never a client that gave up acquiring while the lock key holds
	// the value its own acquire wrote, as after a lost reply to SET NX PX
	// and a retry its own key refuses. The lease then stands unused until
	// its TTL runs out.
	NoLeaseWasted Property = "no-lease-wasted"
)

// AllProperties is every property, in the order judgements are listed.
func AllProperties() []Property {
	return []Property{MutualExclusion, ResourceSafety, NoForeignRelease, DeadlockFreedom, NoLeaseWasted}
}

// DefaultProperties are the properties judged without lab.json: all but
// the opt-in no-lease-wasted, which every textbook lock fails under lost
// replies.
func DefaultProperties() []Property {
	return []Property{MutualExclusion, ResourceSafety, NoForeignRelease, DeadlockFreedom}
}

// Bound is how far the adversary searches: Clients clients (2 or 3), up to
// Faults faults per schedule, schedules of at most Depth moves (steps and
// faults). MaxSchedules is the most complete schedules a search may count:
// a bound that allows more is refused by that number, never by time.
type Bound struct {
	Clients      int `json:"clients"`
	Faults       int `json:"faults"`
	Depth        int `json:"depth"`
	MaxSchedules int `json:"max_schedules"`
}

// MaxSchedules is the largest max_schedules lab.json may ask for: about
// a minute of searching on one core.
const MaxSchedules = 1_000_000

// DefaultBound is the bound without lab.json: 2 clients, up to 2 faults,
// depth 12, at most 200 000 schedules.
func DefaultBound() Bound { return Bound{Clients: 2, Faults: 2, Depth: 12, MaxSchedules: 200_000} }

// Policy is what lab.json says: the lease, the client's retries, the
// threat model (Faults), the bound and the properties judged. Durations
// are story time on the embedded server's clock.
type Policy struct {
	TTL        time.Duration
	Retries    int           // acquires tried again after a refusal
	RetryDelay time.Duration // the clock moves on by this much before each retry
	// Work is how long the holder works between its grant and its write
	// (work_ms); 0 for work that takes no time. The clock runs through
	// it, so a TTL shorter than the work lapses under a working holder
	// unless something renews it.
	Work time.Duration
	// Watchdog is the renewal period of a watchdog (watchdog_ms); 0 for
	// none. With Work and an extend, the holder's work runs in stretches
	// of this period, each followed by the extend: a renewal, a move of
	// its own that the adversary schedules like any step. Without a
	// watchdog, or without work, a lock with an extend runs it once,
	// before its write.
	Watchdog time.Duration
	// RetryRelease (retry_release) sends a release again when its reply
	// was lost, as a client library retries a command that timed out,
	// after RetryDelay like an acquire's retry, until a reply is heard.
	// Off by default: the first lost reply ends the release, the key left
	// to its TTL.
	RetryRelease bool
	Faults       []Fault
	Bound        Bound
	Properties   []Property
}

// DefaultPolicy is the policy without lab.json: a 30 s TTL, no retries
// (200 ms apart when asked for), no watchdog, every fault in scope, the
// default bound, every property judged but the opt-in no-lease-wasted.
func DefaultPolicy() Policy {
	return Policy{TTL: 30 * time.Second, RetryDelay: 200 * time.Millisecond,
		Faults: AllFaults(), Bound: DefaultBound(), Properties: DefaultProperties()}
}

// Has reports whether f is in the threat model.
func (p Policy) Has(f Fault) bool { return slices.Contains(p.Faults, f) }

// policyJSON is lab.json's shape; every field is optional.
type policyJSON struct {
	TTLMS        *int64     `json:"ttl_ms,omitempty"`
	Retries      *int       `json:"retries,omitempty"`
	RetryDelayMS *int64     `json:"retry_delay_ms,omitempty"`
	WorkMS       *int64     `json:"work_ms,omitempty"`
	WatchdogMS   *int64     `json:"watchdog_ms,omitempty"`
	RetryRelease *bool      `json:"retry_release,omitempty"`
	Faults       []Fault    `json:"faults"`
	Bound        *Bound     `json:"bound,omitempty"`
	Properties   []Property `json:"properties,omitempty"`
}

// ParsePolicy reads lab.json: fields left out take DefaultPolicy's values
// ("faults": [] means no fault in scope; a bound's zero fields take the
// default bound's). Errors name the field: an unknown fault or property, a
// TTL under 1 ms, 2-3 clients, 0-3 faults, depth 1-40, max_schedules up
// to MaxSchedules, no property at all.
func ParsePolicy(data []byte) (Policy, error) {
	p := DefaultPolicy()
	var j policyJSON
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return p, policyJSONError(data, err)
	}
	if j.TTLMS != nil {
		p.TTL = time.Duration(*j.TTLMS) * time.Millisecond
	}
	if j.Retries != nil {
		p.Retries = *j.Retries
	}
	if j.RetryDelayMS != nil {
		p.RetryDelay = time.Duration(*j.RetryDelayMS) * time.Millisecond
	}
	if j.WorkMS != nil {
		p.Work = time.Duration(*j.WorkMS) * time.Millisecond
	}
	if j.WatchdogMS != nil {
		p.Watchdog = time.Duration(*j.WatchdogMS) * time.Millisecond
	}
	if j.RetryRelease != nil {
		p.RetryRelease = *j.RetryRelease
	}
	if j.Faults != nil {
		p.Faults = j.Faults
	}
	if j.Bound != nil {
		d := DefaultBound()
		b := *j.Bound
		if b.Clients == 0 {
			b.Clients = d.Clients
		}
		if b.Depth == 0 {
			b.Depth = d.Depth
		}
		if b.MaxSchedules == 0 {
			b.MaxSchedules = d.MaxSchedules
		}
		p.Bound = b
	}
	if j.Properties != nil {
		p.Properties = j.Properties
	}
	return p, p.Check()
}

// policyFields are lab.json's fields, as its error for an unknown one
// lists them.
const policyFields = "ttl_ms, retries, retry_delay_ms, work_ms, watchdog_ms, retry_release, faults, bound (clients, faults, depth, max_schedules), properties"

// policyJSONError is a decoding error of lab.json in the words of the
// file: the field and what it takes, or where the JSON stops reading;
// never the decoder's names for Go types.
func policyJSONError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line := 1 + strings.Count(string(data[:min(int(syn.Offset), len(data))]), "\n")
		return fmt.Errorf("lab.json: not valid JSON at line %d: %s", line, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("lab.json: empty or cut short: give an object, {} for the default policy")
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return fmt.Errorf("lab.json: must be an object of fields ({\"ttl_ms\": 30000, ...}), not %s", jsonWords(typ.Value))
		}
		want := "a whole number"
		switch field {
		case "retry_release":
			want = "true or false"
		case "faults":
			want = "a list of fault names (known: " + joinNames(AllFaults()) + ")"
		case "properties":
			want = "a list of property names (known: " + joinNames(AllProperties()) + ")"
		case "bound":
			want = `an object ({"clients": 2, "faults": 2, "depth": 12, "max_schedules": 200000})`
		}
		return fmt.Errorf("lab.json: %s must be %s, not %s", field, want, jsonWords(typ.Value))
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Errorf("lab.json: unknown field %s (known: %s)", name, policyFields)
	}
	return fmt.Errorf("lab.json: %s", strings.TrimPrefix(msg, "json: "))
}

// jsonWords names a JSON value's kind as the decoder reports it:
// "a string", "a number".
func jsonWords(v string) string {
	switch {
	case v == "string":
		return "a string"
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "bool":
		return "true or false"
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	case v == "number":
		return "a number"
	}
	return v
}

// MaxDuration is the longest TTL, retry delay, work or watchdog period a
// policy may give: a day, 86400000 ms, eight digits as the lab screen's
// fields show it.
const MaxDuration = 24 * time.Hour

// Check reports the first thing wrong with the policy, nil if none.
func (p Policy) Check() error {
	switch {
	case p.TTL < time.Millisecond:
		return errors.New("lab.json: ttl_ms must be at least 1")
	case p.Retries < 0 || p.Retries > 3:
		return errors.New("lab.json: retries must be 0 to 3")
	case p.TTL > MaxDuration:
		return errors.New("lab.json: ttl_ms must be at most 86400000 (a day)")
	case p.RetryDelay < 0 || p.Watchdog < 0 || p.Work < 0:
		return errors.New("lab.json: retry_delay_ms, work_ms and watchdog_ms cannot be negative")
	case p.RetryDelay > MaxDuration || p.Watchdog > MaxDuration || p.Work > MaxDuration:
		return errors.New("lab.json: retry_delay_ms, work_ms and watchdog_ms must be at most 86400000 (a day)")
	case p.Bound.Clients < 2 || p.Bound.Clients > 3:
		return errors.New("lab.json: bound.clients must be 2 or 3")
	case p.Bound.Faults < 0 || p.Bound.Faults > 3:
		return errors.New("lab.json: bound.faults must be 0 to 3")
	case p.Bound.Depth < 1 || p.Bound.Depth > 40:
		return errors.New("lab.json: bound.depth must be 1 to 40")
	case p.Bound.MaxSchedules < 1 || p.Bound.MaxSchedules > MaxSchedules:
		return fmt.Errorf("lab.json: bound.max_schedules must be 1 to %d", MaxSchedules)
	case len(p.Properties) == 0:
		// a search that judges nothing would pass any lock
		return fmt.Errorf("lab.json: properties must name at least one (known: %s)", joinNames(AllProperties()))
	}
	for _, f := range p.Faults {
		if !slices.Contains(AllFaults(), f) {
			return fmt.Errorf("lab.json: unknown fault %q (known: %s)", f, joinNames(AllFaults()))
		}
	}
	for _, pr := range p.Properties {
		if !slices.Contains(AllProperties(), pr) {
			return fmt.Errorf("lab.json: unknown property %q (known: %s)", pr, joinNames(AllProperties()))
		}
	}
	return nil
}

// MarshalJSON writes the policy as lab.json.
func (p Policy) MarshalJSON() ([]byte, error) {
	ttl, delay, wd, work := p.TTL.Milliseconds(), p.RetryDelay.Milliseconds(), p.Watchdog.Milliseconds(), p.Work.Milliseconds()
	b := p.Bound
	faults := p.Faults
	if faults == nil {
		faults = []Fault{}
	}
	var workMS *int64
	if work > 0 {
		workMS = &work // left out when 0, so a lab.json written before work_ms reads the same
	}
	var retryRelease *bool
	if p.RetryRelease {
		retryRelease = &p.RetryRelease // left out when off, as work_ms
	}
	return json.MarshalIndent(policyJSON{TTLMS: &ttl, Retries: &p.Retries, RetryDelayMS: &delay, WorkMS: workMS, WatchdogMS: &wd,
		RetryRelease: retryRelease, Faults: faults, Bound: &b, Properties: p.Properties}, "", "  ")
}

func joinNames[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// ErrNoAcquire is Load's error for a directory with no acquire.lua or
// acquire.redis: a usage error.
var ErrNoAcquire = errors.New("no acquire.lua or acquire.redis")

// Load reads a lab directory: acquire.lua or acquire.redis (required),
// release.lua or release.redis (required), extend.lua or extend.redis
// (optional), lab.json (optional: DefaultPolicy without it), each through
// ReadLabFile. A part given in both languages is an error. Errors wrap
// ErrNoAcquire, fs errors (fs.ErrNotExist for a missing directory), are a
// *RefusedFile, or name the file.
func Load(dir string) (*Lock, error) {
	l, err := LoadParts(dir)
	if err != nil {
		return nil, err
	}
	f, err := ReadLabFile(dir, "lab.json")
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		if l.Policy, err = ParsePolicy([]byte(f.Text)); err != nil {
			return nil, err
		}
		if f.BOM {
			l.Read = append(l.Read, bomNote("", "lab.json"))
		}
	}
	return l, nil
}

// bomNote is the note that a file's byte order mark was dropped.
func bomNote(part, file string) Note {
	return Note{Part: part, File: file, Text: "the file starts with a byte order mark (an editor's U+FEFF), which the lab dropped: Redis would read it as part of the first command"}
}

// LoadParts reads a lab directory's parts as Load does, and leaves its
// lab.json unread: the lock has DefaultPolicy, for a grade whose policy
// someone else pins.
func LoadParts(dir string) (*Lock, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	l := &Lock{Policy: DefaultPolicy()}
	for _, name := range []string{PartAcquire, PartRelease, PartExtend} {
		var found []Part
		for _, lang := range []Lang{Lua, Commands} {
			p := Part{Name: name, Lang: lang}
			f, err := ReadLabFile(dir, p.File())
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			p.Src = f.Text
			if f.BOM {
				l.Read = append(l.Read, bomNote(name, p.File()))
			}
			found = append(found, p)
		}
		switch {
		case len(found) > 1:
			return nil, fmt.Errorf("%s: both %s and %s: keep one", dir, found[0].File(), found[1].File())
		case len(found) == 0 && name == PartAcquire:
			return nil, fmt.Errorf("%s: %w", dir, ErrNoAcquire)
		case len(found) == 0 && name == PartRelease:
			return nil, fmt.Errorf("%s: no release.lua or release.redis", dir)
		case len(found) == 1:
			switch name {
			case PartAcquire:
				l.Acquire = found[0]
			case PartRelease:
				l.Release = found[0]
			default:
				l.Extend = found[0]
			}
		}
	}
	if l.Extend.Name == "" {
		l.Extend = Part{Name: PartExtend}
	}
	return l, nil
}

// Save writes the lock's parts and lab.json into dir, removing the other
// language's file of each part and an extend file when the lock has no
// extend, so Load reads back the same lock; and README.md (Readme) when
// dir has none. A missing dir is made, but only its last element, as
// -lab allows (CheckDir): a missing parent is refused, so a mistyped path
// is never made into a tree of directories.
func (l *Lock) Save(dir string) error {
	if err := os.Mkdir(dir, 0o755); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("saving the lock in %s: directory %s does not exist (locksim makes none)", dir, filepath.Dir(filepath.Clean(dir)))
	} else if err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if err := writeReadme(dir); err != nil {
		return err
	}
	for _, p := range []Part{l.Acquire, l.Release, l.Extend} {
		if p.Name == "" {
			p.Name = PartExtend // a lock built in code may leave an absent extend unnamed
		}
		for _, lang := range []Lang{Lua, Commands} {
			q := Part{Name: p.Name, Lang: lang}
			if lang == p.Lang && !p.Empty() {
				continue
			}
			if err := os.Remove(filepath.Join(dir, q.File())); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		if p.Empty() {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, p.File()), []byte(p.Src), 0o644); err != nil {
			return err
		}
	}
	data, err := l.Policy.MarshalJSON()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "lab.json"), append(data, '\n'), 0o644)
}

// Starter is the lock a new lab directory starts from: the course's
// acquire (SET NX PX, one atomic command) and a release written as GET
// then DEL, the two-step check the lab is there to break; no extend; the
// default policy.
func Starter() Lock {
	return Lock{
		Acquire: Part{Name: PartAcquire, Lang: Lua, Src: acquireSET},
		Release: Part{Name: PartRelease, Lang: Commands, Src: `# is the lock still ours? then delete it
GET {key}
if token: DEL {key}
`},
		Extend: Part{Name: PartExtend},
		Policy: DefaultPolicy(),
	}
}
