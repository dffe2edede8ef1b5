package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	checker "locksim/check"
	"locksim/content"
	"locksim/play"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/transcript"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
)

// Trials is the screen of a run of trials: a progress bar while they run,
// then the table and a histogram of one variant at a time. It is a page of
// the race scene (t) and the whole program with -trials in a terminal.
type Trials struct {
	b       *sim.Backend
	n       int
	cfg     play.TrialsConfig
	text    content.Text
	com     *Common
	bar     progress.Model
	all     []play.TrialCounts // finished variants, then the running one
	running bool
	show    int // the variant whose histogram is drawn
	err     string
	// run is the trials the core runs, from Init on
	run *play.Trials
	// Standalone is set when the trials are the whole program: q quits.
	Standalone bool
	closed     bool
	stopped    bool // the learner stopped the run
	w, h       int
	// anomalies is set while the anomalies' pane is shown instead of the
	// histogram (a screen with room shows both); kind is the anomaly
	// picked in it; note says why "show me one" showed nothing
	anomalies bool
	kind      checker.Anomaly
	note      string
}

// showTrial asks the app to open a trial as a story of the race scene.
type showTrial struct{ rec play.TrialRecord }

// NewTrials prepares n trials of every variant on b, drawn with com's
// styles.
func NewTrials(b *sim.Backend, n int, cfg play.TrialsConfig, com *Common) (*Trials, error) {
	text, err := content.Load("race")
	if err != nil {
		return nil, err
	}
	return &Trials{b: b, n: n, cfg: cfg, text: text, com: com, bar: com.progressBar()}, nil
}

// Init asks the core for the trials (play.StartTrials): its command opens
// their server and connections and sets them running; Update draws what
// they report.
func (t *Trials) Init() tea.Cmd {
	run, start := play.StartTrials(t.b, t.n, t.cfg)
	t.run = run
	return teaCmd(start)
}

// Stop cancels the trials still running; the counts so far stay.
func (t *Trials) Stop() {
	if t.run != nil {
		t.run.Stop()
	}
}

// Close stops the trials and releases their connections and server.
//
// It does not wait: the trials let go in the background (a stalled
// server must not freeze the screen); Wait waits for that.
func (t *Trials) Close() {
	if t.closed {
		return
	}
	t.closed = true
	if t.run != nil {
		t.run.Close()
	}
}

// Wait waits, at most until ctx is done, for a closed run of trials to
// let go of its connections and server.
func (t *Trials) Wait(ctx context.Context) {
	if t.closed && t.run != nil {
		t.run.Wait(ctx)
	}
}

// Update takes the trials' progress and the keys: ←/→ pick the variant
// shown, q stops a run (and, once stopped, closes), esc closes.
func (t *Trials) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case play.TrialsOpened:
		if msg.T != t.run || t.closed {
			return t, nil // an earlier page's: it is closed
		}
		if msg.Err != nil {
			t.err = msg.Err.Error()
			return t, nil
		}
		t.running, t.all = true, nil
		return t, teaCmd(msg.Next)
	case play.TrialsOver:
		if msg.T == t.run {
			t.running = false
		}
		return t, nil
	case play.TrialsCounted:
		if msg.T != t.run {
			return t, nil // an earlier page's: it is closed
		}
		c := msg.Counts
		if n := len(t.all); n > 0 && t.all[n-1].Variant == c.Variant {
			t.all[n-1] = c
		} else {
			t.all = append(t.all, c)
		}
		if msg.Err != nil && !errors.Is(msg.Err, context.Canceled) {
			t.err = msg.Err.Error()
		}
		if msg.Final && msg.Err == nil {
			t.show = len(t.all) - 1
		}
		return t, teaCmd(msg.Next)
	case tea.KeyMsg:
		k := t.com.TrialKeys
		switch {
		case key.Matches(msg, k.Prev):
			t.show = max(t.show-1, 0)
		case key.Matches(msg, k.Next):
			t.show = min(t.show+1, max(len(t.all)-1, 0))
		case key.Matches(msg, k.Pane):
			t.anomalies, t.note = !t.anomalies, ""
		case key.Matches(msg, k.Up):
			t.kind, t.note = max(t.kind-1, 0), ""
		case key.Matches(msg, k.Down):
			t.kind, t.note = min(t.kind+1, checker.NumAnomalies-1), ""
		case key.Matches(msg, k.Show):
			return t, t.showOne()
		case key.Matches(msg, k.Stop):
			if t.running {
				t.Stop() // the counts so far arrive, then play.TrialsOver
				t.stopped = true
				return t, nil
			}
			if t.Standalone {
				t.Close()
				return t, tea.Quit
			}
		}
	}
	return t, nil
}

