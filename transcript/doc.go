// Package transcript writes the course as text: the plain transcript of a
// scene or the whole course (-plain, and with -questions a handout and its
// answer key), the redis-cli script of a story so far (the screen's y) and
// the table of a run of trials (-trials N -plain, and the trials page's
// table). It plays scenes headless through the scenes API on a sim
// backend and never imports the screen (tui, views, lipgloss, bubbles,
// bubbletea): TestNoScreenInTheImportGraph checks the whole import graph.
package transcript
