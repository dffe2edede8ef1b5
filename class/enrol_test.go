package class

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"locksim/sim/simtest"

	"github.com/alicebob/miniredis/v2"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// testRows are a school roster: Ada's row names her key, José's and the
// two Sam Lees' do not.
var testRows = []Enrolled{
	{Ref: "sis:S-1", Name: "Ada Lovelace", Line: 2, KeyID: "ada-key"},
	{Ref: "sis:S-2", Name: "José Martínez", Line: 3},
	{Ref: "sis:S-3", Name: "Alan Turing", Line: 4},
	{Ref: "sis:S-4", Name: "Sam Lee", Line: 5},
	{Ref: "sis:S-5", Name: "Sam Lee", Line: 6},
}

func names(ms []Member) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return strings.Join(out, "|")
}

func rowNames(rs []Enrolled) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return strings.Join(out, "|")
}

// TestTieAll: a key before a match by hand before a name; a match by
// hand moves a student their name ties elsewhere, and one to no row
// (NoRow) unties them, but neither moves a key's; a name of two rows, or
// of a row with a key, ties to none; a match by hand to a row the file no
// longer has counts for nothing.
func TestTieAll(t *testing.T) {
	ms := []Member{
		{ID: "prof", Name: "Ada Lovelace", Role: Instructor},
		{ID: "ada-key", Name: "ada", Role: Student, Row: "sis:S-3"},
		{ID: "web-1", Name: "JOSE\u0301 martínez", Role: Student},
		{ID: "web-2", Name: "Sam Lee", Role: Student},
		{ID: "web-3", Name: "Sam Lee", Role: Student, Row: "sis:S-5"},
		{ID: "web-4", Name: "Ada Lovelace", Role: Student},
		{ID: "web-5", Name: "Mallory", Role: Student, Row: "sis:S-9"},
		{ID: "web-6", Name: "Alan Turing", Role: Student, Row: "sis:S-2"},
		{ID: "web-7", Name: "José Martínez", Role: Student, Row: NoRow},
	}
	ties := TieAll(testRows, ms)
	for id, want := range map[string]string{"ada-key": "key 0", "web-1": "name 1", "web-3": "hand 4", "web-6": "hand 1"} {
		if got := string(ties.How[id]) + " " + strconv.Itoa(ties.Row[id]); got != want {
			t.Errorf("%s is tied %q, want %q", id, got, want)
		}
	}
	if got, want := names(ties.Unmatched), "Sam Lee|Ada Lovelace|Mallory|José Martínez"; got != want {
		t.Errorf("unmatched %q, want %q", got, want)
	}
	if got := names(ties.ByRow[1]); got != "JOSE\u0301 martínez|Alan Turing" {
		t.Errorf("José's row has %q", got)
	}
	if _, ok := ties.Row["prof"]; ok {
		t.Error("the instructor is tied to a row")
	}
	keyed := TieAll(testRows, []Member{{ID: "ada-key", Name: "Sam Lee", Role: Student, Row: NoRow}})
	if keyed.How["ada-key"] != TieKey || keyed.Row["ada-key"] != 0 {
		t.Errorf("a match to no row moved a key's tie: %q %d", keyed.How["ada-key"], keyed.Row["ada-key"])
	}
}

// storeKind is a class store, and how to open it again as a restarted
// server does (nil for one that keeps nothing past its process).
type storeKind struct {
	name  string
	open  func(t *testing.T) Hub
	again func(t *testing.T, old Hub) Hub
}

func storeKinds(t *testing.T) []storeKind {
	dir := t.TempDir()
	var miniURL, liveURL string
	return []storeKind{
		{name: "memory", open: func(*testing.T) Hub { return NewMemory(nil) }},
		{name: "disk", open: func(t *testing.T) Hub {
			h, err := OpenDir(dir, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			return h
		}, again: func(t *testing.T, old Hub) Hub {
			if err := old.Close(); err != nil {
				t.Fatal(err)
			}
			h, err := OpenDir(dir, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = h.Close() })
			return h
		}},
		{name: "miniredis", open: func(t *testing.T) Hub {
			simtest.QuickOnly(t)
			miniURL = "redis://" + miniredis.RunT(t).Addr()
			return redisHubNow(t, miniURL)
		}, again: func(t *testing.T, old Hub) Hub {
			_ = old.Close()
			return redisHubNow(t, miniURL)
		}},
		{name: "redis-server", open: func(t *testing.T) Hub {
			liveURL = simtest.StartRedis(t)
			return redisHubNow(t, liveURL)
		}, again: func(t *testing.T, old Hub) Hub {
			_ = old.Close()
			return redisHubNow(t, liveURL)
		}},
	}
}