// Example is the smallest trial of the variant on show that showed the
// kind picked, as a record to open as a story; ok is false when none did.
func (t *Trials) Example() (play.TrialRecord, bool) {
	if t.show >= len(t.all) {
		return play.TrialRecord{}, false
	}
	c := t.all[t.show]
	ex := c.Examples[t.kind]
	if ex == nil {
		return play.TrialRecord{}, false
	}
	return play.TrialFrom(ex.Trial, ex.Variant.String(), t.kind.String(), ex.Events), true
}

// showOne opens the smallest trial of the kind picked as a story (in the
// race scene; the app does it), or says why it cannot.
func (t *Trials) showOne() tea.Cmd {
	t.anomalies = true
	rec, ok := t.Example()
	switch {
	case t.running:
		t.note = "the trials are still running: q stops them, then enter shows one"
	case !ok && t.show < len(t.all):
		t.note = "no trial of " + t.all[t.show].Variant.String() + " showed " + t.kind.String()
	case !ok:
		t.note = "no trial has run"
	case !t.all[t.show].Examples[t.kind].Replayable():
		t.note = "a trial with a lost reply cannot be stepped through: -plain prints it with its replies"
	case t.Standalone:
		t.note = "to step through it: locksim -scene race, then t, then enter"
	default:
		return func() tea.Msg { return showTrial{rec} }
	}
	return nil
}

// Summary is the table of the trials that finished, for the terminal once
// the page is gone.
func (t *Trials) Summary() string {
	if len(t.all) == 0 {
		return ""
	}
	return transcript.TrialsTable(t.all) + "\n" + transcript.TrialsRates(t.all) + transcript.TrialsBugs(t.text, t.all)
}

// Bugs is how many SET NX PX trials did not end with exactly one holder.
func (t *Trials) Bugs() int {
	if len(t.all) == 0 {
		return 0
	}
	return t.all[0].BugCount
}

// Running reports whether trials are still running.
func (t *Trials) Running() bool { return t.running }

// SetSize sets the size View draws at.
func (t *Trials) SetSize(w, h int) { t.w, t.h = w, h }

// anomaliesShown reports that the page shows the anomalies' pane: a
// screen with room for it beside the histogram, or tab pressed.
func (t *Trials) anomaliesShown() bool {
	h := t.h
	if t.w == 0 {
		h = 24 // as View draws it
	}
	return h >= 34 || t.anomalies
}

// View draws the page at the size SetSize set (80x24 until then).
func (t *Trials) View() string {
	if t.w == 0 {
		return t.page(80, 24)
	}
	return t.page(t.w, t.h)
}

// page draws the trials in w columns and h rows.
func (t *Trials) page(w, h int) string {
	st := t.com.Styles
	var rows []string
	where := "embedded, keys expire on the real clock"
	if t.b.Live() {
		where = t.b.Name
	}
	rows = append(rows, views.OneLine(st.Title, "locksim")+" "+views.OneLine(st.Bold, "race · trials")+views.OneLine(st.Dim, " · "+where))
	introRows := 2
	if t.cfg.Loss > 0 {
		introRows = 3 // it names the trials of a retried release too
	}
	rows = append(rows, st.Wrap(transcript.TrialsIntro(t.text, t.n, t.cfg), w, introRows))
	done := 0
	for _, c := range t.all {
		done += c.Trials
	}
	total := t.n * play.TrialVariants(t.cfg)
	status := "done"
	switch {
	case t.running && t.stopped:
		status = "stopping…"
	case t.running && len(t.all) > 0:
		c := t.all[len(t.all)-1]
		status = fmt.Sprintf("%s · %.0f trials/s · q stops", c.Variant, transcript.TrialsPerSecond(c))
	case t.running:
		status = "starting…"
	case done < total:
		status = "stopped: the counts of the trials that finished"
	}
	t.bar.Width = max(w-30, 10)
	rows = append(rows, t.bar.ViewAs(float64(done)/float64(max(total, 1)))+fmt.Sprintf(" %d/%d", done, total))
	rows = append(rows, views.OneLine(st.Dim, status))
	if t.err != "" {
		rows = append(rows, views.OneLine(st.Bad, "error: "+t.err))
	}
	if n := t.Bugs(); n > 0 {
		rows = append(rows, views.OneLine(st.Bad, st.Wrap(t.text.Fill("trials-bug", map[string]string{"count": itoa(int64(n))}), w, 2)+
			" The replies are printed when you quit."))
	}
	rows = append(rows, "")
	rows = append(rows, strings.Split(strings.TrimRight(transcript.TrialsTable(t.all), "\n"), "\n")...)
	if t.show < len(t.all) {
		if l := transcript.TrialsLoss(t.all[t.show]); l != "" && t.cfg.Loss > 0 {
			rows = append(rows, views.OneLine(st.Warn, truncate(l, w)))
		}
	}
	both := h >= 34 // room for the histogram and the anomalies
	if t.show < len(t.all) && (both || t.anomalies) {
		rows = append(rows, t.anomalyRows(st, t.all[t.show], w)...)
	}
	if t.show < len(t.all) && (both || !t.anomalies) {
		c := t.all[t.show]
		rows = append(rows, views.Rule(st, "holders at the end: "+c.Variant.String()+" (←/→ another)", w))
		var bars []views.Bar
		for k, x := range c.Holders {
			tone := say.Good
			switch {
			case k == 0:
				tone = say.Warn
			case k > 1:
				tone = say.Bad
			}
			label := itoa(int64(k)) + " holders"
			if k == 1 {
				label = "1 holder"
			}
			bars = append(bars, views.Bar{Label: label, Count: x, Tone: tone})
		}
		rows = append(rows, views.Histogram(st, bars, w))
	}
	if t.show < len(t.all) {
		rows = t.withNotes(st, rows, both, w, h)
	}
	out := strings.Split(strings.Join(rows, "\n"), "\n")
	for len(out) < h-1 {
		out = append(out, "")
	}
	help := views.HelpLine(trialHelp{t}.ShortHelp())
	out = append(out[:min(len(out), h-1)], views.OneLine(st.Dim, help))
	for i, l := range out {
		out[i] = truncate(l, w)
	}
	return strings.Join(out, "\n")
}

