package lab

import "testing"

// TestBreakSentence: a break in one sentence counts its moves and its
// faults, a lost reply among them, names the faults, and ends on what
// broke; with no fault it says so.
func TestBreakSentence(t *testing.T) {
	b := &Break{Property: NoForeignRelease, Why: "A's release: DEL deleted B's lock", Moves: []Move{
		{Client: "A", Label: "acquire"}, {Client: "A", Fault: LostReply, Label: "release: GET"},
		{Client: "A", Fault: PausePast}, {Client: "B", Label: "acquire"}, {Client: "A", Label: "release: DEL"}}}
	want := "Shortest break (5 moves, 2 faults: A release: GET (reply lost), A pauses until just past the TTL): A's release: DEL deleted B's lock."
	if got := b.Sentence(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	b = &Break{Property: MutualExclusion, Why: "A and B act as holder at the same time", Moves: []Move{
		{Client: "A", Label: "acquire: GET"}, {Client: "B", Label: "acquire: GET"}}}
	if got := b.Sentence(); got != "Shortest break (2 moves, no fault): A and B act as holder at the same time." {
		t.Errorf("got %q", got)
	}
}
