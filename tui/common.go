package tui

import (
	"locksim/lab"
	"locksim/scenes"
	"locksim/transcript"
	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/viewport"
	"github.com/charmbracelet/lipgloss"
)

// Common is what every part of one session's screen shares, built once
// per session: the styles from that session's renderer (so two sessions
// in one process draw with their own colour profiles), the key map, the
// terminal's size, and where an export goes.
type Common struct {
	Styles        views.Styles
	Keys          views.KeyMap
	TrialKeys     TrialKeyMap
	LabKeys       LabKeyMap
	Width, Height int
	// Export is the scale an export is written at; Sink where it goes
	// (files in Export.Dir for a terminal of one's own).
	Export scenes.Export
	Sink   transcript.Sink
	// Fetch, when set, says how to fetch a story code's script instead of
	// writing it (see Options.Fetch)
	Fetch func(code string) string
	// Search runs the lab's adversary (see Options.Search); nil runs it
	// in this process
	Search lab.Runner
	// SearchLimits is the line of Search's limits (see Options.SearchLimits)
	SearchLimits string
	// glossary is the glossary's text as drawn with Styles, by width: the
	// terms never change, and drawing them again on each g was a tenth of
	// a walk over a scene's pages under -race (see glossaryPage.text);
	// SetStyles empties it
	glossary map[glossaryAt]string
	// glossaryPages are the glossary's pages as sized, by text and size:
	// a page opened is sized twice, and setting a viewport's text measures
	// every line (see glossaryPage.SetSize); SetStyles empties it
	glossaryPages map[glossaryPageAt]viewport.Model
	// drawn holds rows the lab draws from a few strings (the open level's
	// title and goal, the line under the editor, the help line), by what
	// they are drawn from: the lab lays itself out on every key and draws
	// them again on every frame, and wrapping them each time was a third
	// of its tests' time (see memoRows); SetStyles empties it
	drawn map[string][]string
	// cards keeps the scene's cards as drawn (see views.CardMemo);
	// SetStyles empties it
	cards views.CardMemo
	// log keeps the log's rows as drawn (see views.LogMemo); SetStyles
	// empties it
	log views.LogMemo
}

// memoRows is make() as drawn before from the same key, or drawn now and
// kept. A key names all that make draws from but the styles (SetStyles
// empties the memo). The memo holds at most a few dozen entries: a full
// one starts again.
func (c *Common) memoRows(key string, make func() []string) []string {
	if rows, ok := c.drawn[key]; ok {
		return rows
	}
	if c.drawn == nil || len(c.drawn) >= 64 {
		c.drawn = map[string][]string{}
	}
	rows := make()
	c.drawn[key] = rows
	return rows
}

// glossaryAt is what the glossary's text is drawn for: a width, with the
// renderer of the styles (a new one draws it again), and the terms held
// back.
type glossaryAt struct {
	w int
	r *lipgloss.Renderer
	// held names the terms held back (play.GlossaryFor), one a line
	held string
}

// glossaryPageAt is what a glossary page is sized from: its text and the
// viewport's size.
type glossaryPageAt struct {
	text string
	w, h int
}

// NewCommon is the screen's shared part drawn with st; no size yet.
// Exports go to files in export.Dir. Every part of one session's screen
// holds the same one.
func NewCommon(st views.Styles, export scenes.Export) *Common {
	return &Common{Styles: st, Keys: views.DefaultKeyMap(), TrialKeys: DefaultTrialKeyMap(), LabKeys: DefaultLabKeyMap(), Export: export,
		Sink: transcript.Files{Dir: export.Dir}}
}

// TrialKeyMap are the trials page's keys: the variant whose histogram
// shows, stopping the run (and, once stopped, leaving), closing the page,
// and the anomalies' pane with its kinds and "show me one".
type TrialKeyMap struct {
	Prev, Next, Stop, Close key.Binding
	// the anomalies the checker counted: switch to them (at 80x24 they
	// take the histogram's place), pick a kind, show the smallest trial
	// of it as a story
	Pane, Up, Down, Show key.Binding
}

// DefaultTrialKeyMap is the trials page's key map.
func DefaultTrialKeyMap() TrialKeyMap {
	return TrialKeyMap{
		Prev:  views.Bind("←", "previous variant", "left", "b"),
		Next:  views.Bind("→", "next variant", "right", "n"),
		Stop:  views.Bind("q", "stop", "q", "ctrl+c"),
		Close: views.Bind("esc", "back", "esc"),
		Pane:  views.Bind("tab", "holders or anomalies", "tab"),
		Up:    views.Bind("↑", "previous kind", "up", "k"),
		Down:  views.Bind("↓", "next kind", "down", "j"),
		Show:  views.Bind("enter", "show me one", "enter", "o"),
	}
}

// SetSize records the terminal's (or the session's window's) size.
func (c *Common) SetSize(w, h int) { c.Width, c.Height = w, h }

