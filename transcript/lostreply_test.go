package transcript

import (
	"strconv"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
)

// TestGoldensPlainLostReply: the lost-reply transcript on the embedded
// server, every story: the lost replies say the loss is simulated, each
// story asks its own question, and the readouts and verdicts follow the
// replies (testdata/plain-lost-reply.golden, tokens from seed 1).
func TestGoldensPlainLostReply(t *testing.T) {
	out := plainOf(t, embedded(t), "lost-reply", PlainOptions{})
	if n, sim := strings.Count(out, "outcome unknown (simulated)"), strings.Count(out, "(simulated)"); n != 10 || sim != n {
		t.Errorf("%d lost replies, %d said to be simulated; want one a story (10), each simulated", n, sim)
	}
	if n := strings.Count(out, "[predict: "); n != 10 {
		t.Errorf("the transcript asks %d questions, want one a story (10):\n%s", n, out)
	}
	golden(t, "plain-lost-reply", out)
}

// TestPlainAsksEveryQuestion: -plain and the handout (-plain -questions)
// ask the question of every story that has one, in the stories' order,
// not only the scene's first: the transcript answers each right after
// its move; the handout numbers them, stops each story at its own, and
// the answer key answers each under its number.
func TestPlainAsksEveryQuestion(t *testing.T) {
	sc := scenes.Find("lost-reply")
	text, err := content.LoadHandout(sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	var questions []string
	for _, p := range sc.Stories() {
		var labels []string
		for _, m := range sc.Build(p).Moves {
			labels = append(labels, sim.MoveLabel(m))
		}
		if sc.PredictAt(labels) >= 0 {
			questions = append(questions, words(sc.Question(text, p, "predict")))
		}
	}
	if len(questions) < 4 {
		t.Fatalf("lost-reply's stories ask %d questions", len(questions))
	}
	plain := words(plainOf(t, embedded(t), sc.ID, PlainOptions{}))
	at := 0
	for i, q := range questions {
		j := strings.Index(plain[at:], "[predict: "+q+"]")
		if j < 0 {
			t.Fatalf("-plain does not ask question %d, %q, after the one before", i+1, q)
		}
		at += j
		next := strings.Index(plain[at:], "== ")
		if answer := strings.Index(plain[at:], "[the replies answer: "); answer < 0 || next >= 0 && answer > next {
			t.Errorf("-plain does not answer question %d in its story", i+1)
		}
	}
	out := plainOf(t, embedded(t), sc.ID, PlainOptions{Questions: true})
	handout, key, ok := strings.Cut(out, "\nanswer key\n")
	if !ok {
		t.Fatal("the handout has no answer key")
	}
	handout, key = words(handout), words(key)
	at = 0
	for i, q := range questions {
		n := strconv.Itoa(i + 1)
		j := strings.Index(handout[at:], "question "+n+": "+q)
		if j < 0 {
			t.Fatalf("the handout does not ask question %s, %q, after the one before", n, q)
		}
		at += j
		if !strings.Contains(handout[at:], "(the story goes on in the answer key, question "+n+")") {
			t.Errorf("the handout's story %s does not stop at its question", n)
		}
		if !strings.Contains(key, "question "+n+" (lost-reply): the replies answer: ") {
			t.Errorf("the answer key does not answer question %s", n)
		}
	}
	if strings.Contains(handout, "the replies answer") || strings.Contains(handout, "verdict:") {
		t.Errorf("the handout gives an answer away:\n%s", handout)
	}
}

// TestPlainAnswersAfterTheReplyThatShowsIt: a renewal whose reply was lost
// shows nothing of what the server did, so the transcript's answer line
// comes after a reply that does (B's SET and PTTL), never right after the
// lost reply; the other stories answer right after their decisive reply.
func TestPlainAnswersAfterTheReplyThatShowsIt(t *testing.T) {
	out := plainOf(t, embedded(t), "lost-reply", PlainOptions{})
	lines := strings.Split(out, "\n")
	answers := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "[the replies answer: ") {
			continue
		}
		answers++
		// the reply line before it, its continuation lines joined
		j := i - 1
		for j > 0 && strings.HasPrefix(lines[j], "    ") {
			j--
		}
		before := strings.Join(lines[j:i], " ")
		if strings.Contains(before, "outcome unknown (simulated)") || !strings.Contains(before, "→") {
			t.Errorf("line %d answers right after %q, which shows nothing of the answer:\n%s", i+1, before, out)
		}
	}
	if answers != 10 {
		t.Errorf("%d answer lines, want one a story (10):\n%s", answers, out)
	}
}
