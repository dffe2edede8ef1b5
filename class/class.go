// Package class is the classroom's shared state, with no drawing: the
// classes instructors open (each known by a short code, the SSH user name
// its students join with), the roster of who is connected and where each
// stands, the instructor's place that followers replay to, each member's
// answers per question and the poll of each question, the class report
// as CSV, and the class's protocol as each session's Part of it (follow,
// hold, the leader's step, the poll's reveal, presence), which a screen
// draws and a test drives with no screen.
//
// A Hub keeps it in memory (one server) or in a Redis or Valkey server
// (several servers serving one class), under Prefix, with follow and
// roster events over that server's pub/sub. The package never imports
// the screen (tui, views, lipgloss, Bubble Tea).
package class

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"sort"
	"time"

	"locksim/play"
	"locksim/scenes/progress"
	"locksim/sim"
)

// Prefix is where a Redis hub keeps everything: each class's record, its
// instructor's place and its roster are keys under Prefix + code, and its
// events go on the channel Prefix + code. It is inside locksim's own
// namespace and of no run's form, so a run's sweep never touches it.
const Prefix = sim.ClassPrefix

// TTL is how long a class outlives its last change unless its hub is told
// otherwise (-class-retention): every write sets it again, so a class in
// use lasts until it is closed, and one closed or left leaves nothing
// behind for longer than this.
const TTL = 30 * 24 * time.Hour

// Refresh is how often a seat puts its row again while nothing changes.
const Refresh = 30 * time.Second

// Beat is how often a seat says in the hub that its session is there (a
// heartbeat, apart from its row, and published to no one), so the roster
// tells a session on a server that died (its beats stopped) from one whose
// learner is only reading.
const Beat = time.Second

// Gone is how long after its last beat a session counts as offline.
const Gone = 5 * Beat

// Role is what a member of a class does there.
type Role string

const (
	// Student works in a sandbox of their own and may follow.
	Student Role = "student"
	// Instructor leads the class: the roster, the poll and the notes.
	Instructor Role = "instructor"
	// Projector follows the instructor exactly and shows only the scene.
	Projector Role = "projector"
)

// ErrNoClass is the answer for a code that names no class.
var ErrNoClass = errors.New("no class has that code")

// ErrClassClosed is Sit's answer in a class its instructor has closed.
var ErrClassClosed = errors.New("the class is closed")

// Info is one open class.
type Info struct {
	Code string `json:"code"`
	// Name is the name its instructor opened it under (one instructor
	// leads one class of each name).
	Name string `json:"name,omitempty"`
	// Lead is the id of the instructor who opened it: only that key
	// drives it, sees its roster or writes its report.
	Lead   string    `json:"lead"`
	Opened time.Time `json:"opened"`
	// Closed is when its instructor closed it; zero while it is open. A
	// closed class takes no one, and its report lasts until its retention
	// ends.
	Closed time.Time `json:"closed,omitzero"`
}

// Member is one session's row in the roster, as its seat last put it.
type Member struct {
	// V is the row's form, RowVersion for a row this locksim wrote, 0 for
	// one an older locksim wrote (migrated as it is read).
	V int `json:"v,omitempty"`
	// ID tells students apart: a hash of the public key the session
	// authenticated with, or a random id for a keyless one.
	ID   string `json:"id"`
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Pos is where the member stands (see play.Position).
	Pos play.Position `json:"pos"`
	// Actual is what the member's own run answered at the prediction
	// point of Pos's story, once it ran (Revealed); -1 when its replies
	// made none of the choices true.
	Actual   int  `json:"actual"`
	Revealed bool `json:"revealed,omitempty"`
	// Following is set while the member replays to the instructor's place.
	Following bool `json:"following,omitempty"`
	// OnContents is set while the member is on the course's contents (or
	// has opened no scene yet): Pos is then no story they are in.
	OnContents bool `json:"contents,omitempty"`
	Online     bool `json:"online"`
	// Seen is when the row was last put, or, in a Roster, the session's
	// last beat if that is later (see Beat).
	Seen time.Time `json:"seen"`
	// Prog is the member's progress (scenes finished, predictions, quiz
	// scores), for the class summary; its place is in Pos.
	Prog progress.Progress `json:"prog"`
	// StepAt is when the member's place last changed (another scene,
	// other settings, another step, or to or from the contents), by the
	// seat's clock: the roster's time on step.
	StepAt time.Time `json:"stepAt,omitzero"`
	// KeyAt is when the session's last key came (Seat.Key), by the seat's
	// clock, to within KeyGrain: the roster's time since the last key.
	KeyAt time.Time `json:"keyAt,omitzero"`
	// Spent is the member's time in the class, every session of theirs
	// summed, up to the row's last put (within Refresh of now).
	Spent time.Duration `json:"spent,omitempty"`
	// Answers are the member's answers to every question the class asked
	// them, by Question.Key: kept when the member goes on to another
	// question, another scene, or leaves.
	Answers map[string]Answer `json:"answers,omitempty"`
	// Row is the school roster's row (Enrolled.Ref) the instructor
	// matched the member to by hand, "" for none: Hub.Roster fills it from
	// the class's matches (Hub.Match); a seat never puts it.
	Row string `json:"row,omitempty"`
	// Watches are the times an instructor watched the member's screen
	// (watches.go), oldest first.
	Watches []Watched `json:"watches,omitempty"`
}

