package gradebook

import (
	"bytes"
	"context"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/class"
	"locksim/scenes/progress"
)

var update = flag.Bool("update", false, "rewrite the expected files of testdata")

// testClass is a class of joined, missing and unmatched students, and its
// roster: Ada joined by the key her row names (under another name), José
// from a browser and from a key the roster does not know (his name, in
// other case and another Unicode form, matches one row), Eve from a
// browser; Alan and the two Sam Lees never joined (a student naming
// themselves Sam Lee matches two rows, so none); Mallory's key and name
// are no row's; a browser naming itself Ada Lovelace is refused her row,
// which is her key's alone; a browser naming itself "Sam (laptop)" is
// matched by the instructor's hand to the second Sam Lee's row; the
// instructor is nobody's row. The rows are the class store's roster, as
// the report reads it, the match by hand kept in the store.
func testClass(t *testing.T) (*Roster, []class.Member) {
	t.Helper()
	adaKey, _, adaID := testKey(t, 1)
	_, _, joseID := testKey(t, 3)
	_, _, malloryID := testKey(t, 4)
	ro, err := ReadRoster(strings.NewReader("name,email,login,lms id,sis id,section,ssh key\n" +
		"Ada Lovelace,ada@example.edu,ada,101,S-1,A,\"" + adaKey + "\"\n" +
		"José Martínez,jose@example.edu,jmartinez,102,S-2,A,\n" +
		"Alan Turing,alan@example.edu,alan,103,S-3,B,\n" +
		"Sam Lee,sam.lee@example.edu,slee,104,S-4,B,\n" +
		"Sam Lee,sam.lee2@example.edu,slee2,105,S-5,-B2,\n" +
		"Eve =Smith,eve@example.edu,eve,106,S-6,C,\n"))
	if err != nil {
		t.Fatal(err)
	}
	ms := []class.Member{
		{ID: "instructor", Name: "Prof", Role: class.Instructor, Prog: progress.Progress{Done: map[string]bool{"race": true}}},
		{ID: adaID, Name: "ada", Role: class.Student, Prog: progress.Progress{
			Done:    map[string]bool{"race": true, "gc-pause": true, "choose": true, "fencing": true},
			Answers: map[string]progress.Answer{"race": {Chosen: 1, Right: true}, "gc-pause": {Chosen: 0}, "fencing": {Right: true}},
			Scores:  map[string]progress.Score{"choose": {Right: 6, Of: 8}},
			Levels:  map[string]bool{"break:get-then-set": true, "fix:get-then-set": true},
		}},
		{ID: "web-0123456789ab", Name: "JOSE\u0301 MARTÍNEZ", Role: class.Student, Prog: progress.Progress{
			Done: map[string]bool{"race": true}}},
		{ID: joseID, Name: "José Martínez", Role: class.Student, Prog: progress.Progress{
			Done:    map[string]bool{"gc-pause": true},
			Answers: map[string]progress.Answer{"gc-pause": {Chosen: 2, Right: true}}}},
		{ID: "web-aaaaaaaaaaaa", Name: "eve =smith", Role: class.Student, Prog: progress.Progress{
			Done: map[string]bool{"race": true}, Levels: map[string]bool{"break:nope": true}}},
		{ID: "web-bbbbbbbbbbbb", Name: "Sam Lee", Role: class.Student, Prog: progress.Progress{Done: map[string]bool{"race": true}}},
		{ID: malloryID, Name: "Mallory", Role: class.Student, Prog: progress.Progress{Done: map[string]bool{"race": true}}},
		{ID: "web-cccccccccccc", Name: "Ada Lovelace", Role: class.Student, Prog: progress.Progress{
			Done: map[string]bool{"race": true, "gc-pause": true, "choose": true}, Scores: map[string]progress.Score{"choose": {Right: 8, Of: 8}}}},
		{ID: "web-dddddddddddd", Name: "Sam (laptop)", Role: class.Student, Prog: progress.Progress{
			Done:    map[string]bool{"race": true, "gc-pause": true},
			Answers: map[string]progress.Answer{"race": {Chosen: 0}, "gc-pause": {Chosen: 1, Right: true}}}},
	}
	ctx := context.Background()
	hub := class.NewMemory(nil)
	info, err := hub.Open(ctx, "instructor")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		m.V = class.RowVersion
		if err := hub.Put(ctx, info.Code, m); err != nil {
			t.Fatal(err)
		}
	}
	rows := ro.Enrolled()
	if rows[4].Name != "Sam Lee" || rows[4].Ref != "sis:S-5" {
		t.Fatalf("the second Sam Lee's row is %+v", rows[4])
	}
	if err := hub.Match(ctx, info.Code, "web-dddddddddddd", rows[4].Ref); err != nil {
		t.Fatal(err)
	}
	ms, err = hub.Roster(ctx, info.Code)
	if err != nil {
		t.Fatal(err)
	}
	return ro, ms
}

