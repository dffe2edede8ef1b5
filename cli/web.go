// The verbs' web forms: the pages the web front serves at /NAME/ARGS…
// (serve.Config.Web.Pages), each the same core as its command-line and
// SSH forms (writeTranscript, castStory) with the web's arguments.

package cli

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"strconv"
	"strings"

	"locksim/play"
	"locksim/scenes"
	"locksim/serve"
	"locksim/sim"
	"locksim/storycode"
	"locksim/transcript"
	"locksim/web"
)

// webPages are the pages: /plain/ the scenes, /plain/SCENE a scene's
// handout (-plain -questions) and /plain/s/CODE a story code's
// transcript, as HTML; /cast/CODE a story code's asciicast.
func webPages() map[string]serve.Page {
	return map[string]serve.Page{
		"plain": {Type: "text/html; charset=utf-8", Command: serve.Command{Run: plainWeb}},
		"cast":  {Type: "application/x-asciicast", Command: serve.Command{Args: "CODE", Run: castWeb}},
	}
}

// plainWeb is /plain/…: the scenes' list, a scene's handout, or a story
// code's transcript, as an accessible page (web.Handout). While a class on
// this server is asked a scene's question (c.Held), the scene's handout
// is the story to its question (/plain/ask/SCENE), and a code's page that
// would go past the question is refused (heldPast).
func plainWeb(ctx context.Context, c serve.Call) int {
	switch {
	case len(c.Args) == 0:
		var text strings.Builder
		for _, sc := range scenes.All() {
			dive, title := scenes.Heading(sc.ID)
			fmt.Fprintf(&text, "<li><a href=\"/plain/%s\">%s</a> · %s</li>\n", sc.ID, html.EscapeString(title), html.EscapeString(dive))
		}
		fmt.Fprintf(c.Out, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>locksim: the transcripts</title>\n</head>\n<body>\n<main>\n<h1>locksim: the transcripts</h1>\n<p>Each scene as a handout: the story to its question, the answer in a part you open after answering.</p>\n<ul>\n%s</ul>\n<p><a href=\"/\">the course in a terminal</a></p>\n</main>\n</body>\n</html>\n", text.String())
		return 0
	case len(c.Args) == 1 && c.Held[c.Args[0]]:
		// a class here is asked the scene's question: its students get
		// the story to it, as the link beside their terminal gives it
		return plainWeb(ctx, serve.Call{Name: c.Name, Args: []string{"ask", c.Args[0]}, Out: c.Out, Err: c.Err,
			Who: c.Who, Backend: c.Backend, Held: c.Held})
	case len(c.Args) == 1:
		sc := scenes.Find(c.Args[0])
		if sc == nil {
			return c.Usage("unknown scene %q (/plain/ lists them)", c.Args[0])
		}
		var text bytes.Buffer
		err := onBackendErr(ctx, c, func(b *sim.Backend) error {
			return writeTranscript(ctx, &text, b, config{scene: sc.ID, seed: 1, questions: true}, transcript.PositionOptions{})
		})
		if err != nil {
			return c.Fail(err)
		}
		_, title := scenes.Heading(sc.ID)
		if err := web.Handout(c.Out, "locksim · "+title, text.String()); err != nil {
			return 1
		}
		return 0
	case len(c.Args) == 2 && c.Args[0] == "ask":
		// the link beside a tab's terminal: the story to its question only
		sc := scenes.Find(c.Args[1])
		if sc == nil {
			return c.Usage("unknown scene %q (/plain/ lists them)", c.Args[1])
		}
		var text bytes.Buffer
		if err := onBackendErr(ctx, c, func(b *sim.Backend) error {
			return writeTranscript(ctx, &text, b, config{scene: sc.ID, seed: 1, questions: true}, transcript.PositionOptions{})
		}); err != nil {
			return c.Fail(err)
		}
		_, title := scenes.Heading(sc.ID)
		if err := web.Questions(c.Out, "locksim · "+title+" · to its question", text.String()); err != nil {
			return 1
		}
		return 0
	case len(c.Args) == 2 && c.Args[0] == "s":
		pos, err := storycode.Decode(c.Args[1])
		if err != nil {
			return c.Usage("%v", err)
		}
		if pos.Quiz != nil {
			return c.Usage("the code is a place in the quiz %s, which has no story to print", pos.Scene)
		}
		// ?answer=N answers the question a code at or before it stops at
		answer := 0
		if v := c.Query.Get("answer"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return c.Usage("?answer= takes a choice's number, 1 or more, got %q", v)
			}
			answer = n
		}
		if r := transcript.AnswerRefusal(pos, play.Code, answer); r != "" {
			return c.Usage("?answer=: %s", r)
		}
		if r := heldPast(c, pos, answer); r != "" {
			return c.Usage("%s", r)
		}
		var text bytes.Buffer
		if err := onBackendErr(ctx, c, func(b *sim.Backend) error {
			return writeTranscript(ctx, &text, b, config{position: &pos}, transcript.PositionOptions{Role: play.Code, Answer: answer,
				GoOn: webGoOn(c.Args[1])})
		}); err != nil {
			return c.Fail(err)
		}
		if err := web.Handout(c.Out, "locksim · the story of "+c.Args[1], text.String()); err != nil {
			return 1
		}
		return 0
	}
	return c.Usage("the pages are /plain/SCENE, /plain/ask/SCENE and /plain/s/CODE")
}

// heldPast is why a page or command of the story at pos (answered with
// answer, 0 for none) is not served while a class of this server's class
// store is asked its scene's question (serve.Call.Held): it would go past the question
// (a code past it, a race's code with its outcome, or an answer given),
// which the class has not seen answered, as class.Asking reads the
// instructor's place. "" when it may be served.
func heldPast(c serve.Call, pos play.Position, answer int) string {
	sc := scenes.Find(pos.Scene)
	if sc == nil || !c.Held[sc.ID] {
		return ""
	}
	at := play.QuestionAt(sc, scenes.Params(pos.Settings), pos.Own)
	// a race's code that carries its outcome has run its SETs: past it
	ran := sc.FiresAtOnce() && pos.Race != nil
	if answer == 0 && !ran && (at < 0 || pos.Step <= at) {
		return ""
	}
	return heldLine(sc.ID)
}

// heldLine says why a page or command of scene goes no further than its
// question: a class of this server's store (here or on another server
// of it) is asked it.
func heldLine(scene string) string {
	return "a class is asked the question of " + scene + ": the story past it waits for the class's answer"
}

// onBackendErr runs write on a server of the session's kind.
func onBackendErr(ctx context.Context, c serve.Call, write func(b *sim.Backend) error) error {
	b, done, err := c.Backend()
	if err != nil {
		return err
	}
	defer done()
	return write(b)
}

// castWeb is /cast/CODE: the story a code carries as an asciicast v2
// file at 80x24, as ssh HOST cast CODE writes it.
func castWeb(ctx context.Context, c serve.Call) int {
	if len(c.Args) != 1 {
		return c.Usage("the page is /cast/CODE")
	}
	return castSSH(ctx, c)
}
