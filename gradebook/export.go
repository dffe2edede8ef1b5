package gradebook

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"locksim/class"
	"locksim/lab"
	"locksim/play"
	"locksim/scenes"
)

// Format is a gradebook file's shape.
type Format string

const (
	// Canvas is Canvas's gradebook CSV: Student, ID, SIS User ID, SIS
	// Login ID, Section, then a column per assignment; a second row
	// "Points Possible" gives each assignment's maximum.
	Canvas Format = "canvas"
	// Moodle is Moodle's grade import CSV: a column of a user identifier
	// (email, username or ID number), then a column per grade item.
	Moodle Format = "moodle"
)

// Moodle's identifier columns (Options.MoodleID), each a roster field.
const (
	MoodleEmail    = "email"    // the roster's email
	MoodleUsername = "username" // the roster's login
	MoodleIDNumber = "idnumber" // the roster's SIS id
)

// Options shape a gradebook file.
type Options struct {
	Format  Format
	Scoring Scoring
	// Total writes one column, every scored item summed, instead of one
	// per item.
	Total bool
	// Zero gives a roster student who never joined 0 in every column;
	// without it their cells are empty (nothing imported).
	Zero bool
	// MoodleID is the Moodle file's identifier column: MoodleEmail (the
	// default, for ""), MoodleUsername or MoodleIDNumber.
	MoodleID string
}

// Item is one scored column: a scene of the scoring, or the lab.
type Item struct {
	// Name is the column's assignment or grade item name: "locksim "
	// and the scene's id, or "locksim lab". It has no "(id)" after it,
	// so Canvas makes it a new assignment on the first import.
	Name string
	// Possible is its most points.
	Possible float64
	// score is a session's points of it (nil for a total).
	score func(m class.Member) float64
}

// Items are the columns s scores, in its scenes' order, then the lab: a
// scene worth nothing (every weight of it 0) has none.
func Items(s Scoring) []Item {
	var items []Item
	for _, id := range s.Scenes {
		sc := scenes.Find(id)
		if sc == nil {
			continue
		}
		// a scene that sends no command is a quiz: its points are its score's
		quiz := !sc.Sends()
		possible := s.SceneFinished
		if sc.Predict != nil {
			possible += s.PredictionGiven + s.PredictionRight
		}
		if quiz {
			possible += s.Quiz
		}
		if possible == 0 {
			continue
		}
		asked := lessonQuestions(sc)
		items = append(items, Item{Name: "locksim " + id, Possible: possible, score: func(m class.Member) float64 {
			var p float64
			if m.Prog.Done[id] {
				p += s.SceneFinished
			}
			if sc.Predict != nil {
				given, right := predictions(m, id, asked)
				p += s.PredictionGiven * given
				p += s.PredictionRight * right
			}
			if q, ok := m.Prog.Scores[id]; ok && quiz && q.Of > 0 && q.Right >= 0 {
				p += s.Quiz * float64(min(q.Right, q.Of)) / float64(q.Of)
			}
			return p
		}})
	}
	if s.LabLevel > 0 {
		var ids []string
		for _, lv := range lab.Levels() {
			ids = append(ids, "break:"+lv.ID, "fix:"+lv.ID)
		}
		items = append(items, Item{Name: "locksim lab", Possible: s.LabLevel * float64(len(ids)), score: func(m class.Member) float64 {
			var p float64
			for _, id := range ids {
				if m.Prog.Levels[id] {
					p += s.LabLevel
				}
			}
			return p
		}})
	}
	return items
}

// lessonQuestions is how many questions sc's lesson asks: one per story
// with a question (lost-reply's asks one in each of several stories), at
// least one.
func lessonQuestions(sc *scenes.Scene) int {
	n := 0
	for _, p := range sc.LessonStories() {
		if play.QuestionAt(sc, p, nil) >= 0 {
			n++
		}
	}
	return max(n, 1)
}

// predictions are the shares, from 0 to 1, of scene id's asked questions
// m answered and m's own run made true (class.SceneAnswers: every
// question the class recorded, else the one answer m's progress keeps),
// so a scene's prediction points are the same whether it asks one
// question or four; answers beyond asked (other settings) count up to it.
// The one answer an older locksim kept for the scene stands for all of it.
func predictions(m class.Member, id string, asked int) (given, right float64) {
	var n, r int
	for _, a := range class.SceneAnswers(m, id) {
		if a.Q.Story == class.OldStory {
			asked = 1
		}
		n++
		if a.Right() {
			r++
		}
	}
	return float64(min(n, asked)) / float64(asked), float64(min(r, asked)) / float64(asked)
}

// Match ties the class's students (ms, instructors and projectors left
// out) to the roster's rows as class.TieAll does: by key, else by the
// instructor's match by hand in the class view (Member.Row, which the
// class store's roster fills), else by a name that is exactly one row's,
// a row with no key. byRow holds each row's students by its index in
// ro.Students (a student who joined from two devices can be two);
// unmatched are the students of no row.
func Match(ro *Roster, ms []class.Member) (byRow map[int][]class.Member, unmatched []class.Member) {
	t := class.TieAll(ro.Enrolled(), ms)
	return t.ByRow, t.Unmatched
}

