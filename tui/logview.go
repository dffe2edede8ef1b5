package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	"github.com/charmbracelet/x/ansi"
)

// logView is vp.View() for the command log's viewport, whose content is
// content: the rows in view, each padded with spaces to the viewport's
// width, and empty rows under them to its height. The viewport draws them
// through a style of its width and height, which wraps, pads, measures
// and cuts every row three times over: a sixth of a frame, and more under
// -race. The log's rows are fitted to its width when they are made
// (views.Unfold), so the drawing here is the same; a row wider than the
// width, a tab, a carriage return or a styled viewport take the
// viewport's own way (TestLogViewIsTheViewports compares the two).
func logView(vp viewport.Model, content string) string {
	w, h := vp.Width, vp.Height
	st := vp.Style
	if w <= 0 || h <= 0 || st.GetWidth() != 0 || st.GetHeight() != 0 || st.GetHorizontalFrameSize() != 0 ||
		st.GetVerticalFrameSize() != 0 || strings.ContainsAny(content, "\t\r") {
		return vp.View()
	}
	lines := strings.Split(content, "\n")
	top := max(0, vp.YOffset)
	bottom := min(max(vp.YOffset+h, top), len(lines))
	var b strings.Builder
	for i := range h {
		row := ""
		if top+i < bottom {
			row = lines[top+i]
		}
		rw := ansi.StringWidth(row)
		if rw > w {
			return vp.View()
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(row)
		b.WriteString(strings.Repeat(" ", w-rw))
	}
	return b.String()
}
