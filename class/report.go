package class

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/scenes"
)

// ReportHeader is the class report's fixed columns, the first of its
// header row, in this order in every version; a column per question
// asked follows them (see WriteReport). Every row names the class (its
// code, its name, the day it opened, UTC, and when the report was
// written, UTC, RFC 3339), so a file keeps what it is a report of
// wherever it is copied, and the report's version (ReportVersion).
var ReportHeader = []string{"class", "class name", "opened", "written", "student", "id", "scene", "finished", "prediction", "right", "quiz", "minutes", "levels", "report"}

// WatchColumns are the report's last columns, after the questions' (see
// WriteReport): the instructors' watches of each student's screen.
var WatchColumns = []string{"watched by", "watched minutes", "paired minutes"}

// ReportVersion is the report's shape, in its "report" column on every
// row: 2 has the fixed columns of ReportHeader, then one per question
// asked; 3 adds WatchColumns after those; 4 counts every question of a
// scene (SceneAnswers) where 3 counted one answer per scene, the latest: a
// summary row's prediction and right count each question answered, as
// the question columns list them, and a scene's row's prediction and
// right list each of its questions' answer, by a space, in the lesson's
// order ("1 2", "yes no"; one question reads as before); 5 counts a
// prediction whose move has not run as neither true nor false, where 4
// counted it false: a summary row's right is of those whose run made the
// move ("3/4" with prediction 5: one not yet run), and a scene's row's
// right says NotRunCell for it where 4 said "no". A later version adds
// columns or formats; it never changes or moves these.
const ReportVersion = "5"

// NotRunCell is a scene's row's right for a prediction whose run has not
// made the move: one word, as the answers of a scene's row are split by a
// space ("yes not-run").
const NotRunCell = "not-run"

// QuestionColumn is how a question's column header starts: "question "
// then its label and text ("question gc-pause, pause 20 s: …").
const QuestionColumn = "question "

// AllScenes is the scene column of a student's summary row.
const AllScenes = "all"

// WriteReport writes class info's report at written as CSV (RFC 4180, as
// encoding/csv writes it; see ReportHeader for the columns): first one
// summary row per student of ms (instructors and projectors left out),
// then, for every student and every scene of the course, a row of that
// scene. id is the first 12 characters of the student's id, telling apart
// two of the same name.
//
// A scene's row says whether the student played it to the end (yes, no),
// the prediction they gave to each of its questions (its 1-based number
// among the choices, by a space in the lesson's order when the scene
// asked several: "1 3"; empty for none), whether their own run made each
// true (yes, no, likewise; NotRunCell while their run has not made the
// move: not yet true, not yet false), and a quiz's latest score ("6/8").
// A summary row (scene "all") says how many scenes they finished of the
// course's ("5/13"), how many predictions they gave (every question of
// every scene, see SceneAnswers), how many came true of those whose run
// has made the move ("3/4": Summary's Right of Ran), their quiz scores
// summed ("14/16", empty for none), their minutes in the class over
// every session, and the lab's levels they passed (their ids, by a
// space).
//
// After the fixed columns comes one per question some student answered
// (see AskedOf, in its order): its header is QuestionColumn, the
// question's label and its text; a summary row's cell is the student's
// answer ("2", "2 right", "2 wrong", with " blind" after a blind one, ""
// for none); a scene's row leaves it empty.
//
// Last come WatchColumns: a summary row's "watched by" says each time
// an instructor watched the student's screen (the instructor's name,
// when, for how long, and how long the two typed together when they
// paired: "Prof 2026-12-01T10:02:00Z 3m0s, paired 1m0s", several by
// "; "), "watched minutes" and "paired minutes" their sums (one
// decimal); a scene's row leaves them empty, as a student never watched
// does.
func WriteReport(w io.Writer, info Info, ms []Member, written time.Time) error {
	cw := csv.NewWriter(w)
	asked := AskedOf(ms)
	header := slices.Clone(ReportHeader)
	for _, q := range asked {
		header = append(header, QuestionColumn+q.column())
	}
	header = append(header, WatchColumns...)
	if err := cw.Write(header); err != nil {
		return err
	}
	blank := make([]string, len(asked))
	head := []string{info.Code, inert(info.Name), "", written.UTC().Format(time.RFC3339)}
	if !info.Opened.IsZero() {
		head[2] = info.Opened.UTC().Format(time.DateOnly)
	}
	var studs []Member
	for _, m := range ms {
		if m.Role == Student {
			migrate(&m)
			studs = append(studs, m)
		}
	}
	all := scenes.All()
	for _, m := range studs {
		s := Summarize(m)
		row := []string{inert(m.Name), shortID(m.ID), AllScenes, fmt.Sprintf("%d/%d", s.Finished, len(all)),
			strconv.Itoa(s.Asked), fmt.Sprintf("%d/%d", s.Right, s.Ran), "", strconv.Itoa(int(m.Spent / time.Minute)), strings.Join(s.Levels, " ")}
		if s.QuizOf > 0 {
			row[6] = fmt.Sprintf("%d/%d", s.QuizRight, s.QuizOf)
		}
		row = append(row, ReportVersion)
		for _, q := range asked {
			cell := ""
			if a, ok := m.Answers[q.Q.Key()]; ok {
				cell = a.cell()
			}
			row = append(row, cell)
		}
		who, watched, paired := watchCells(m.Watches)
		row = append(row, who, watched, paired)
		if err := cw.Write(append(slices.Clone(head), row...)); err != nil {
			return err
		}
	}
	for _, m := range studs {
		for _, sc := range all {
			row := []string{inert(m.Name), shortID(m.ID), sc.ID, yesNo(m.Prog.Done[sc.ID]), "", "", "", "", ""}
			var chosen, right []string
			for _, a := range SceneAnswers(m, sc.ID) {
				chosen, right = append(chosen, strconv.Itoa(a.Chosen+1)), append(right, rightCell(a))
			}
			row[4], row[5] = strings.Join(chosen, " "), strings.Join(right, " ")
			if s, ok := m.Prog.Scores[sc.ID]; ok {
				row[6] = strconv.Itoa(s.Right) + "/" + strconv.Itoa(s.Of)
			}
			row = append(append(append(row, ReportVersion), blank...), "", "", "")
			if err := cw.Write(append(slices.Clone(head), row...)); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// shortID is the first 12 characters of a member's id.
func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// rightCell is whether a's run made it true, as a scene's row says it:
// yes, no, or NotRunCell before the run made the move.
func rightCell(a Answer) string {
	if !a.Ran {
		return NotRunCell
	}
	return yesNo(a.Right())
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// inert is a name a student chose, kept from being read as a formula by a
// spreadsheet that opens the CSV (a cell starting =, +, - or @ runs).
func inert(name string) string {
	if name != "" && strings.ContainsRune("=+-@\t\r", rune(name[0])) {
		return "'" + name
	}
	return name
}