// Write writes the class's gradebook (ms its rows, as Hub.Roster gives
// them) for the roster's students, in the roster's order, in o.Format:
// one column per scored item (Items), or one total (o.Total). A
// student's cell is the most points any of their sessions earned (see
// Match); a roster student who never joined has empty cells, or 0 with
// o.Zero; a total is the sum of those items. Every text cell is kept from a spreadsheet's formulas
// (class.Inert). It returns the students it matched to no row, who are
// not in the file. Its error is one line: a roster row without the
// identifier a Moodle file needs, or the writer's.
func Write(w io.Writer, ro *Roster, ms []class.Member, o Options) (unmatched []class.Member, err error) {
	items := Items(o.Scoring)
	columns := items
	if o.Total {
		var all float64
		for _, it := range items {
			all += it.Possible
		}
		columns = []Item{{Name: "locksim", Possible: all}}
	}
	byRow, unmatched := Match(ro, ms)
	cw := csv.NewWriter(w)
	var head []string
	switch o.Format {
	case Canvas:
		head = []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section"}
	case Moodle:
		if o.MoodleID == "" {
			o.MoodleID = MoodleEmail
		}
		head = []string{o.MoodleID}
	default:
		return nil, fmt.Errorf("gradebook: unknown format %q (canvas, moodle)", o.Format)
	}
	for _, it := range columns {
		head = append(head, it.Name)
	}
	if err := cw.Write(head); err != nil {
		return nil, err
	}
	if o.Format == Canvas {
		row := []string{"Points Possible", "", "", "", ""}
		for _, it := range columns {
			row = append(row, points(it.Possible))
		}
		if err := cw.Write(row); err != nil {
			return nil, err
		}
	}
	for i, s := range ro.Students {
		var row []string
		if o.Format == Canvas {
			login := s.Login
			if login == "" {
				login = s.Email
			}
			row = []string{lastFirst(s.Name), s.LMS, s.SIS, login, s.Section}
		} else {
			id := map[string]string{MoodleEmail: s.Email, MoodleUsername: s.Login, MoodleIDNumber: s.SIS}[o.MoodleID]
			if id == "" {
				field := map[string]string{MoodleEmail: "email", MoodleUsername: "login", MoodleIDNumber: "SIS id"}[o.MoodleID]
				return nil, fmt.Errorf("gradebook: roster line %d (%s) has no %s, which a Moodle file by %s needs", s.Line, s.Name, field, o.MoodleID)
			}
			row = []string{id}
		}
		for j := range row {
			row[j] = class.Inert(row[j])
		}
		mine := byRow[i]
		var cells []float64 // each item's most points of any session of the student's
		for _, it := range items {
			var best float64
			for _, m := range mine {
				best = max(best, it.score(m))
			}
			cells = append(cells, best)
		}
		if o.Total {
			var sum float64
			for _, c := range cells {
				sum += c
			}
			cells = []float64{sum}
		}
		for _, c := range cells {
			switch {
			case len(mine) > 0:
				row = append(row, points(c))
			case o.Zero:
				row = append(row, "0")
			default:
				row = append(row, "")
			}
		}
		if err := cw.Write(row); err != nil {
			return nil, err
		}
	}
	cw.Flush()
	return unmatched, cw.Error()
}

// points is a score as a gradebook reads it: at most two decimals, no
// trailing zeros ("3", "4.75").
func points(p float64) string {
	return strconv.FormatFloat(math.Round(p*100)/100, 'f', -1, 64)
}

// lastFirst is a roster name as Canvas's Student column writes it, "Last,
// First": the last word first. A name with a comma is taken as written
// so already, and a name of one word stays.
func lastFirst(name string) string {
	if strings.Contains(name, ",") {
		return name
	}
	i := strings.LastIndex(name, " ")
	if i < 0 {
		return name
	}
	return name[i+1:] + ", " + name[:i]
}

// Notes are what the teacher should know of a gradebook of class code
// (ms its rows) for ro, one line each: the students of no row, who are
// not in the file, and each row that more than one session counts for
// (its columns have the most of them: a student on two devices, or
// someone who typed a classmate's name). A student is named quoted, with
// the start of their id.
func Notes(ro *Roster, ms []class.Member, code string) []string {
	byRow, unmatched := Match(ro, ms)
	var notes []string
	if len(unmatched) > 0 {
		notes = append(notes, fmt.Sprintf("%d of class %s's students match no roster row and are not in the file: %s",
			len(unmatched), code, who(unmatched)))
	}
	for i, s := range ro.Students {
		if mine := byRow[i]; len(mine) > 1 {
			notes = append(notes, fmt.Sprintf("roster line %d (%s) is %d sessions, each column the most of them: %s",
				s.Line, s.Name, len(mine), who(mine)))
		}
	}
	return notes
}

// who names students for a note: "Ada" (3f9a0c1d22e4), ….
func who(ms []class.Member) string {
	var names []string
	for _, m := range ms {
		id := m.ID
		if len(id) > 12 {
			id = id[:12]
		}
		names = append(names, fmt.Sprintf("%q (%s)", m.Name, id))
	}
	return strings.Join(names, ", ")
}