// TestMatchByHand: on each store, the instructor matches a browser
// student (no key, a name of no row) to a roster row by hand in their
// part; the store keeps it (the roster's Row) while the student's seat
// goes on putting their row, a second server's instructor session hears
// it, the part lists who has not joined and who matches no row, a key's
// tie cannot be matched by hand, an undone match is gone; a student tied
// by name (one who typed a classmate's name) is matched to no row, the
// store keeps it, and then matched by hand to another row; and a store
// that persists keeps the matches past a restart; clear deletes them.
func TestMatchByHand(t *testing.T) {
	for _, k := range storeKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			a := k.open(t)
			info, err := a.Open(ctx, "teacher-key")
			if err != nil {
				t.Fatal(err)
			}
			prof := joinAs(t, a, info.Code, Instructor, "teacher-key", "Prof", 1)
			prof.p.Enrol(testRows)
			ada := joinAs(t, a, info.Code, Student, "ada-key", "ada", 2)
			jose := joinAs(t, a, info.Code, Student, "web-jose", "josé martínez", 3)
			eve := joinAs(t, a, info.Code, Student, "web-eve", "E.", 4)
			prof.hear("three students", func(s *session) bool { return len(s.p.Students()) == 3 })
			e, ok := prof.p.Enrolment()
			if !ok || names(e.Unmatched) != "E." || rowNames(e.Missing) != "Alan Turing|Sam Lee|Sam Lee" {
				t.Fatalf("before the match: %v, unmatched %q, missing %q", ok, names(e.Unmatched), rowNames(e.Missing))
			}
			if _, ok := ada.p.Enrolment(); ok {
				t.Error("a student's part has the school's roster")
			}
			if note, ok := prof.p.Matchable(ada.p.Seat().Member().ID); ok || !strings.Contains(note, "names their SSH key") {
				t.Errorf("Ada, tied by her key, is matchable: %q", note)
			}
			if note := prof.p.Match("web-eve", "sis:S-4"); note != "E. is roster line 5 (Sam Lee) in the class's grades" {
				t.Errorf("the match's note %q", note)
			}
			// the part has it at once, the store from the seat's goroutine
			if e, _ := prof.p.Enrolment(); names(e.Unmatched) != "" || rowNames(e.Missing) != "Alan Turing|Sam Lee" || e.How["web-eve"] != TieHand {
				t.Errorf("after the match: unmatched %q, missing %q", names(e.Unmatched), rowNames(e.Missing))
			}
			prof.hear("the store's match", func(s *session) bool { return rowOf(t, a, info.Code, "web-eve").Row == "sis:S-4" })
			// the student's own puts leave the match where it is
			eve.goTo(gcPause(2))
			eve.hear("eve's row put", func(*session) bool { return rowOf(t, a, info.Code, "web-eve").Pos.Step == 2 })
			if got := rowOf(t, a, info.Code, "web-eve").Row; got != "sis:S-4" {
				t.Fatalf("after eve's put the match is %q", got)
			}
			// a second session of the instructor (another server of the
			// class, for a Redis store) hears the match, and an undo
			b := a
			if k.name == "miniredis" || k.name == "redis-server" {
				b = redisHubNow(t, url0(t, a))
			}
			second := joinAs(t, b, info.Code, Instructor, "teacher-key", "Prof", 5)
			second.p.Enrol(testRows)
			second.hear("the match from the roster", func(s *session) bool {
				e, _ := s.p.Enrolment()
				return e.How["web-eve"] == TieHand
			})
			if note := prof.p.Match("web-eve", ""); note != "E. matches no roster row again" {
				t.Errorf("the undo's note %q", note)
			}
			second.hear("the undo", func(s *session) bool {
				e, _ := s.p.Enrolment()
				return names(e.Unmatched) == "E."
			})
			if got := prof.p.Match("web-eve", "sis:S-2"); !strings.Contains(got, "roster line 3 (José Martínez)") {
				t.Errorf("a second match's note %q", got)
			}
			second.hear("the second match", func(s *session) bool {
				e, _ := s.p.Enrolment()
				return e.Row["web-eve"] == 1 && e.How["web-eve"] == TieHand
			})
			if got := prof.p.Match("web-eve", "sis:S-404"); got != "" {
				t.Errorf("a match to no row: %q", got)
			}
			for _, id := range []string{"teacher-key", "web-nobody"} {
				if got := prof.p.Match(id, "sis:S-3"); got != "" {
					t.Errorf("a match of %s, no student of the class: %q", id, got)
				}
			}
			// José's name ties him to line 3: the instructor unties him
			// (it might be a classmate's name), then moves him
			if note, ok := prof.p.Matchable("web-jose"); !ok {
				t.Errorf("José, tied by his name, is not matchable: %q", note)
			}
			if note := prof.p.Match("web-jose", NoRow); note != "josé martínez matches no roster row, not line 3 (José Martínez) by name" {
				t.Errorf("José's match to no row: %q", note)
			}
			if e, _ := prof.p.Enrolment(); names(e.Unmatched) != "josé martínez" || len(e.ByRow[1]) != 1 {
				t.Errorf("after José's match to no row: unmatched %q, line 3 has %q", names(e.Unmatched), names(e.ByRow[1]))
			}
			second.hear("José of no row", func(s *session) bool {
				e, _ := s.p.Enrolment()
				return names(e.Unmatched) == "josé martínez"
			})
			if got := rowOf(t, a, info.Code, "web-jose").Row; got != NoRow {
				t.Errorf("the store keeps José's match as %q, want %q", got, NoRow)
			}
			if got := prof.p.Match("web-jose", NoRow); got != "" {
				t.Errorf("a second match to no row: %q", got)
			}
			if got := prof.p.Match("web-jose", ""); got != "josé martínez is roster line 3 (José Martínez) by name again" {
				t.Errorf("José's match to no row undone: %q", got)
			}
			if e, _ := prof.p.Enrolment(); e.How["web-jose"] != TieName {
				t.Errorf("with the match undone José is tied %q, want by name", e.How["web-jose"])
			}
			if got := prof.p.Match("web-jose", "sis:S-3"); got != "josé martínez is roster line 4 (Alan Turing) in the class's grades" {
				t.Errorf("José moved by hand: %q", got)
			}
			second.hear("José by hand", func(s *session) bool {
				e, _ := s.p.Enrolment()
				return e.How["web-jose"] == TieHand && e.Row["web-jose"] == 2
			})
			for _, s := range []*session{second, eve, jose, ada, prof} {
				s.leave()
			}
			if k.again != nil {
				a = k.again(t, a)
				if got := rowOf(t, a, info.Code, "web-eve").Row; got != "sis:S-2" {
					t.Fatalf("after a restart the match is %q", got)
				}
				if got := rowOf(t, a, info.Code, "web-jose").Row; got != "sis:S-3" {
					t.Fatalf("after a restart José's match is %q", got)
				}
				if k.name == "disk" {
					_, ms, err := ReadSaved(dirOf(t, a), info.Code)
					if err != nil || !strings.Contains(matchedRows(ms), "web-eve=sis:S-2") {
						t.Fatalf("the saved class: %q, %v", matchedRows(ms), err)
					}
				}
			}
			if err := a.ClearRoster(ctx, info.Code); err != nil {
				t.Fatal(err)
			}
			if err := a.Put(ctx, info.Code, Member{ID: "web-eve", Name: "E.", Role: Student}); err != nil {
				t.Fatal(err)
			}
			if got := rowOf(t, a, info.Code, "web-eve").Row; got != "" {
				t.Fatalf("after clear the match is %q", got)
			}
		})
	}
}

