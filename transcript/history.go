package transcript

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
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
// by timeout); and writes locksim's page of it to w (see historyPage):
// one HTML file for a browser, naming the scene, the story and the three
// verdicts, around porcupine's visualisation with the story's faults as
// annotations. It returns the report the page shows. A quiz scene has no
// history: that is an error. At or before the story's open question the
// page holds what the disclosure rule holds (play.Disclose, the History
// role): no verdict, no porcupine view (historyWaits), no length; the
// report is then empty. The clients' side stays, as the screen's history
// page keeps its tracks: what each client sent and got back, as the log
// shows it (clientSide).
func History(ctx context.Context, w io.Writer, b *sim.Backend, pos play.Position, end bool, timeout time.Duration) (check.Report, error) {
	sc := scenes.Find(pos.Scene)
	if sc == nil {
		return check.Report{}, fmt.Errorf("unknown scene %q", pos.Scene)
	}
	if !sc.Sends() {
		return check.Report{}, fmt.Errorf("scene %s is a quiz: it sends no command, so it has no history", sc.ID)
	}
	s, err := openStory(ctx, b, pos, content.Text{}, nil)
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
	// the page stands at the step played to: the disclosure rule says what
	// it may show there. While the story's question is open there, the
	// checker's verdicts, porcupine's view (its replies, its
	// linearization points, each model's state, so the keys) and the
	// story's length answer it, as the screen holds them
	at := pos
	at.Step = s.Snap.Pos
	shown := play.Disclose(at, play.History)
	about := historyAbout{Scene: sc.ID, Title: s.Text.Get("title"), Story: sc.Describe(s.Params), Seed: s.Seed,
		Step: s.Snap.Pos, Steps: len(s.Snap.Moves), Porcupine: historyWaits, Waits: true}
	if _, more := shown.Drawn(len(s.Snap.Moves)); more {
		about.Ahead = true
	}
	if !shown.Checked || !shown.State {
		// the client side stays: what each client sent and got back, as
		// the log and the transcript show it before the question
		about.Clients = clientSide(s.Snap, b.Live())
		if err := writeHistoryPage(w, about); err != nil {
			return check.Report{}, err
		}
		return check.Report{}, nil
	}
	h := check.FromSnapshot(s.Snap)
	var vis strings.Builder
	if err := check.Visualize(&vis, h, timeout); err != nil {
		return check.Report{}, err
	}
	about.Porcupine, about.Waits = vis.String(), false
	rep := check.Check(h, timeout)
	for _, f := range rep.Findings {
		about.Verdicts = append(about.Verdicts, historyVerdict{Model: f.Model.Name, Short: f.Short(), Sentence: f.Sentence,
			Broken: f.Result == check.NotLinearizable})
		about.Broken = about.Broken || f.Result == check.NotLinearizable
	}
	if err := writeHistoryPage(w, about); err != nil {
		return check.Report{}, err
	}
	return rep, nil
}

// historyAbout is what locksim's history page says around porcupine's.
type historyAbout struct {
	Scene, Title, Story string
	Seed                uint64
	Step, Steps         int
	// Ahead: the story's length is not shown (the question is open)
	Ahead bool
	// Waits: porcupine's view is held back (Porcupine is historyWaits),
	// so the page's text says what stands there instead of reading it
	Waits bool
	// Clients are the clients' side of the history while porcupine's view
	// waits for the answer (historyWaits): each client's commands and
	// replies, as its lines of the log
	Clients  []historyClient
	Verdicts []historyVerdict
	// Broken is set when a model could not place every operation: the page
	// opens porcupine's view at its first error
	Broken bool
	// Porcupine is porcupine's own page, shown whole in a frame: wrapped,
	// never edited
	Porcupine string
}

// historyClient is one client's side of the history: its commands as
// sent and their replies, a line each.
type historyClient struct {
	Name  string
	Lines []string
}

// clientSide is each client's side of a story's events, in the order the
// clients first acted: the lines of the plain transcript of its commands
// (plainEventOn), with no reading of the server's state (no lease, no
// model, no verdict) and without how a live server played a fault
// (sim.Event.Simulated), which the transcript holds for the answer too.
func clientSide(snap sim.Snapshot, live bool) []historyClient {
	var out []historyClient
	at := map[string]int{}
	for _, e := range snap.Events {
		if e.Kind != sim.Command || e.Actor == "" {
			continue
		}
		i, ok := at[e.Actor]
		if !ok {
			i = len(out)
			at[e.Actor] = i
			out = append(out, historyClient{Name: e.Actor})
		}
		e.Simulated = ""
		out[i].Lines = append(out[i].Lines, strings.TrimSpace(plainEventOn(e, snap.Events, snap.Scale, live)))
	}
	return out
}

type historyVerdict struct {
	Model, Short, Sentence string
	Broken                 bool
}

// historyText escapes a string for the page's text and its quoted
// attributes with the table html/template uses for both (html.EscapeString's
// five characters, and '+' and NUL as well), so the page is the bytes the
// template it replaced wrote. The page is spliced by hand, not executed from
// html/template: one template Execute made the linker keep every exported
// method of every type the binary holds (go-redis's clients among them),
// about 11 MB of the binary.
var historyText = strings.NewReplacer(
	"\x00", "\uFFFD",
	`"`, "&#34;",
	"&", "&amp;",
	"'", "&#39;",
	"+", "&#43;",
	"<", "&lt;",
	">", "&gt;",
)

