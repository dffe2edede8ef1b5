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
	if strings.IndexByte(text, '\n') >= 0 || framed(s) || s.GetWidth() != 0 || s.GetHeight() != 0 {
		return s.Render(text)
	}
	return s.Inline(true).Render(text)
}

// framed reports a style with a border, padding or margins. Border: a
// style with no border style draws none, whatever its sides say
// (lipgloss's applyBorder); its frame-size getters measured the border's
// runes on every call.
func framed(s lipgloss.Style) bool {
	if s.GetBorderStyle() != (lipgloss.Border{}) {
		return true
	}
	t, r, b, l := s.GetPadding()
	if t != 0 || r != 0 || b != 0 || l != 0 {
		return true
	}
	t, r, b, l = s.GetMargin()
	return t != 0 || r != 0 || b != 0 || l != 0
}
