package class

import (
	"fmt"
	"strings"
	"time"
)

// Watched is one time an instructor watched a student's live screen (and,
// for Paired of it, typed on it with the student's yes), kept in the
// student's row for the class's report.
type Watched struct {
	// By is the instructor's name as the student's screen showed it, ByID
	// their member id.
	By   string `json:"by"`
	ByID string `json:"byId,omitempty"`
	// Start is when the watch began, For how long it lasted, Paired how
	// much of it the two typed together (Pairs times the student said
	// yes).
	Start  time.Time     `json:"start"`
	For    time.Duration `json:"for"`
	Paired time.Duration `json:"paired,omitempty"`
	Pairs  int           `json:"pairs,omitempty"`
}

// maxWatches is how many visits a row keeps, the latest: a row is put
// whole, and a hostile instructor's key could otherwise grow it without
// end.
const maxWatches = 200

// Visited adds v to the seat's row (a student's), put with the row's
// next write (at once), and kept by the row's later reports.
func (s *Seat) Visited(v Watched) {
	s.mu.Lock()
	s.row.Watches = append(s.row.Watches, v)
	if n := len(s.row.Watches); n > maxWatches {
		s.row.Watches = append([]Watched(nil), s.row.Watches[n-maxWatches:]...)
	}
	s.rowDue = true
	s.mu.Unlock()
	s.poke()
}

// watchCells are a student's report cells of their visits: who watched
// when, for how long and how long paired ("Prof 2026-12-01T10:02:00Z
// 3m0s, paired 1m0s"; several by "; "), and the minutes watched and
// paired, summed.
func watchCells(vs []Watched) (who, watched, paired string) {
	var parts []string
	var w, p time.Duration
	for _, v := range vs {
		s := fmt.Sprintf("%s %s %s", v.By, v.Start.UTC().Format(time.RFC3339), v.For.Round(time.Second))
		if v.Pairs > 0 {
			s += fmt.Sprintf(", paired %s", v.Paired.Round(time.Second))
		}
		parts = append(parts, s)
		w += v.For
		p += v.Paired
	}
	if len(vs) == 0 {
		return "", "", ""
	}
	return inert(strings.Join(parts, "; ")), fmt.Sprintf("%.1f", w.Minutes()), fmt.Sprintf("%.1f", p.Minutes())
}
