package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	checker "locksim/check"
	"locksim/content"
	"locksim/play"
	"locksim/race"
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
	b, tb   *sim.Backend
	done    func()
	n       int
	cfg     race.Config
	text    content.Text
	com     *Common
	bar     progress.Model
	all     []race.Counts // finished variants, then the running one
	running bool
	show    int // the variant whose histogram is drawn
	err     string
	cancel  context.CancelFunc
	updates chan tea.Msg
	// Standalone is set when the trials are the whole program: q quits.
	Standalone bool
	closed     bool
	stopped    bool          // the learner stopped the run
	gone       chan struct{} // closed once Close has let go of everything
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

type trialsMsg struct {
	t      *Trials // the run of trials it belongs to
	counts race.Counts
	final  bool
	err    error
}

// trialsOver says the trials' goroutine has finished: run to the end,
// stopped, or failed.
type trialsOver struct{ t *Trials }

// NewTrials prepares n trials of every variant on b, drawn with com's
// styles.
func NewTrials(b *sim.Backend, n int, cfg race.Config, com *Common) (*Trials, error) {
	text, err := content.Load("race")
	if err != nil {
		return nil, err
	}
	return &Trials{b: b, n: n, cfg: cfg, text: text, com: com, bar: com.progressBar()}, nil
}

// Init starts the trials: a command opens their server and connections
// (trialsReady), then Update sets them running.
func (t *Trials) Init() tea.Cmd {
	b, cfg := t.b, t.cfg
	return func() tea.Msg {
		tr, tb, done, err := race.OnBackend(b, cfg)
		if err != nil {
			return trialsReady{t: t, err: err}
		}
		return trialsReady{t: t, tb: tb, tr: tr, done: done}
	}
}

// trialsReady carries the trials' server and connections, once open.
type trialsReady struct {
	t    *Trials
	tb   *sim.Backend
	tr   *race.Trials
	done func()
	err  error
}

// start sets the trials running on what Init opened.
func (t *Trials) start(m trialsReady) tea.Cmd {
	if m.err != nil {
		t.err = m.err.Error()
		return nil
	}
	if t.closed {
		go m.done() // closed before they started: let go at once
		return nil
	}
	tr := m.tr
	t.tb, t.done = m.tb, m.done
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel, t.running, t.all = cancel, true, nil
	t.updates = make(chan tea.Msg, 1)
	go func() {
		defer close(t.updates)
		// Bubble Tea recovers its own Update, View and commands, not this
		// goroutine: a panic here ends the trials with an error, never the
		// process (which, served over SSH, every other session is in)
		defer func() {
			if r := recover(); r != nil {
				select {
				case t.updates <- trialsMsg{t: t, final: true, err: fmt.Errorf("the trials stopped on a fault in locksim: %v", r)}:
				default:
				}
			}
		}()
		last := time.Now()
		for _, v := range race.Variants() {
			c, err := tr.Run(ctx, v, t.n, func(c race.Counts) {
				if time.Since(last) > 50*time.Millisecond {
					last = time.Now()
					select {
					case t.updates <- trialsMsg{t: t, counts: c}:
					default: // the screen is behind: it gets the next one
					}
				}
			})
			t.updates <- trialsMsg{t: t, counts: c, final: true, err: err}
			if err != nil {
				return
			}
		}
	}()
	return t.wait()
}

func (t *Trials) wait() tea.Cmd {
	ch := t.updates
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return trialsOver{t}
		}
		return m
	}
}

// Stop cancels the trials still running; the counts so far stay.
func (t *Trials) Stop() {
	if t.cancel != nil {
		t.cancel()
	}
}

// Close stops the trials and releases their connections and server.
//
// It does not wait: the trials' goroutine ends and the connections close
// in the background (a stalled server must not freeze the screen); Wait
// waits for that.
func (t *Trials) Close() {
	if t.closed {
		return
	}
	t.closed = true
	t.Stop()
	t.gone = make(chan struct{})
	updates, done := t.updates, t.done
	go func() {
		defer close(t.gone)
		if updates != nil {
			for range updates {
			}
		}
		if done != nil {
			done()
		}
	}()
}

