package transcript

import (
	"context"
	"html/template"
	"strings"
	"testing"
	"time"

	"locksim/play"
)

// hostile is what a page may be handed that must not become markup: a
// script, both quotes, an ampersand, a plus, a NUL and a broken UTF-8 byte.
const hostile = "<script>alert('x')</script> \"tok&en\" a+b \x00 \xff"

// TestHistoryPageEscapes: every value the page shows is escaped, in the
// text, the title and the frame's srcdoc attribute: a hostile scene, title,
// story, model, verdict and porcupine page come out as text, never markup,
// and the frame's attribute is not closed early.
func TestHistoryPageEscapes(t *testing.T) {
	a := historyAbout{Scene: hostile, Title: hostile, Story: hostile, Seed: 7, Step: 2, Steps: 5,
		Verdicts: []historyVerdict{{Model: hostile, Short: hostile, Sentence: hostile, Broken: true}}, Broken: true,
		Porcupine: `<html><body onload="x()">` + hostile + `</body></html>`}
	var b strings.Builder
	if err := writeHistoryPage(&b, a); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "<script>alert") || strings.Contains(page, `"tok`) || strings.Contains(page, "tok&en") ||
		strings.Contains(page, "\x00") || strings.Contains(page, `onload="`) {
		t.Errorf("a hostile value reached the page unescaped:\n%s", page)
	}
	const escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &#34;tok&amp;en&#34; a&#43;b \uFFFD \xff"
	if n := strings.Count(page, escaped); n != 8 {
		t.Errorf("the escaped value shows %d times, want 8 (title, heading twice, story, model, verdict, sentence, frame):\n%s", n, page)
	}
	if n := strings.Count(page, "<script>"); n != 1 {
		t.Errorf("the page has %d <script> elements, want its own 1", n)
	}
	if !strings.Contains(page, `srcdoc="&lt;html&gt;&lt;body onload=&#34;x()&#34;&gt;`) {
		t.Errorf("porcupine's page is not escaped whole into the frame's srcdoc:\n%s", page)
	}
	if !strings.Contains(page, `<li class="broken">`) || !strings.Contains(page, "if ( true  && jump)") {
		t.Errorf("a broken verdict is not marked, or the page does not open at the error:\n%s", page)
	}
}

// TestHistoryPageAsTheTemplateWrote: the page spliced by hand is the bytes
// html/template wrote from the page's former template (kept here, in the
// test only, as the reference), for a plain, a broken and a hostile history,
// but for the empty lines the template left where the script's comment was.
func TestHistoryPageAsTheTemplateWrote(t *testing.T) {
	ref := template.Must(template.New("history").Parse(formerHistoryPage))
	for _, a := range []historyAbout{
		{Scene: "race", Title: "Two clients, one lock", Story: "the default story", Seed: 1, Step: 4, Steps: 4,
			Verdicts:  []historyVerdict{{Model: "lease", Short: "linearizable", Sentence: "Every reply fits."}},
			Porcupine: "<html><body>porcupine</body></html>"},
		{Scene: "gc-pause", Title: "A pause", Story: "a pause of 40 s", Seed: 18446744073709551615, Step: 0, Steps: 9,
			Verdicts: []historyVerdict{{Model: "lease", Short: "not linearizable", Sentence: "No order.", Broken: true},
				{Model: "fenced", Short: "linearizable", Sentence: "It fits."}}, Broken: true,
			Porcupine: `<div id="jump-link">x</div>`},
		{Scene: hostile, Title: hostile, Story: hostile, Verdicts: []historyVerdict{{Model: hostile, Short: hostile, Sentence: hostile}},
			Porcupine: hostile},
		{},
	} {
		var want, got strings.Builder
		if err := ref.Execute(&want, a); err != nil {
			t.Fatal(err)
		}
		if err := writeHistoryPage(&got, a); err != nil {
			t.Fatal(err)
		}
		// html/template dropped the script's comment, leaving its lines
		// empty; the page has the comment in Go and no empty lines
		if got.String() != strings.Replace(want.String(), "<script>\n\n\n\n", "<script>\n", 1) {
			t.Errorf("scene %q: the page differs from the template's:\n got: %q\nwant: %q", a.Scene, got.String(), want.String())
		}
	}
}

// formerHistoryPage is the html/template the page was written from before
// it was spliced by hand: the reference of TestHistoryPageAsTheTemplateWrote
// (since, a story with no settings to name it by has no "the story:" slot;
// the page with porcupine's view held back, historyAbout.Waits, is not
// this template's).
const formerHistoryPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>locksim · {{.Scene}} · the history checked</title>
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
<h1>locksim · {{.Scene}}: {{.Title}}</h1>
<p class="story">{{if .Story}}the story: {{.Story}} · {{end}}seed {{.Seed}} · played to step {{.Step}} of {{.Steps}}</p>
<ul>
{{range .Verdicts}}<li{{if .Broken}} class="broken"{{end}}><b>{{.Model}}: {{.Short}}</b>. {{.Sentence}}</li>
{{end}}</ul>
<p class="terms">Below, porcupine's view: each model on rows of its own, one row per client, time running right; a bar is one operation, from its call to its reply. "LP" is a linearization point, the instant an operation takes effect in the one order the model found: "Valid LP" where it could place the operation, "Invalid LP" where no order explains the replies (the break). Click a bar to see the model's state after it.</p>
</header>
<iframe id="porcupine" title="porcupine's visualisation of the history" srcdoc="{{.Porcupine}}"></iframe>
<script>
// fit porcupine's timeline to the window's width (down to two thirds of
// its size) so a late operation is not off screen, then open it at the
// first error, if any
document.getElementById("porcupine").addEventListener("load", function () {
  var d = this.contentDocument;
  if (!d) { return; }
  var wide = d.documentElement.scrollWidth, room = this.clientWidth;
  if (wide > room) { d.body.style.zoom = Math.max(room / wide, 0.66); }
  var jump = d.getElementById("jump-link");
  if ({{.Broken}} && jump) { jump.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
});
</script>
</body>
</html>
`

// TestHistoryPageKeepsAnOpenQuestionsFuture: the page says which step it
// was played to and of how many; before crash-gap's question that number
// is the story's future (the story where s2 got the lock once had a move
// more), so the disclosure rule keeps it: "of …" at the question, the
// number once past it.
func TestHistoryPageKeepsAnOpenQuestionsFuture(t *testing.T) {
	b := embedded(t)
	for _, c := range []struct {
		step int
		want string
	}{{6, "played to step 6 of ?<"}, {7, "played to step 7 of 12<"}} {
		pos := play.Position{Version: play.PositionVersion, Scene: "crash-gap", Seed: 5, Step: c.step}
		var page strings.Builder
		if _, err := History(context.Background(), &page, b, pos, false, time.Second); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(page.String(), c.want) {
			i := strings.Index(page.String(), "played to")
			t.Errorf("step %d: the page says %q, want %q", c.step, page.String()[max(i, 0):max(i, 0)+40], c.want)
		}
	}
}