// withNotes is rows with what explains the counts on screen under them:
// the variant's note under its histogram, and under the anomalies how
// they are counted (a second holder counts once: as "two holders" while
// the first one's lease was live, as "lease ran out" once it had ended,
// so the two columns differ). Read whole, they take the rows of the
// intro and of the blank line above the table, which the page opened
// with, before they are cut.
func (t *Trials) withNotes(st views.Styles, rows []string, both bool, w, h int) []string {
	var notes []string
	if both || !t.anomalies {
		notes = append(notes, transcript.TrialsNote(t.text, t.all[t.show], t.cfg))
	}
	if both || t.anomalies {
		notes = append(notes, strings.Join(strings.Fields(t.text.Get("trials-anomalies")), " "))
	}
	note := strings.Join(notes, "\n")
	need := views.Rows(note, max(w, 1))
	lines := func() int { return len(strings.Split(strings.Join(rows, "\n"), "\n")) }
	if free := h - 1 - lines(); need > free && len(rows) > 2 {
		// the intro (row 1) and the blank line before the table
		rows = append(rows[:1:1], rows[2:]...)
		if i := slices.Index(rows, ""); i >= 0 {
			rows = append(rows[:i:i], rows[i+1:]...)
		}
	}
	return append(rows, st.Wrap(note, w, max(min(need, h-1-lines()), 1)))
}

// anomalyRows are the anomalies the client's mutex model found in c's
// trials, by kind, the one picked marked, with the smallest trial of each.
func (t *Trials) anomalyRows(st views.Styles, c play.TrialCounts, w int) []string {
	rows := []string{views.Rule(st, "anomalies the checker found: "+c.Variant.String()+" (↑/↓ kind · enter shows one)", w)}
	nameW := 0
	for _, k := range checker.Anomalies() {
		nameW = max(nameW, len(k.String()))
	}
	for _, k := range checker.Anomalies() {
		mark := "  "
		if k == t.kind {
			mark = "▸ "
		}
		line := fmt.Sprintf("%s%-*s %7d", mark, nameW, k.String(), c.Anomalies[k])
		if ex := c.Examples[k]; ex != nil {
			line += views.OneLine(st.Dim, fmt.Sprintf("  smallest: trial %d, %d commands", ex.Trial, commandCount(ex.Events)))
		}
		if k == t.kind {
			line = views.OneLine(st.Bold, line)
		}
		rows = append(rows, line)
	}
	if c.Unknown > 0 {
		rows = append(rows, views.OneLine(st.Warn, fmt.Sprintf("  %-*s %7d", nameW, "check timed out (unknown)", c.Unknown)))
	}
	if t.note != "" {
		// said whole: a note cut with … drops what to do instead
		rows = append(rows, wholeLines(st.Warn, t.note, w)...)
	}
	return rows
}

// commandCount counts the commands among a trial's events.
func commandCount(events []sim.Event) int {
	n := 0
	for _, e := range events {
		if e.Kind == sim.Command {
			n++
		}
	}
	return n
}
