package transcript

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"
)

// plainOf is scene id's transcript on b with seed 1.
func plainOf(t *testing.T, b *sim.Backend, id string, o PlainOptions) string {
	t.Helper()
	var out bytes.Buffer
	if err := PlainWith(context.Background(), &out, b, id, 1, o); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestGoldensPlain: the fencing transcript (its start line, the counter's
// safety expiry explained, lines wrapped at 80 columns) and the gc-pause
// handout of -plain -questions (the story up to the question, the answer
// key after it) are compared with testdata/plain-*.golden.
func TestGoldensPlain(t *testing.T) {
	golden(t, "plain-fencing", plainOf(t, embedded(t), "fencing", PlainOptions{}))
	golden(t, "plain-gc-pause-questions", plainOf(t, embedded(t), "gc-pause", PlainOptions{Questions: true}))
}

// TestPlainQuestions: with Questions, nothing before the answer key
// answers a question: not B's reply, not the replies' answer, not the
// intro (which tells the story); the key has each answer, numbered as the
// questions are, and the story's rest. The quiz's classes go there too.
func TestPlainQuestions(t *testing.T) {
	t.Parallel()
	text := plainOf(t, embedded(t), "", PlainOptions{Questions: true})
	checkNoKeyMention(t, "-plain -questions", text)
	handout, key, ok := strings.Cut(text, "\nanswer key\n")
	if !ok {
		t.Fatalf("no answer key:\n%s", text)
	}
	flat := words(handout)
	// each scene that asks: its part of the handout holds no answer
	var asking []string
	for _, part := range strings.Split(handout, strings.Repeat("=", 72)) {
		if !strings.Contains(part, "your answer:") {
			continue
		}
		asking = append(asking, words(part))
		// each story that asks stops at its question (a story before the
		// first that lacks the decisive move answers none, and is whole)
		for _, story := range strings.Split(part, "\n== ") {
			if !strings.Contains(story, "your answer:") {
				continue
			}
			if story := words(story); strings.Contains(story, "verdict:") || strings.Contains(story, "the replies answer") || strings.Contains(story, "recap:") {
				t.Errorf("a story's handout gives its answer away:\n%s", story)
			}
		}
	}
	gcPause := ""
	for _, part := range asking {
		if strings.Contains(part, "locksim · gc-pause ·") {
			gcPause = part
		}
	}
	for _, gone := range []string{
		"dbe5882e2579683432c1bfc525454add NX PX 30000 → OK", // gc-pause: B's grant
		"STALE token 33",                // fencing: the refusal
		"gets OK. A wakes with no idea", // the gc-pause intro
	} {
		if strings.Contains(gcPause, gone) {
			t.Errorf("the handout gives away %q", gone)
		}
	}
	if strings.Contains(flat, "key: correctness") || len(asking) < 8 {
		t.Errorf("the quiz's classes are in the handout, or few scenes ask (%d)", len(asking))
	}
	for _, want := range []string{"question 1: ", "What does B get? 1) (nil): A's key is still there, so B is refused", "your answer:", "start: A takes the lock with a 30 s TTL"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the handout lacks %q", want)
		}
	}
	n := strings.Count(handout, "\nquestion ")
	if n < 10 || strings.Count(key, "\nquestion ") != n {
		t.Errorf("%d questions in the handout, %d in the key", n, strings.Count(key, "\nquestion "))
	}
	flatKey := words(key)
	for _, want := range []string{"(gc-pause): the replies answer: 2) OK: A's key has expired, so B gets the lock", "STALE token 33, seen 34", "verdict:", "recap:"} {
		if !strings.Contains(flatKey, want) {
			t.Errorf("the answer key lacks %q", want)
		}
	}
}

// TestWrapColumns: a long transcript line goes on indented by four
// spaces, prose by its own indent, a word wider than the page is cut.
func TestWrapColumns(t *testing.T) {
	got := wrapColumns("t=+0.000s A> SET "+strings.Repeat("k", 30)+" "+strings.Repeat("v", 32)+" NX PX 30000 → OK\n  "+strings.TrimSpace(strings.Repeat("word ", 20))+"\n"+strings.Repeat("x", 90), 40)
	want := "t=+0.000s A> SET\n    kkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n    vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv NX\n    PX 30000 → OK\n" +
		"  word word word word word word word\n  word word word word word word word\n  word word word word word word\n" +
		strings.Repeat("x", 40) + "\n" + strings.Repeat("x", 40) + "\n" + strings.Repeat("x", 10)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPlainLiveUnits: on a live server the transcript says that t=+ is
// story time and labels every duration on the wire and every PTTL read
// back with its story time; the distributed story names where its nodes
// keep their keys.
func TestPlainLiveUnits(t *testing.T) {
	url := simtest.StartRedis(t)
	b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(20))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	text := words(plainOf(t, b, "fencing", PlainOptions{}))
	for _, want := range []string{
		"units: t=+ is story time",
		"PX 1500 on the wire = 30 s of story",
		"1500 ms on the wire = 30 s of story",
		"PX 180000 → OK [180000 ms on the wire = 3600 s of story]",
		"resource:fence = \"34\" · PTTL ",
		"start: The setup's SET starts the counter",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the live transcript lacks %q:\n%s", want, text)
		}
	}
	// the transcript reads nothing between moves: the core never holds
	// its clock (a hold would add its own EVALSHA and stretch the story)
	if strings.Contains(text, "held while you read") {
		t.Errorf("the live transcript held the story's clock:\n%s", text)
	}
	if !strings.Contains(text, "on the wire = 3") || strings.Contains(text, "PTTL 178") && !strings.Contains(text, "of story") {
		t.Errorf("the fence's PTTL is not labelled:\n%s", text)
	}
	red := words(plainOf(t, b, "redlock", PlainOptions{}))
	if want := "keys under " + b.Prefix + "node-A: to " + b.Prefix + "node-E:"; !strings.Contains(red, want) {
		t.Errorf("the redlock transcript lacks %q:\n%s", want, red)
	}
}