// Wait waits, at most until ctx is done, for a closed run of trials to
// let go of its connections and server.
func (t *Trials) Wait(ctx context.Context) {
	if t.gone == nil {
		return
	}
	select {
	case <-t.gone:
	case <-ctx.Done():
	}
}

// Update takes the trials' progress and the keys: ←/→ pick the variant
// shown, q stops a run (and, once stopped, closes), esc closes.
func (t *Trials) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case trialsReady:
		return t, msg.t.start(msg)
	case trialsOver:
		if msg.t == t {
			t.running = false
		}
		return t, nil
	case trialsMsg:
		if msg.t != t {
			return t, nil // an earlier page's: it is closed
		}
		c := msg.counts
		if n := len(t.all); n > 0 && t.all[n-1].Variant == c.Variant {
			t.all[n-1] = c
		} else {
			t.all = append(t.all, c)
		}
		if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
			t.err = msg.err.Error()
		}
		if msg.final && msg.err == nil {
			t.show = len(t.all) - 1
		}
		return t, t.wait()
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
				t.Stop() // the counts so far arrive, then trialsOver
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
	rows = append(rows, st.Title.Render("locksim")+" "+st.Bold.Render("race · trials")+st.Dim.Render(" · "+where))
	rows = append(rows, st.Wrap(t.text.Fill("trials-intro", map[string]string{"n": itoa(int64(t.n))}), w, 2))
	done := 0
	for _, c := range t.all {
		done += c.Trials
	}
	total := t.n * len(race.Variants())
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
	rows = append(rows, st.Dim.Render(status))
	if t.err != "" {
		rows = append(rows, st.Bad.Render("error: "+t.err))
	}
	if n := t.Bugs(); n > 0 {
		rows = append(rows, st.Bad.Render(st.Wrap(t.text.Fill("trials-bug", map[string]string{"count": itoa(int64(n))}), w, 2)+
			" The replies are printed when you quit."))
	}
	rows = append(rows, "")
	rows = append(rows, strings.Split(strings.TrimRight(transcript.TrialsTable(t.all), "\n"), "\n")...)
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
		rows = append(rows, st.Wrap(transcript.TrialsNote(t.text, t.all[t.show], t.cfg), w, 5))
	}
	out := strings.Split(strings.Join(rows, "\n"), "\n")
	for len(out) < h-1 {
		out = append(out, "")
	}
	help := "←/→ variant · tab anomalies · q stop · esc back"
	switch {
	case t.Standalone:
		help = "←/→ variant · tab anomalies · q stop, then quit"
	case both || t.anomalies:
		help = "←/→ variant · ↑/↓ kind · enter show me one · q stop · esc back"
	}
	out = append(out[:min(len(out), h-1)], st.Dim.Render(help))
	for i, l := range out {
		out[i] = truncate(l, w)
	}
	return strings.Join(out, "\n")
}

// anomalyRows are the anomalies the client's mutex model found in c's
// trials, by kind, the one picked marked, with the smallest trial of each.
func (t *Trials) anomalyRows(st views.Styles, c race.Counts, w int) []string {
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
			line += st.Dim.Render(fmt.Sprintf("  smallest: trial %d, %d commands", ex.Trial, commandCount(ex.Events)))
		}
		if k == t.kind {
			line = st.Bold.Render(line)
		}
		rows = append(rows, line)
	}
	if c.Unknown > 0 {
		rows = append(rows, st.Warn.Render(fmt.Sprintf("  %-*s %7d", nameW, "check timed out (unknown)", c.Unknown)))
	}
	if t.note != "" {
		rows = append(rows, st.Warn.Render(truncate(t.note, w)))
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