// KeyGrain is how stale a row's KeyAt may be: a key puts the row at once
// only when the row in the hub says the last key came longer ago, so a
// student typing fast is not a write per key.
const KeyGrain = 5 * time.Second

// samePlace reports that two rows stand at one place: the scene, its
// settings, the step, and on the contents or not.
func samePlace(a, b Member) bool {
	return a.OnContents == b.OnContents && a.Pos.Scene == b.Pos.Scene && a.Pos.Step == b.Pos.Step &&
		sameSettings(a.Pos.Settings, b.Pos.Settings)
}

// Here reports that the member's session is connected at now: online,
// and put or beating within Gone.
func (m Member) Here(now time.Time) bool {
	return m.Online && now.Sub(m.Seen) < Gone
}

// Lead is the class's leading place, which followers replay to. It lives
// in the hub with a version: every session of the instructor's key moves
// it by a compare-and-set on the version it last saw (Hub.SwapLead), so
// two sessions of one instructor never lead two places.
type Lead struct {
	Pos play.Position `json:"pos"`
	// Follow is set while the instructor asks the class to follow.
	Follow bool `json:"follow"`
	// Version is the hub's count of the places put, 1 for the first; a
	// move is made from the place of Version it saw.
	Version int64 `json:"version"`
	// Seq orders places, so an older one arriving late never replaces a
	// newer: the hub sets it to Version.
	Seq int64 `json:"seq"`
	// By names the seat that put it (Seat.ID), so a session tells its own
	// move's echo from another session's move.
	By string `json:"by,omitempty"`
	// Hold is set while the instructor holds the class: a follower cannot
	// leave the instructor's place (follow mode, or to the contents)
	// until it is released. It is class state, in the hub beside the
	// place, so every server of the class holds its followers alike.
	Hold bool `json:"hold,omitempty"`
	// At is when the class came to this place (scene, settings and
	// step), by the clock of the instructor's session that first put it:
	// an open question's age, the same in every session of the
	// instructor's, a second server's or a reconnect's. Zero from a
	// locksim that did not keep it (each session then counts from when
	// it saw the place).
	At time.Time `json:"at,omitzero"`
	// Contents is set while the instructor is on the course's contents
	// (or has opened no scene yet): the class is led to no scene, and Pos
	// is the zero Position, which no locksim opens (an older one, which
	// knows no Contents, stays where it is). Followers stay at the last
	// place led; the instructor's other sessions go to the contents too.
	// Unset in a place an older locksim put.
	Contents bool `json:"contents,omitempty"`
}

// Kind is what an Event says.
type Kind string

const (
	// KindLead: the instructor's place changed (Event.Lead).
	KindLead Kind = "lead"
	// KindMember: a roster row changed (Event.Member).
	KindMember Kind = "member"
	// KindStore: the class store became unreachable to this seat, or
	// came back (Event.Store). It is the seat's own news, never published.
	KindStore Kind = "store"
	// KindMatch: the instructor matched a student to a roster row by
	// hand, or undid it (Event.Match).
	KindMatch Kind = "match"
)

// Event is one change of a class, as a Watch delivers it.
type Event struct {
	Kind   Kind    `json:"kind"`
	Lead   *Lead   `json:"lead,omitempty"`
	Member *Member `json:"member,omitempty"`
	// Lost is set on the place that won when the watching seat's own move
	// lost the race to it: the seat's session says so and shows Lead.
	Lost bool `json:"lost,omitempty"`
	// Store is the class store's state as the seat's writes last found
	// it (KindStore).
	Store *Store `json:"store,omitempty"`
	// Match is a match by hand (KindMatch).
	Match *Matched `json:"match,omitempty"`
}

