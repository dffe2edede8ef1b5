// The verbs' SSH forms: ssh HOST NAME ARGS… without a terminal runs the
// table's verb of that name (serve.Config.Commands), with its arguments
// read from the command and its output on the client's stdout. Each runs
// the same core as its command-line form (writeTranscript, castStory,
// writeList); only the arguments and the one-line errors are SSH's own.

package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"locksim/play"
	"locksim/scenes"
	"locksim/serve"
	"locksim/sim"
	"locksim/storycode"
	"locksim/transcript"
	"locksim/tui"
)

// listSSH is list: every scene on one line each.
func listSSH(_ context.Context, c serve.Call) int {
	if len(c.Args) > 0 {
		return c.Usage("takes no arguments")
	}
	writeList(c.Out, true)
	return 0
}

// sceneArgs reads SCENE [SEED]; the seed is 1 without one, so a fetched
// text is the same each time.
func sceneArgs(c serve.Call) (*scenes.Scene, uint64, error) {
	if len(c.Args) < 1 || len(c.Args) > 2 {
		return nil, 0, errors.New("needs a scene id, and a seed if you like (ssh HOST list shows the ids)")
	}
	sc := scenes.Find(c.Args[0])
	if sc == nil {
		return nil, 0, fmt.Errorf("unknown scene %q (ssh HOST list shows them)", c.Args[0])
	}
	seed := uint64(1)
	if len(c.Args) == 2 {
		n, err := parseSeed("the seed", c.Args[1])
		if err != nil {
			return nil, 0, err
		}
		seed = n
	}
	return sc, seed, nil
}

// plainSSH is plain SCENE [SEED]: the scene's transcript, as -plain
// -scene SCENE -seed SEED prints it.
func plainSSH(ctx context.Context, c serve.Call) int {
	sc, seed, err := sceneArgs(c)
	if err != nil {
		return c.Usage("%v", err)
	}
	if c.Held[sc.ID] {
		// the transcript reads on past the question to its answer
		return c.Usage("%s", heldLine(sc.ID))
	}
	return onBackend(ctx, c, func(b *sim.Backend) error {
		return writeTranscript(ctx, c.Out, b, config{scene: sc.ID, seed: seed}, transcript.PositionOptions{})
	})
}

// codeArg reads the one story code a command takes (y shows it, a
// transcript ends each story with it).
func codeArg(c serve.Call, most int) (play.Position, error) {
	if len(c.Args) < 1 || len(c.Args) > most {
		return play.Position{}, errors.New("needs a story code, as y shows it or a transcript prints it")
	}
	return storycode.Decode(c.Args[0])
}

// storySSH is story CODE [-answer N]: the transcript of the story a code
// carries, as -story CODE -plain prints it: a code at or before its open
// question to the question, and with -answer N on to its end; on a
// terminal (ssh -t) the server opens the course there instead.
func storySSH(ctx context.Context, c serve.Call) int {
	answer := 0
	if len(c.Args) == 3 {
		n, err := strconv.Atoi(c.Args[2])
		if c.Args[1] != "-answer" || err != nil || n < 1 {
			return c.Usage("takes a story code, then -answer N if you like, N a choice's number; got %q", strings.Join(c.Args[1:], " "))
		}
		answer, c.Args = n, c.Args[:1]
	}
	pos, err := codeArg(c, 1)
	if err != nil {
		return c.Usage("%v", err)
	}
	if pos.Quiz != nil {
		return c.Usage("the code is a place in the quiz %s, which has no story to print; open it with ssh -t HOST story CODE", pos.Scene)
	}
	if r := transcript.AnswerRefusal(pos, play.Code, answer); r != "" {
		return c.Usage("-answer: %s", r)
	}
	if r := heldPast(c, pos, answer); r != "" {
		return c.Usage("%s", r)
	}
	return onBackend(ctx, c, func(b *sim.Backend) error {
		return writeTranscript(ctx, c.Out, b, config{position: &pos}, transcript.PositionOptions{Role: play.Code, Answer: answer,
			GoOn: sshGoOn(c.Args[0])})
	})
}

// onBackend runs write on a server of the session's kind and says how it
// ended: 0, or 1 with one line.
func onBackend(ctx context.Context, c serve.Call, write func(b *sim.Backend) error) int {
	b, done, err := c.Backend()
	if err != nil {
		return c.Fail(err)
	}
	defer done()
	if err := write(b); err != nil {
		return c.Fail(err)
	}
	return 0
}

