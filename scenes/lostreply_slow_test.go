package scenes

import (
	"context"
	"testing"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/simtest"
)

// TestLostReplyAnswersLive: on the redis-server on PATH (Redis 7), each
// lost-reply story that asks answers its question as the embedded server
// does, read from the live replies once the question's move ran: B's
// (nil) at 10 s against A's key with its TTL, A's token from SET … NX …
// GET and from GET, B's lock deleted by a blind DEL. A story whose
// command the server lacks (DELEX) is skipped, and so are the renewal
// stories, whose 1 s margins a loaded machine can stall across
// (TestSameOnEveryServer plays them again when it does): the lost SET's
// and DEL's deadlines are 20 s of story time or more away.
func TestLostReplyAnswersLive(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	srv := simtest.StartServer(t)
	sc := Find("lost-reply")
	text, err := content.Load(sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range lostStories(t) {
		if st := sc.Value(c.p, "story"); st != lrSet && st != lrDel {
			continue
		}
		t.Run(sc.Describe(c.p), func(t *testing.T) {
			o := simtest.LiveOptions(20)
			o.NoSweep = true
			live, err := sim.OpenLive(ctx, srv.URL, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { live.Close(context.Background()) })
			if r := firstRefusal(live.FormSupport(), sc.FormsNeeded(c.p)); r != "" {
				t.Skip(r)
			}
			var labels []string
			for _, m := range sc.Build(c.p).Moves {
				labels = append(labels, sim.MoveLabel(m))
			}
			at := sc.PredictAt(labels)
			run := sim.NewRun(live, sc.Script(c.p), 1)
			t.Cleanup(run.Close)
			if err := run.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			if err := run.Seek(ctx, at+1); err != nil {
				t.Fatal(err)
			}
			snap := run.Snapshot(ctx)
			if got := sc.Predict.Answer(Frame{Snap: snap, L: Fold(snap), P: c.p, Sel: -1, Text: text}); got != c.answer {
				t.Errorf("on %s the question's answer is %d, want %d (as embedded)", live.Name, got, c.answer)
			}
		})
	}
}
