// Package tui is locksim's screen: the contents, the story and race player,
// the quiz and trials pages, the log and the layout, as Bubble Tea models
// drawn with package views. It reads the scenes (package scenes) and never
// the other way round.
package tui
