package transcript

import (
	"strings"
	"testing"
)

// TestGoldensPlainLostReply: the lost-reply transcript on the embedded
// server, every story: the lost replies say the loss is simulated, the
// question is asked once, and the readouts and verdicts follow the
// replies (testdata/plain-lost-reply.golden, tokens from seed 1).
func TestGoldensPlainLostReply(t *testing.T) {
	out := plainOf(t, embedded(t), "lost-reply", PlainOptions{})
	if n, sim := strings.Count(out, "the reply was lost"), strings.Count(out, "(simulated)"); n != 10 || sim != n {
		t.Errorf("%d lost replies, %d said to be simulated; want one a story (10), each simulated", n, sim)
	}
	if strings.Count(out, "[predict: ") != 1 {
		t.Errorf("the transcript should ask its question once:\n%s", out)
	}
	golden(t, "plain-lost-reply", out)
}