// castSSH is cast CODE [WxH]: the story a code carries as an asciicast v2
// file, as -story CODE -cast - writes it, on an embedded server of its own
// whatever the server plays on: a cast is the same bytes for the same code
// only where the clock is virtual.
func castSSH(ctx context.Context, c serve.Call) int {
	pos, err := codeArg(c, 2)
	if err != nil {
		return c.Usage("%v", err)
	}
	if r := heldPast(c, pos, 0); r != "" {
		return c.Usage("%s", r)
	}
	cc := config{position: &pos, castW: 80, castH: 24}
	if len(c.Args) == 2 {
		w, h, ok := strings.Cut(c.Args[1], "x")
		var err1, err2 error
		cc.castW, err1 = strconv.Atoi(w)
		cc.castH, err2 = strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || cc.castW < tui.MinWidth || cc.castH < tui.MinHeight || cc.castW > maxCastW || cc.castH > maxCastH {
			return c.Usage("the size must be WxH from %dx%d to %dx%d, got %q", tui.MinWidth, tui.MinHeight, maxCastW, maxCastH, c.Args[1])
		}
	}
	b, err := sim.OpenEmbedded()
	if err != nil {
		return c.Fail(err)
	}
	defer b.Close(context.WithoutCancel(ctx))
	if err := castStory(ctx, c.Out, b, cc); err != nil {
		return c.Fail(err)
	}
	return 0
}

// cliSSH is cli SCENE [SEED]: the scene's story, played to its end with
// its default settings, as the redis-cli script the screen's y key saves;
// given a story code (y shows one), the code's story to its step.
func cliSSH(ctx context.Context, c serve.Call) int {
	if len(c.Args) == 1 && strings.Contains(c.Args[0], ".") {
		return cliCode(ctx, c)
	}
	sc, seed, err := sceneArgs(c)
	if err != nil {
		return c.Usage("%v", err)
	}
	if !sc.Sends() {
		return c.Usage("scene %s is a quiz: it sends no command to Redis", sc.ID)
	}
	if c.Held[sc.ID] {
		// the script plays the story to its end, past the question
		return c.Usage("%s", heldLine(sc.ID))
	}
	b, done, err := c.Backend()
	if err != nil {
		return c.Fail(err)
	}
	defer done()
	snap, err := storyEnd(ctx, b, sc, seed)
	if err != nil {
		return c.Fail(err)
	}
	_, script := transcript.Export(scenes.Export{}, false, sc.ID, seed, snap)
	if _, err := c.Out.Write(script); err != nil {
		return 1
	}
	return 0
}

// storyEnd plays sc's story with its default settings to its end, headless,
// and returns the last snapshot.
func storyEnd(ctx context.Context, b *sim.Backend, sc *scenes.Scene, seed uint64) (sim.Snapshot, error) {
	s, err := play.Open(ctx, play.Position{Version: play.PositionVersion, Scene: sc.ID}, play.Env{Backend: b, ID: 1, Seed: seed, Headless: true})
	if err != nil {
		return sim.Snapshot{}, err
	}
	defer s.Close(context.WithoutCancel(ctx))
	d := play.Driver{S: s}
	d.Run(s.Start(nil))
	d.Run(s.SeekTo(len(s.Snap.Moves)))
	if s.Err != "" {
		return sim.Snapshot{}, errors.New(s.Err)
	}
	return s.Snap, nil
}

// cliCode is cli CODE: the redis-cli script of the story a code carries,
// played to the code's step with the learner's own moves, as y would have
// saved it on a terminal of one's own.
func cliCode(ctx context.Context, c serve.Call) int {
	pos, err := storycode.Decode(c.Args[0])
	if err != nil {
		return c.Usage("%v", err)
	}
	if pos.Quiz != nil {
		return c.Usage("the code is a place in the quiz %s: it sends no command to Redis", pos.Scene)
	}
	if r := heldPast(c, pos, 0); r != "" {
		return c.Usage("%s", r)
	}
	b, done, err := c.Backend()
	if err != nil {
		return c.Fail(err)
	}
	defer done()
	s, err := play.Open(ctx, pos, play.Env{Backend: b, ID: 1, Options: play.Options{Predict: true}})
	if err != nil {
		return c.Fail(err)
	}
	defer s.Close(context.WithoutCancel(ctx))
	if err := (play.Driver{S: s}).Start(); err != nil {
		return c.Fail(err)
	}
	if len(s.Snap.Nodes) > 0 {
		return c.Usage("the story of %s runs on %d servers: one redis-cli cannot replay it", pos.Scene, len(s.Snap.Nodes))
	}
	// a code at or before its question is open to whoever fetches it: the
	// sources its EVALs would print wait, as on the story page
	if held := play.ScriptsAt(pos, play.Code, s.Snap.Scripts).Held; len(held) > 0 {
		return c.Usage("%s", play.ExportWaits(held))
	}
	_, script := transcript.Export(scenes.Export{}, false, s.Scene.ID, pos.Seed, s.Snap)
	if _, err := c.Out.Write(script); err != nil {
		return 1
	}
	return 0
}
