package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// QuizMark is where one situation of a quiz stands.
type QuizMark int

const (
	Unanswered QuizMark = iota // not answered yet
	Right                      // answered, and right
	Wrong                      // answered, and wrong
	Shown                      // its answer shown without one given (presenter, -no-quiz)
)

// QuizGlyphs are the marks' glyphs, in QuizMark order; the help page's
// legend names them.
func QuizGlyphs() [4]string { return [...]string{"○", "✓", "✗", "·"} }

// QuizStrip draws one glyph per situation with a bar before the one on
// screen (after the last: the score page), then where that is and note.
func QuizStrip(st Styles, marks []QuizMark, pos int, note string, width int) string {
	var b strings.Builder
	for i, m := range marks {
		if i == pos {
			b.WriteString(st.Bold.Render("│"))
		}
		g := QuizGlyphs()[m]
		switch m {
		case Right:
			b.WriteString(st.Good.Render(g))
		case Wrong:
			b.WriteString(st.Bad.Render(g))
		case Shown:
			b.WriteString(st.Accent.Render(g))
		default:
			b.WriteString(st.Dim.Render(g))
		}
	}
	where := fmt.Sprintf("%d/%d", pos+1, len(marks))
	if pos >= len(marks) {
		b.WriteString(st.Bold.Render("│"))
		where = "score"
	}
	line := b.String() + " " + where
	if note != "" {
		line += " · " + note
	}
	return ansi.Truncate(line, width, "…")
}