// words is a transcript with its lines, which wrap at 80 columns, joined
// by single spaces: a test reads it as the words it says.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestPlainOneSetting: -plain -scene gc-pause -set pause=70s plays that
// story alone, not every combination of the settings.
func TestPlainOneSetting(t *testing.T) {
	text := plainOf(t, embedded(t), "gc-pause", PlainOptions{Settings: scenes.Params{"pause": 1}})
	if n := strings.Count(text, "\n== "); n != 1 || !strings.Contains(text, "== pause: 70 s, TTL: 30 s ==") {
		t.Errorf("want the one story with pause 70 s, got %d stories:\n%s", n, text)
	}
}

// TestPlainPosition: a learner's position in gc-pause with B crashed
// right after its SET prints the whole story through the core: the own
// move named up front and in the log where it went in, B's write and
// release gone from what follows it, A's write taken, and the prediction
// its reader gave at the question. Without the reader's answer it stops at
// the question, whatever the position's author predicted.
func TestPlainPosition(t *testing.T) {
	pos := play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1, Step: 2,
		Own:        []play.Own{{At: 4, Kind: "crash", Actor: "B"}},
		Prediction: &play.Prediction{Chosen: 1}}
	var out bytes.Buffer
	if err := PlainPosition(context.Background(), &out, embedded(t), pos); err != nil {
		t.Fatal(err)
	}
	stopped := words(out.String())
	if !strings.HasSuffix(stopped, "[the story stops at its question: to answer it and play on, give -answer N, N your choice's number]") ||
		strings.Contains(stopped, "B> SET") || strings.Contains(stopped, "your prediction") {
		t.Errorf("at its open question the position's transcript goes on, or does not say how to:\n%s", out.String())
	}
	out.Reset()
	if err := PlainPositionWith(context.Background(), &out, embedded(t), pos, PositionOptions{Role: play.Code, Answer: 1}); err != nil {
		t.Fatal(err)
	}
	text := words(out.String())
	for _, want := range []string{
		"your own moves, in the order made: crash B after 4 moves",
		"[your prediction: 1) (nil): A's key is still there, so B is refused]",
		"B> SET resource:lock dbe5882e2579683432c1bfc525454add NX PX 30000 → OK",
		"[the replies answer: 2) OK: A's key has expired, so B gets the lock]",
		"[B crashed",
		"A→resource> EVAL <write> 1 resource:state A edit-A 3600000 → (integer) 1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the position's transcript lacks %q:\n%s", want, out.String())
		}
	}
	for _, gone := range []string{"B→resource>", "B> EVAL <release>"} {
		if strings.Contains(text, gone) {
			t.Errorf("B crashed before %q, yet the transcript has it:\n%s", gone, out.String())
		}
	}
	if strings.Index(text, "B> SET") > strings.Index(text, "[B crashed") {
		t.Errorf("the crash is not where it went in, after B's SET:\n%s", out.String())
	}
}

// TestPlainPositionRefused: a position Check refuses, and a quiz's, print
// nothing and say why.
func TestPlainPositionRefused(t *testing.T) {
	for _, pos := range []play.Position{
		{Version: play.PositionVersion, Scene: "gc-pause", Own: []play.Own{{At: 99, Kind: "crash", Actor: "B"}}},
		{Version: play.PositionVersion, Scene: "choose"},
	} {
		var out bytes.Buffer
		if err := PlainPosition(context.Background(), &out, embedded(t), pos); err == nil || out.Len() > 0 {
			t.Errorf("%+v: err %v, printed %q", pos, err, out.String())
		}
	}
}