func TestWrite(t *testing.T) {
	ro, ms := testClass(t)
	scoring, err := ReadScoring(strings.NewReader(`{"scenes": ["race", "gc-pause", "choose"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		o    Options
	}{
		{"canvas.csv", Options{Format: Canvas}},
		{"canvas-total-zero.csv", Options{Format: Canvas, Total: true, Zero: true}},
		{"moodle.csv", Options{Format: Moodle}},
		{"moodle-idnumber-zero.csv", Options{Format: Moodle, MoodleID: MoodleIDNumber, Zero: true}},
	} {
		t.Run(c.file, func(t *testing.T) {
			c.o.Scoring = scoring
			var b bytes.Buffer
			unmatched, err := Write(&b, ro, ms, c.o)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range unmatched {
				names = append(names, m.Name)
			}
			if got, want := strings.Join(names, "|"), "Ada Lovelace|Mallory|Sam Lee"; got != want {
				t.Errorf("unmatched %q, want %q", got, want)
			}
			path := filepath.Join("testdata", c.file)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("%s:\n got:\n%s\nwant:\n%s", c.file, b.String(), want)
			}
		})
	}
}

func TestWriteMoodleNeedsTheIdentifier(t *testing.T) {
	ro, ms := testClass(t)
	ro.Students[2].Login = ""
	_, err := Write(&bytes.Buffer{}, ro, ms, Options{Format: Moodle, MoodleID: MoodleUsername, Scoring: DefaultScoring()})
	want := "gradebook: roster line 4 (Alan Turing) has no login, which a Moodle file by username needs"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestLastFirst(t *testing.T) {
	for in, want := range map[string]string{
		"Ada Lovelace": "Lovelace, Ada", "Ada King Lovelace": "Lovelace, Ada King",
		"Plato": "Plato", "Lovelace, Ada": "Lovelace, Ada",
	} {
		if got := lastFirst(in); got != want {
			t.Errorf("lastFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNotes(t *testing.T) {
	ro, ms := testClass(t)
	_, _, joseID := testKey(t, 3)
	_, _, malloryID := testKey(t, 4)
	got := Notes(ro, ms, "k7m2q")
	want := []string{
		`3 of class k7m2q's students match no roster row and are not in the file: "Ada Lovelace" (web-cccccccc), "Mallory" (` + malloryID[:12] + `), "Sam Lee" (web-bbbbbbbb)`,
		`roster line 3 (José Martínez) is 2 sessions, each column the most of them: "JOSE` + "\u0301" + ` MARTÍNEZ" (web-01234567), "José Martínez" (` + joseID[:12] + `)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMatchFollowsTheClassView: the report ties students as the class
// view does (class.TieAll): the instructor's match to no row unties José's
// browser session from the row his name ties it to, so it leaves the
// file (named unmatched) and the row is his key's session's alone; a
// match by hand moves Eve, tied by her name, to Alan's row; a match to no
// row does not untie Ada's key.
func TestMatchFollowsTheClassView(t *testing.T) {
	ro, ms := testClass(t)
	_, _, adaID := testKey(t, 1)
	for i := range ms {
		switch ms[i].ID {
		case "web-0123456789ab":
			ms[i].Row = class.NoRow
		case "web-aaaaaaaaaaaa":
			ms[i].Row = "sis:S-3"
		case adaID:
			ms[i].Row = class.NoRow
		}
	}
	byRow, unmatched := Match(ro, ms)
	var names []string
	for _, m := range unmatched {
		names = append(names, m.Name)
	}
	if got, want := strings.Join(names, "|"), "Ada Lovelace|JOSE\u0301 MARTÍNEZ|Mallory|Sam Lee"; got != want {
		t.Errorf("unmatched %q, want %q", got, want)
	}
	for row, want := range map[int]string{0: adaID, 1: "José Martínez", 2: "eve =smith", 5: ""} {
		var got []string
		for _, m := range byRow[row] {
			if row == 0 {
				got = append(got, m.ID)
			} else {
				got = append(got, m.Name)
			}
		}
		if strings.Join(got, "|") != want {
			t.Errorf("roster row %d has %q, want %q", row, got, want)
		}
	}
}

// TestEveryQuestionOfAScene: a scene that asks several questions (the
// lost-reply lesson asks one in each of six stories) scores each as its
// share of the scene's prediction points: two of six answered, one right,
// earn 2/6 and 1/6; the one answer an older locksim kept for a scene
// still earns all of it.
func TestEveryQuestionOfAScene(t *testing.T) {
	s := DefaultScoring()
	s.Scenes, s.LabLevel = []string{"lost-reply"}, 0
	items := Items(s)
	if len(items) != 1 {
		t.Fatalf("items %v, want lost-reply's", items)
	}
	q := func(story int) class.Question {
		return class.Question{Scene: "lost-reply", Settings: map[string]int{"story": story}, Name: class.PredictQuestion}
	}
	right, wrong := q(1), q(2)
	m := class.Member{ID: "k-ada", Name: "Ada", Role: class.Student, Answers: map[string]class.Answer{
		right.Key(): {Q: right, Chosen: 1, Ran: true, Actual: 1},
		wrong.Key(): {Q: wrong, Chosen: 0, Ran: true, Actual: 2},
	}}
	if got, want := items[0].score(m), 2.0/6+1.0/6; math.Abs(got-want) > 1e-9 {
		t.Errorf("two of six answered, one right: %v points, want %v", got, want)
	}
	old := class.Member{ID: "k-bob", Name: "Bob", Role: class.Student, Prog: progress.Progress{
		Answers: map[string]progress.Answer{"lost-reply": {Chosen: 1, Right: true}}}}
	if got := items[0].score(old); got != 2 {
		t.Errorf("an older locksim's one answer, right: %v points, want 2", got)
	}
}