func matchedRows(ms []Member) string {
	var out []string
	for _, m := range ms {
		if m.Row != "" {
			out = append(out, m.ID+"="+m.Row)
		}
	}
	return strings.Join(out, " ")
}

// rowOf is member id's row in the store's roster.
func rowOf(t *testing.T, h Hub, code, id string) Member {
	t.Helper()
	ms, err := h.Roster(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	return Member{}
}

// url0 is the URL a Redis hub of the tests connects to.
func url0(t *testing.T, h Hub) string {
	t.Helper()
	return "redis://" + h.(*Redis).c.Options().Addr
}

// dirOf is the directory a disk hub keeps its classes in.
func dirOf(t *testing.T, h Hub) string {
	t.Helper()
	return filepath.Clean(h.(*Memory).dir)
}

// TestFoldNameASCII: the fold's short way for ASCII names is the long
// way's answer (Unicode NFC and case folding), every printable ASCII byte
// in both cases.
func TestFoldNameASCII(t *testing.T) {
	var all []byte
	for c := byte(' '); c < 0x7f; c++ {
		all = append(all, c)
	}
	for _, name := range []string{string(all), "  Ada   LOVELACE ", "O'Brien-Smith, Jr."} {
		long := norm.NFC.String(cases.Fold().String(norm.NFC.String(strings.Join(strings.Fields(name), " "))))
		if got := FoldName(name); got != long {
			t.Errorf("FoldName(%q) = %q, want %q", name, got, long)
		}
	}
	if FoldName("JOSE\u0301 Martínez") != FoldName("josé martínez") || FoldName("Straße") != FoldName("STRASSE") {
		t.Error("the fold of names that are not ASCII")
	}
}

// BenchmarkTieAll ties a class of sixty students, none of their names
// ASCII, to a roster of sixty: the instructor's class view does it once
// per change of the class.
func BenchmarkTieAll(b *testing.B) {
	var rows []Enrolled
	var ms []Member
	for i := range 60 {
		rows = append(rows, Enrolled{Ref: "sis:" + strconv.Itoa(i), Name: "Étudiant Númber " + strconv.Itoa(i)})
		ms = append(ms, Member{ID: "web-" + strconv.Itoa(i), Name: "étudiant númber " + strconv.Itoa(i), Role: Student})
	}
	for b.Loop() {
		if t := TieAll(rows, ms); len(t.Unmatched) != 0 {
			b.Fatalf("unmatched %d", len(t.Unmatched))
		}
	}
}

// flakyMatch is flaky with matches by hand that fail while it is down;
// failed gets a token for each refused.
type flakyMatch struct {
	*flaky
	failed chan struct{}
}

func (f *flakyMatch) Match(ctx context.Context, code, id, ref string) error {
	if err := f.fail(code); err != nil {
		signal(f.failed)
		return err
	}
	return f.flaky.Match(ctx, code, id, ref)
}

// TestMatchKeptThroughAnOutage: a match by hand made while the class
// store does not answer is on the instructor's screen at once, kept by
// the seat while the store refuses it, and in the store once it answers
// again, with no key pressed.
func TestMatchKeptThroughAnOutage(t *testing.T) {
	// owns its store, links and logs; its seat beats when it ticks it
	t.Parallel()
	ctx := context.Background()
	store := NewMemory(nil)
	link := &flakyMatch{flaky: newFlaky(store), failed: make(chan struct{}, 1)}
	info, err := link.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	prof := joinBeating(t, link, info.Code, Instructor, "teacher", "Prof", 1)
	prof.p.Enrol(testRows)
	joinAs(t, store, info.Code, Student, "web-eve", "E.", 2)
	prof.hear("eve's row", func(s *session) bool { return len(s.p.Students()) == 1 })

	link.down.Store(true)
	prof.tick()
	prof.hear("the store's outage", func(s *session) bool { return s.p.OutOfTouch() })
	if note := prof.p.Match("web-eve", "sis:S-3"); note != "E. is roster line 4 (Alan Turing) in the class's grades" {
		t.Fatalf("the match's note %q", note)
	}
	if e, _ := prof.p.Enrolment(); e.How["web-eve"] != TieHand {
		t.Errorf("the match is not on the instructor's screen during the outage: %+v", e.Ties)
	}
	waitToken(t, link.failed, "the store refusing the match")
	if got := rowOf(t, store, info.Code, "web-eve").Row; got != "" {
		t.Fatalf("a store that refused the match has %q", got)
	}
	// the store returns: the seat's next beat finds it back, says so, and
	// puts the match
	link.down.Store(false)
	prof.tick()
	prof.hear("the store back", func(s *session) bool { return !s.p.OutOfTouch() })
	if !slices.Contains(prof.notes, BackNote) {
		t.Errorf("the instructor was not told the class is back: %q", prof.notes)
	}
	prof.hear("the match in the store", func(s *session) bool { return rowOf(t, store, info.Code, "web-eve").Row == "sis:S-3" })
}

// TestWatchKeepsEveryMatch: two students matched by hand before a watcher
// reads are two events, not one replacing the other (a seat flushes its
// matches from a map, in any order, and a watcher on another server must
// still hear both).
func TestWatchKeepsEveryMatch(t *testing.T) {
	w := newWatch(nil)
	w.put(Event{Kind: KindMatch, Match: &Matched{ID: "web-jose", Ref: "sis:S-5"}})
	w.put(Event{Kind: KindMatch, Match: &Matched{ID: "web-imp", Ref: "sis:S-4"}})
	w.put(Event{Kind: KindMatch, Match: &Matched{ID: "web-imp", Ref: NoRow}})
	evs, err := w.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range evs {
		got[e.Match.ID] = e.Match.Ref
	}
	if len(evs) != 2 || got["web-jose"] != "sis:S-5" || got["web-imp"] != NoRow {
		t.Fatalf("the watch delivered %d matches %v, want José's and the impostor's latest", len(evs), got)
	}
}
