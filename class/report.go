package class

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"locksim/scenes"
)

// ReportHeader is the class summary's first row.
var ReportHeader = []string{"student", "id", "scene", "finished", "prediction", "right", "quiz"}

// WriteReport writes the class summary as CSV (RFC 4180, as encoding/csv
// writes it): for every student of ms (instructors and projectors left
// out) and every scene of the course, a row saying whether the student
// played it to the end, the prediction they gave (its 1-based number
// among the choices, empty for none), whether their own run made it true
// (yes, no, empty), and a quiz's latest score ("6/8"). id is the first 12
// characters of the student's id, telling apart two of the same name.
func WriteReport(w io.Writer, ms []Member) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ReportHeader); err != nil {
		return err
	}
	for _, m := range ms {
		if m.Role != Student {
			continue
		}
		id := m.ID
		if len(id) > 12 {
			id = id[:12]
		}
		for _, sc := range scenes.All() {
			row := []string{inert(m.Name), id, sc.ID, yesNo(m.Prog.Done[sc.ID]), "", "", ""}
			if a, ok := m.Prog.Answers[sc.ID]; ok {
				row[4], row[5] = strconv.Itoa(a.Chosen+1), yesNo(a.Right)
			}
			if s, ok := m.Prog.Scores[sc.ID]; ok {
				row[6] = strconv.Itoa(s.Right) + "/" + strconv.Itoa(s.Of)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
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