// help is the help line's model in the Bubbles colours, drawn by c's
// renderer rather than by the process's default one.
func (c *Common) help() help.Model {
	h := help.New()
	s := c.Styles.R.NewStyle
	key := s().Foreground(lipgloss.AdaptiveColor{Light: "#909090", Dark: "#626262"})
	desc := s().Foreground(lipgloss.AdaptiveColor{Light: "#B2B2B2", Dark: "#4A4A4A"})
	sep := s().Foreground(lipgloss.AdaptiveColor{Light: "#DDDADA", Dark: "#3C3C3C"})
	h.Styles = help.Styles{Ellipsis: sep, ShortKey: key, ShortDesc: desc, ShortSeparator: sep,
		FullKey: key, FullDesc: desc, FullSeparator: sep}
	h.ShortSeparator = views.KeySep // as every other page's key line, not Bubbles' " • "
	return h
}

// courseHelp is the help line's model in the course's palette.
func (c *Common) courseHelp() help.Model {
	h := c.help()
	st := c.Styles
	h.Styles.ShortKey, h.Styles.FullKey = st.Key, st.Key
	h.Styles.ShortDesc, h.Styles.FullDesc = st.Dim, st.Dim
	h.Styles.ShortSeparator, h.Styles.FullSeparator = st.Dim, st.Dim
	return h
}

// spinner is the spinner a busy live story or a race shows.
func (c *Common) spinner() spinner.Model {
	return spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(c.Styles.Plain))
}

// progressBar is the trials' bar, in c's colour profile.
func (c *Common) progressBar() progress.Model {
	return progress.New(progress.WithSolidFill("#5fafd7"), progress.WithoutPercentage(),
		progress.WithColorProfile(c.Styles.R.ColorProfile()))
}

// listStyles are the contents list's styles from c's renderer, in the
// colours of the Bubbles defaults where the course has none of its own.
func (c *Common) listStyles() list.Styles {
	s := c.Styles.R.NewStyle
	subdued := lipgloss.AdaptiveColor{Light: "#9B9B9B", Dark: "#5C5C5C"}
	verySubdued := lipgloss.AdaptiveColor{Light: "#DDDADA", Dark: "#3C3C3C"}
	return list.Styles{
		TitleBar:                    s().Padding(0, 0, 1, 2),
		Title:                       c.Styles.Title.Padding(0, 1),
		Spinner:                     s().Foreground(lipgloss.AdaptiveColor{Light: "#8E8E8E", Dark: "#747373"}),
		FilterPrompt:                s().Foreground(lipgloss.AdaptiveColor{Light: "#04B575", Dark: "#ECFD65"}),
		FilterCursor:                s().Foreground(lipgloss.AdaptiveColor{Light: "#EE6FF8", Dark: "#EE6FF8"}),
		DefaultFilterCharacterMatch: s().Underline(true),
		StatusBar:                   s().Foreground(lipgloss.AdaptiveColor{Light: "#A49FA5", Dark: "#777777"}).Padding(0, 0, 1, 2),
		StatusEmpty:                 s().Foreground(subdued),
		StatusBarActiveFilter:       s().Foreground(lipgloss.AdaptiveColor{Light: "#1a1a1a", Dark: "#dddddd"}),
		StatusBarFilterCount:        s().Foreground(verySubdued),
		NoItems:                     s().Foreground(lipgloss.AdaptiveColor{Light: "#909090", Dark: "#626262"}),
		ArabicPagination:            s().Foreground(subdued),
		PaginationStyle:             s().PaddingLeft(2),
		HelpStyle:                   s().Padding(1, 0, 0, 2),
		ActivePaginationDot:         s().Foreground(lipgloss.AdaptiveColor{Light: "#847A85", Dark: "#979797"}).SetString("•"),
		InactivePaginationDot:       s().Foreground(verySubdued).SetString("•"),
		DividerDot:                  s().Foreground(verySubdued).SetString(" • "),
	}
}

// styleList gives list l every style from c's renderer: its own, its
// filter's and its pagination dots (rendered once, when set).
func (c *Common) styleList(l *list.Model) {
	l.Styles = c.listStyles()
	l.FilterInput.PromptStyle = l.Styles.FilterPrompt
	l.FilterInput.Cursor.Style = l.Styles.FilterCursor
	l.FilterInput.TextStyle = c.Styles.Plain
	l.FilterInput.PlaceholderStyle = c.Styles.Dim
	l.FilterInput.Cursor.TextStyle = c.Styles.Plain
	l.Paginator.ActiveDot = l.Styles.ActivePaginationDot.String()
	l.Paginator.InactiveDot = l.Styles.InactivePaginationDot.String()
}

// SetStyles has the session drawn with st, from its own renderer: the
// scene, the help line, the spinner and the contents list alike. Call it
// before the first message.
func (a *App) SetStyles(st views.Styles) {
	a.com.Styles = st
	a.com.glossary, a.com.glossaryPages, a.com.drawn, a.fits = nil, nil, nil, nil
	a.com.cards, a.com.log = views.CardMemo{}, views.LogMemo{}
	a.help, a.pl.spin = a.com.courseHelp(), a.com.spinner()
}
