package views

import (
	"slices"

	"github.com/charmbracelet/lipgloss"
)

// CardMemo keeps cards as Cards drew them: a card whose name, lines,
// tone, selection and width are the ones drawn before is not drawn again
// (drawing the cards was a quarter of drawing a scene's frame, and most
// frames change a card or none). The zero value is ready; it holds the
// boxes of one palette, so a new palette wants a new memo (Draw starts
// afresh when st's renderer is another one).
type CardMemo struct {
	r     *lipgloss.Renderer
	boxes map[cardKey]string
	// the last row drawn, whole (Cards reads width only as each card's)
	last []cardKey
	row  string
}

// cardKey is what a card's box is drawn from (Cards reads two lines).
type cardKey struct {
	name      string
	line0     string
	line1     string
	tone      Tone
	sel       bool
	cardWidth int
}

// Draw is Cards(st, cards, sel, width), drawn again only where a card
// changed.
func (m *CardMemo) Draw(st Styles, cards []Card, sel, width int) string {
	if len(cards) == 0 || width <= 0 {
		return ""
	}
	if m.r != st.R || m.boxes == nil || len(m.boxes) > 256 {
		*m = CardMemo{r: st.R, boxes: map[cardKey]string{}}
	}
	cw := width / len(cards)
	keys := make([]cardKey, len(cards))
	for i, c := range cards {
		k := cardKey{name: c.Name, tone: c.Tone, sel: i == sel, cardWidth: cw}
		if len(c.Lines) > 0 {
			k.line0 = c.Lines[0]
		}
		if len(c.Lines) > 1 {
			k.line1 = c.Lines[1]
		}
		keys[i] = k
	}
	if slices.Equal(keys, m.last) {
		return m.row
	}
	boxes := make([]string, len(cards))
	for i, c := range cards {
		b, ok := m.boxes[keys[i]]
		if !ok {
			b = cardBox(st, c, keys[i].sel, cw)
			m.boxes[keys[i]] = b
		}
		boxes[i] = b
	}
	m.last, m.row = keys, JoinTop(boxes...)
	return m.row
}

// LogMemo keeps the log's rows as Log drew them: a row drawn from the
// same line at the same width (and with a worker picked or not, as
// before) is not drawn again; a frame draws the rows it did not have,
// mostly the newest. The zero value is ready; like CardMemo it holds one
// palette's rows.
type LogMemo struct {
	r    *lipgloss.Renderer
	rows map[logKey]string
}

// logKey is what a row of the log is drawn from.
type logKey struct {
	line  LogLine
	width int
	anyHi bool
}

// Draw is Log(st, lines, width, height, back).
func (m *LogMemo) Draw(st Styles, lines []LogLine, width, height, back int) string {
	if m.r != st.R || m.rows == nil || len(m.rows) > 4096 {
		*m = LogMemo{r: st.R, rows: map[logKey]string{}}
	}
	return logRows(st, lines, width, height, back, func(l LogLine, anyHi bool) string {
		k := logKey{l, width, anyHi}
		row, ok := m.rows[k]
		if !ok {
			row = logRow(st, l, width, anyHi)
			m.rows[k] = row
		}
		return row
	})
}
