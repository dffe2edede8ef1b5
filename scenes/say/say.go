// Package say holds what the reader of a scene says, as plain data: the
// tone of a line, an actor's card, what a scene has shown of each lock
// property. The scenes fill it in; the screen and the transcripts draw it.
// It imports nothing, so every layer may use it.
package say

// Tone is how a card, a log line or a verdict reads: plain, good, bad, a
// warning, or dim.
type Tone int

const (
	Plain Tone = iota
	Good
	Bad
	Warn
	Dim
)

// Card is one actor's box: its name, then up to two lines (its token, what
// happened to it), toned by outcome.
type Card struct {
	Name  string
	Lines []string
	Tone  Tone
}

// Prop is what a scene has shown of one lock property.
type Prop int

const (
	Untested Prop = iota // nothing in the scene has put it to the test
	Held                 // tested, and it held
	Broken               // the scene observed it fail
	Absent               // the design in play does not offer it at all
)

// PropNames are the three properties, in scoreboard order.
func PropNames() [3]string {
	return [...]string{"mutual exclusion", "deadlock freedom", "fault tolerance"}
}
