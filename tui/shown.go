package tui

import "locksim/shown"

// shownText is text as a terminal may be sent it (shown.Text): invalid
// UTF-8 as U+FFFD (ansi.Truncate's cut of a stray byte was not always a
// prefix of it, the byte came out twice), every control character and
// bidirectional control shown, not obeyed; \n, \t, \f and \r kept, which
// wrapWords breaks rows at or takes as spaces. The lab's texts come
// partly from the learner's own files (a lock's scripts, its name): a
// stray ESC was taken by the wrapper for an escape sequence's start and a
// word came out twice, and the learner's bytes must never reach the
// terminal as commands anyway.
func shownText(text string) string { return shown.Text(text) }
