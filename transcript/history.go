package transcript

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"locksim/check"
	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
)

// History plays pos's story on b headless, to pos.Step or, when end is
// set, to the story's end; reads what it sent and got back as a history of
// operations; checks it against each of the checker's models (each bounded
// by timeout); and writes porcupine's visualisation of it to w: one HTML
// file for a browser, with the story's faults as annotations. It returns
// the report the page shows. A quiz scene has no history: that is an error.
func History(ctx context.Context, w io.Writer, b *sim.Backend, pos play.Position, end bool, timeout time.Duration) (check.Report, error) {
	sc := scenes.Find(pos.Scene)
	if sc == nil {
		return check.Report{}, fmt.Errorf("unknown scene %q", pos.Scene)
	}
	if !sc.Sends() {
		return check.Report{}, fmt.Errorf("scene %s is a quiz: it sends no command, so it has no history", sc.ID)
	}
	s, err := openStory(ctx, b, pos, content.Text{})
	if err != nil {
		return check.Report{}, err
	}
	defer s.Close(context.WithoutCancel(ctx))
	d := play.Driver{S: s}
	for s.Snap.Pos < len(s.Snap.Moves) && (end || s.Snap.Pos < pos.Step) {
		if err := ctx.Err(); err != nil {
			return check.Report{}, err
		}
		if err := step(d); err != nil {
			return check.Report{}, err
		}
	}
	if s.Snap.Err != "" {
		return check.Report{}, errors.New("reading keys back: " + s.Snap.Err)
	}
	h := check.FromSnapshot(s.Snap)
	if err := check.Visualize(w, h, timeout); err != nil {
		return check.Report{}, err
	}
	return check.Check(h, timeout), nil
}
