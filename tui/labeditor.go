package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"locksim/lab"
	"locksim/views"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// newArea is part p's editor in the session's styles, with line numbers,
// a ✗ before the line a script's error names, and a cursor that does not
// blink (so two drawings of one state are the same, and no timer runs for
// it).
func (l *Lab) newArea(p int) textarea.Model {
	st := l.com.Styles
	ta := textarea.New()
	s := st.R.NewStyle
	focused := textarea.Style{Base: s(), CursorLine: s(), CursorLineNumber: st.Key, EndOfBuffer: st.Dim,
		LineNumber: st.Dim, Placeholder: st.Dim, Prompt: st.Accent, Text: st.Plain}
	blurred := focused
	blurred.CursorLineNumber, blurred.Prompt = st.Dim, st.Dim
	ta.FocusedStyle, ta.BlurredStyle = focused, blurred
	ta.Prompt = "| "
	ta.SetPromptFunc(2, func(row int) string {
		if row == l.errorRow(p) {
			return "✗ "
		}
		return "| "
	})
	ta.CharLimit = 4000
	ta.MaxHeight = 200
	ta.Cursor.Style, ta.Cursor.TextStyle = cursorStyle(st), st.Plain
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.Blur()
	return ta
}

// errorRow is the row of part p's editor where the script's error's line
// starts, -1 for none. Rows count wrapped lines, so with a line before it
// too long for one row the row is not known, and no line is marked (the
// message under the editor still names it).
func (l *Lab) errorRow(p int) int {
	se := l.scriptErr
	if se == nil || se.Line < 1 || se.Part != labPartNames[p] {
		return -1
	}
	lines := strings.Split(l.parts[p].Value(), "\n")
	if se.Line > len(lines) {
		return -1
	}
	for _, line := range lines[:se.Line] {
		if ansi.StringWidth(line) >= l.parts[p].Width() {
			return -1
		}
	}
	return se.Line - 1
}

// formatMS is a duration as the policy fields show it: 30s, 250ms; a
// bare number of ms when "ms" would not fit the field (fieldChars).
func formatMS(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	ms := strconv.FormatInt(d.Milliseconds(), 10)
	if len(ms)+2 > fieldChars {
		return ms
	}
	return ms + "ms"
}

// screenNames puts the policy fields' on-screen names for lab.json's in
// Check's sentences.
var screenNames = strings.NewReplacer(
	"ttl_ms must be at least 1", "TTL must be at least 1ms",
	"ttl_ms must be at most 86400000 (a day)", "TTL must be at most 24h (86400000 ms)",
	"retry_delay_ms, work_ms and watchdog_ms must be at most 86400000 (a day)", "delay, watchdog and the work must be at most 24h (86400000 ms)",
	"retry_delay_ms, work_ms and watchdog_ms", "delay, watchdog and the work",
	"ttl_ms", "TTL", "retry_delay_ms", "delay", "watchdog_ms", "watchdog",
)

// lock is the lock as the editor holds it; an error names the policy
// field that does not read.
func (l *Lab) lock() (lab.Lock, error) {
	lk := l.base
	for i, part := range lockParts(&lk) {
		*part = lab.Part{Name: labPartNames[i], Lang: l.langs[i], Src: l.files[i].source(l.parts[i].Value())}
	}
	var err error
	if lk.Policy.TTL, err = parseField(l.fields[fieldTTL].Value(), "TTL"); err != nil {
		return lk, err
	}
	if lk.Policy.Retries, err = strconv.Atoi(strings.TrimSpace(l.fields[fieldRetries].Value())); err != nil {
		return lk, fmt.Errorf("retries: %q is not a count (0 to 3)", l.fields[fieldRetries].Value())
	}
	if lk.Policy.RetryDelay, err = parseField(l.fields[fieldDelay].Value(), "delay"); err != nil {
		return lk, err
	}
	lk.Policy.Watchdog = 0
	if v := strings.TrimSpace(l.fields[fieldWatchdog].Value()); v != "off" && v != "" && v != "0" {
		if lk.Policy.Watchdog, err = parseField(v, "watchdog"); err != nil {
			return lk, err
		}
	}
	if err := lk.Policy.Check(); err != nil {
		return lk, errors.New(screenNames.Replace(strings.TrimPrefix(err.Error(), "lab.json: ")))
	}
	return lk, nil
}

// parseField reads a duration field: 30s, 250ms, 1m; a bare number is
// milliseconds, as lab.json gives them.
func parseField(v, name string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: %q is not a duration (30s, 250ms)", name, v)
	}
	return d, nil
}

// save keeps the learner's own lock as the editor holds it, and writes
// it to the lab's directory if there is one; a level's lock is not
// saved.
func (l *Lab) save() error {
	if !l.level(l.open).own {
		return nil
	}
	lk, err := l.lock()
	if err != nil {
		return err
	}
	l.own = lk
	if l.dir == "" || lk.Acquire.Empty() || lk.Release.Empty() {
		return nil // lab.Load reads no lock without both
	}
	return lk.Save(l.dir)
}

// cursorStyle is the style of the lab's cursors (the editor's, the policy
// fields'): reverse video, which a monochrome screen (-no-color, NO_COLOR:
// the ASCII profile) draws as nothing, so there the cell is marked
// instead: a block where it is blank, the character underlined by a
// combining low line where it is not, the cell's width kept.
func cursorStyle(st views.Styles) lipgloss.Style {
	s := st.Plain.Reverse(true)
	if st.R != nil && st.R.ColorProfile() == termenv.Ascii {
		s = s.Transform(markCursor)
	}
	return s
}

// markCursor is the cursor's cell c marked without any attribute.
func markCursor(c string) string {
	if strings.TrimSpace(c) == "" {
		return "█"
	}
	return c + "\u0332"
}
