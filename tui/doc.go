// Package tui is locksim's screen: a stack of pages over one learner's
// session, each a Component (component.go): the contents, a scene (the
// story and race player, the quiz page, a story of the lab), the pages over
// a scene (the keys, the story, the history), the trials, the lab and the
// instructor's class view. A key goes to the page on top; the scene's
// pages hand it to the session, which matches it to a play.Action for the
// core. Each page's help line is drawn from its key map. The screen draws
// with package views, asks the core (package play) what may be shown, and
// starts no engine: the core runs the moves, the trials and the lab's
// search.
package tui