// writeHistoryPage writes locksim's page around porcupine's visualisation:
// the fixed parts of the page as written, every value of a escaped by
// historyText. The page loads nothing from outside the file.
func writeHistoryPage(w io.Writer, a historyAbout) error {
	var b strings.Builder
	e := historyText.Replace
	b.WriteString(historyHead)
	b.WriteString(e(a.Scene))
	b.WriteString(historyTitleEnd)
	b.WriteString(e(a.Scene) + ": " + e(a.Title))
	b.WriteString("</h1>\n<p class=\"story\">")
	if a.Story != "" {
		// a scene of one story (fencing) has no settings to name it by
		b.WriteString("the story: " + e(a.Story) + " · ")
	}
	steps := fmt.Sprint(a.Steps)
	if a.Ahead {
		steps = "?"
	}
	fmt.Fprintf(&b, "seed %d · played to step %d of %s</p>\n<ul>\n", a.Seed, a.Step, steps)
	for _, v := range a.Verdicts {
		b.WriteString("<li")
		if v.Broken {
			b.WriteString(` class="broken"`)
		}
		b.WriteString("><b>" + e(v.Model) + ": " + e(v.Short) + "</b>. " + e(v.Sentence) + "</li>\n")
	}
	if len(a.Clients) > 0 {
		b.WriteString(historyClientsHead)
		for _, c := range a.Clients {
			b.WriteString("<li><b>" + e(c.Name) + "</b>")
			for _, l := range c.Lines {
				b.WriteString("<br><code>" + e(l) + "</code>")
			}
			b.WriteString("</li>\n")
		}
	}
	if a.Waits {
		b.WriteString(historyTermsWaiting)
	} else {
		b.WriteString(historyTerms)
	}
	b.WriteString(e(a.Porcupine))
	b.WriteString(historyScript)
	// the padded literal is what html/template wrote for a bool in script
	fmt.Fprintf(&b, "  if ( %t  && jump)", a.Broken)
	b.WriteString(historyEnd)
	_, err := io.WriteString(w, b.String())
	return err
}

// historyClientsHead heads the clients' side of the history while the
// question is open.
const historyClientsHead = `<li class="clients">what each client sent and got back so far, as the log shows it (the server's side waits for the answer):</li>
`

// historyWaits stands in porcupine's frame while the question is open.
const historyWaits = `<!doctype html><html lang="en"><meta charset="utf-8"><body style="font: 15px system-ui, sans-serif; color: #555; padding: 12px 20px">` +
	`<p>The checked history waits for the answer to the story's question: its replies, the models' states and verdicts answer it. Write it from a step past the question.</p></body></html>`

// historyTermsWaiting stands for historyTerms while porcupine's view
// waits for the answer (historyWaits): the page does not say "Below,
// porcupine's view", nor tell how to read bars it does not show.
const historyTermsWaiting = `</ul>
<p class="terms">Below, where porcupine's view of the checked history goes: it waits for the answer to the story's question.</p>
</header>
<iframe id="porcupine" title="the checked history, waiting for the answer" srcdoc="`

// The fixed parts of the history page, in the order writeHistoryPage
// writes them between its values. The script fits porcupine's timeline to
// the window's width (down to two thirds of its size) so a late operation
// is not off screen, then opens it at the first error, if any.
const (
	historyHead = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>locksim · `
	historyTitleEnd = ` · the history checked</title>
<style>
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: #1d1d1f; background: #fafafa; display: flex; flex-direction: column; height: 100vh; }
header { padding: 12px 20px 8px; border-bottom: 1px solid #ddd; background: #fff; }
h1 { font-size: 19px; margin: 0 0 2px; }
p { margin: 4px 0; }
ul { margin: 6px 0; padding-left: 20px; }
li.broken b { color: #b00020; }
.story, .terms { color: #555; font-size: 13.5px; }
iframe { flex: 1; width: 100%; border: 0; }
</style>
</head>
<body>
<header>
<h1>locksim · `
	historyTerms = `</ul>
<p class="terms">Below, porcupine's view: each model on rows of its own, one row per client, time running right; a bar is one operation, from its call to its reply. "LP" is a linearization point, the instant an operation takes effect in the one order the model found: "Valid LP" where it could place the operation, "Invalid LP" where no order explains the replies (the break). Click a bar to see the model's state after it.</p>
</header>
<iframe id="porcupine" title="porcupine's visualisation of the history" srcdoc="`
	historyScript = `"></iframe>
<script>
document.getElementById("porcupine").addEventListener("load", function () {
  var d = this.contentDocument;
  if (!d) { return; }
  var wide = d.documentElement.scrollWidth, room = this.clientWidth;
  if (wide > room) { d.body.style.zoom = Math.max(room / wide, 0.66); }
  var jump = d.getElementById("jump-link");
`
	historyEnd = ` { jump.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
});
</script>
</body>
</html>
`
)
