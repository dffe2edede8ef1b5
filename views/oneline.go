package views

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// OneLine is s.Render(text), for a text of one line drawn with a style of no
// frame, width or height (a colour, bold): the same string, without the
// width of every line lipgloss measures for margins a style has none of
// (a tenth of drawing a screen under -race, the rule's row of "─" the
// most). An inline style draws one line as the block style does but for
// the frame and the width, which such a style has not; any other text or
// style is s.Render's.
func OneLine(s lipgloss.Style, text string) string {
	if strings.IndexByte(text, '\n') >= 0 || s.GetHorizontalFrameSize() != 0 || s.GetVerticalFrameSize() != 0 ||
		s.GetWidth() != 0 || s.GetHeight() != 0 {
		return s.Render(text)
	}
	return s.Inline(true).Render(text)
}