// Hub keeps the classes: in memory (NewMemory) or in a Redis server
// (NewRedis). Every method is safe for use by several goroutines; its
// errors are one line.
type Hub interface {
	// Open is OpenNamed with no name.
	Open(ctx context.Context, lead string) (Info, error)
	// OpenNamed opens the class named name led by instructor id: the one
	// of that name id already leads, while it is open (so an instructor
	// who reconnects, to this server or another, next week or after a
	// restart, comes back to the same class), else a new one under a
	// fresh code.
	OpenNamed(ctx context.Context, lead, name string) (Info, error)
	// FindNamed is the open class named name led by instructor lead, the
	// one OpenNamed would come back to, or ErrNoClass; it opens none.
	FindNamed(ctx context.Context, lead, name string) (Info, error)
	// CloseClass closes class code: it takes no one from now on, and the
	// next Open of its name opens a new one.
	CloseClass(ctx context.Context, code string) error
	// ClearRoster deletes every row of class code (and their beats).
	ClearRoster(ctx context.Context, code string) error
	// Find is the class with code, or ErrNoClass.
	Find(ctx context.Context, code string) (Info, error)
	// Put records m as its row in class code and tells the watchers.
	Put(ctx context.Context, code string, m Member) error
	// SwapLead puts l as the class's leading place, with Version and Seq
	// prev+1, if the place there is still of version prev, or there is
	// none (a class's first, or one whose key expired), and tells the
	// watchers; won is false when another move came first,
	// and cur is the place there now, the new one or the winner's.
	SwapLead(ctx context.Context, code string, prev int64, l Lead) (cur Lead, won bool, err error)
	// Roster is every row of class code, online or not, by name, each
	// with its session's last beat (a row whose beats stopped Gone ago is
	// offline, one that beats is online) and its match by hand (Row).
	Roster(ctx context.Context, code string) ([]Member, error)
	// Beat says member id of role is there at at, in class code; the zero
	// time takes its beat away (it left).
	Beat(ctx context.Context, code, id string, role Role, at time.Time) error
	// LastBeat is when member id of role last beat in class code, the zero
	// time for never (or gone).
	LastBeat(ctx context.Context, code, id string, role Role) (time.Time, error)
	// Match keeps the instructor's match by hand of member id to the
	// school roster's row ref ("" undoes it) in class code, and tells the
	// watchers (KindMatch); ClearRoster deletes the matches with the rows.
	Match(ctx context.Context, code, id, ref string) error
	// LeadOf is the instructor's place; ok is false before the first.
	LeadOf(ctx context.Context, code string) (l Lead, ok bool, err error)
	// Leading is the place of every open class of the hub whose
	// instructor beats now (a beat of role Instructor within Gone, by the
	// hub's clock), by code, whichever server their sessions are on: a
	// class closed, or whose instructor's sessions left or stopped
	// beating Gone ago, is not in it, nor one with no place yet. A
	// session that leaves (its beat taken away) leaves the class in it
	// until Gone after its last beat: another session of the
	// instructor's, which beats in the same field, may go on. It reads
	// an index the instructors' beats keep, never every class in the
	// hub: its cost grows with the classes led at once, and past
	// MaxLeading of them it answers ErrTooManyLeading.
	Leading(ctx context.Context) (map[string]Lead, error)
	// Watch delivers the class's changes from now on, the instructor's
	// current place first, until it is closed or ctx ends.
	Watch(ctx context.Context, code string) (*Watch, error)
	// Close releases the hub's connections.
	Close() error
}

// MaxLeading is the most classes Hub.Leading reads: a store with more
// classes led at once answers ErrTooManyLeading, which a caller takes as
// a store it cannot read (Held then holds every scene that asks).
const MaxLeading = 1000

// ErrTooManyLeading is Hub.Leading's answer past MaxLeading classes.
var ErrTooManyLeading = errors.New("more classes are led at once than are read")

// codeLetters are what a class code is made of: lower case (an SSH user
// name is typed as given) and none that reads as another (0/o, 1/l/i).
const codeLetters = "abcdefghjkmnpqrstuvwxyz23456789"

// CodeLen is the length of a class code: 31⁵, about 29 million codes.
const CodeLen = 5

// newCode draws a class code from crypto/rand.
func newCode() string {
	var b [CodeLen]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = codeLetters[int(b[i])%len(codeLetters)]
	}
	return string(b[:])
}

// ValidCode reports that s has a class code's form, so a user name that
// is not one is never looked up.
func ValidCode(s string) bool {
	if len(s) != CodeLen {
		return false
	}
	for i := range len(s) {
		if !containsByte(codeLetters, s[i]) {
			return false
		}
	}
	return true
}

func containsByte(s string, c byte) bool {
	for i := range len(s) {
		if s[i] == c {
			return true
		}
	}
	return false
}

// beatField names a member's beat: the instructor and the projector are
// one key, one row, but two sessions whose presence differs.
func beatField(id string, role Role) string { return string(role) + ":" + id }

// withBeats puts each row's last beat in it, at now: Seen becomes the beat
// when later, and a row with a beat is online while it beats.
func withBeats(ms []Member, beats map[string]time.Time, now time.Time) {
	for i := range ms {
		b, ok := beats[beatField(ms[i].ID, ms[i].Role)]
		if !ok {
			continue
		}
		if b.After(ms[i].Seen) {
			ms[i].Seen = b
		}
		ms[i].Online = now.Sub(b) < Gone
	}
}

// sortRoster orders rows by name, then id, so every screen lists a class
// the same way.
func sortRoster(ms []Member) {
	// sort.Slice, not slices.SortFunc: see Asked's sort (answers.go).
	sort.Slice(ms, func(i, j int) bool {
		a, b := &ms[i], &ms[j]
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) < 0
	})
}
