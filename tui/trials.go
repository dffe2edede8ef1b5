package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"locksim/content"
	"locksim/race"
	"locksim/scenes"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
)

// TrialLanes is how many trials run side by side: Workers connections each.
const TrialLanes = 8

// trialsBackend is where trials run: a live server under its run prefix,
// or an embedded server of their own whose keys expire on the real clock
// (the course's embedded server only moves its clock when a story says so).
// done releases what it opened.
func trialsBackend(b *sim.Backend) (tb *sim.Backend, done func(), err error) {
	if b.Live() {
		return b, func() {}, nil
	}
	tb, err = sim.OpenEmbeddedRealClock()
	if err != nil {
		return nil, nil, err
	}
	return tb, func() { _ = tb.Close(context.Background()) }, nil
}

func newTrials(b *sim.Backend, cfg race.Config) (*race.Trials, error) {
	return race.New(race.Pool{Lanes: TrialLanes, Conn: b.NewConn, Admin: b.Admin(),
		Key: func(i int) string { return b.Key(fmt.Sprintf("trials:%d:resource:lock", i)) }}, cfg)
}

// PlainTrials runs n trials of every variant on b and prints the table and
// what each row means. An atomic trial with other than one holder is
// printed with its replies and makes the error.
func PlainTrials(ctx context.Context, w io.Writer, b *sim.Backend, n int, cfg race.Config) error {
	text, err := content.Load("race")
	if err != nil {
		return err
	}
	tb, done, err := trialsBackend(b)
	if err != nil {
		return err
	}
	defer done()
	tr, err := newTrials(tb, cfg)
	if err != nil {
		return err
	}
	defer tr.Close()
	fmt.Fprintf(w, "%s\n\n", text.Fill("trials-intro", map[string]string{"n": itoa(int64(n))}))
	fmt.Fprintf(w, "server: %s · %d lanes of %d connections\n\n", trialsWhere(b), TrialLanes, race.Workers)
	var all []race.Counts
	for _, v := range race.Variants {
		c, err := tr.Run(ctx, v, n, nil)
		all = append(all, c)
		if err != nil {
			fmt.Fprint(w, trialsTable(all))
			return err
		}
	}
	fmt.Fprint(w, trialsTable(all))
	fmt.Fprintln(w)
	fmt.Fprint(w, trialsRates(all))
	fmt.Fprintln(w)
	for _, c := range all {
		fmt.Fprintf(w, "%s\n\n", trialsNote(text, c, cfg))
	}
	if a := all[0]; a.BugCount > 0 {
		fmt.Fprint(w, trialsBugs(text, all))
		return fmt.Errorf("%d atomic trials did not end with one holder", a.BugCount)
	}
	return nil
}

func trialsWhere(b *sim.Backend) string {
	if b.Live() {
		return b.Name + " (keys under " + b.Prefix + ")"
	}
	return "embedded (a server of its own, keys expiring on the real clock)"
}

// trialsTable is one row per variant: trials by holders at the end, each
// worker's wins, and the rate.
func trialsTable(all []race.Counts) string {
	var b strings.Builder
	// 80 columns: variant 13, trials 7, five counts of 7, four wins of 6
	fmt.Fprintf(&b, "%-13s %6s %-34s %s\n", "", "", "  trials by holders at the end", " wins of each worker")
	fmt.Fprintf(&b, "%-13s %6s %6s %6s %6s %6s %6s %5s %5s %5s %5s\n", "variant", "trials", "0", "1", "2", "3", "4", "w1", "w2", "w3", "w4")
	for _, c := range all {
		fmt.Fprintf(&b, "%-13s %6d", c.Variant, c.Trials)
		for _, h := range c.Holders {
			fmt.Fprintf(&b, " %6d", h)
		}
		fmt.Fprintf(&b, " %5d %5d %5d %5d\n", c.Wins[0], c.Wins[1], c.Wins[2], c.Wins[3])
	}
	return b.String()
}

// trialsRates is each variant's pace: trials and commands per second.
func trialsRates(all []race.Counts) string {
	var b strings.Builder
	for _, c := range all {
		cmds := 0.0
		if c.Took > 0 {
			cmds = float64(c.Commands) / c.Took.Seconds()
		}
		fmt.Fprintf(&b, "%-13s %8.0f trials/s · %8.0f commands/s · %d commands\n", c.Variant, rate(c), cmds, c.Commands)
	}
	return b.String()
}

func rate(c race.Counts) float64 {
	if c.Took <= 0 {
		return 0
	}
	return float64(c.Trials) / c.Took.Seconds()
}

// trialsNote is what a variant's row means, with its own counts.
func trialsNote(text content.Text, c race.Counts, cfg race.Config) string {
	multi := 0
	for k := 2; k < len(c.Holders); k++ {
		multi += c.Holders[k]
	}
	return c.Variant.String() + ": " + text.Fill("trials-"+itoa(int64(c.Variant)), map[string]string{
		"crash": fmt.Sprintf("%.0f%%", 100*cfg.CrashRate), "nottl": itoa(int64(c.NoTTL)),
		"short": fmt.Sprint(cfg.Short), "gap": fmt.Sprint(cfg.Gap), "foreign": itoa(int64(c.Foreign)),
		"multi": itoa(int64(multi)),
	})
}

// Trials is the screen of a run of trials: a progress bar while they run,
// then the table and a histogram of one variant at a time. It is a page of
// the race scene (t) and the whole program with -trials in a terminal.
type Trials struct {
	b, tb   *sim.Backend
	done    func()
	n       int
	cfg     race.Config
	text    content.Text
	st      views.Styles
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
}

type trialsMsg struct {
	t      *Trials // the run of trials it belongs to
	counts race.Counts
	final  bool
	err    error
}

// trialsOver says the trials' goroutine has finished: run to the end,
// stopped, or failed.
type trialsOver struct{ t *Trials }

// NewTrials prepares n trials of every variant on b.
func NewTrials(b *sim.Backend, n int, cfg race.Config, st views.Styles) (*Trials, error) {
	text, err := content.Load("race")
	if err != nil {
		return nil, err
	}
	return &Trials{b: b, n: n, cfg: cfg, text: text, st: st, bar: NewCommon(st, scenes.Export{}).progressBar()}, nil
}

// Init starts the trials: a command opens their server and connections
// (trialsReady), then Update sets them running.
func (t *Trials) Init() tea.Cmd {
	b, cfg := t.b, t.cfg
	return func() tea.Msg {
		tb, done, err := trialsBackend(b)
		if err != nil {
			return trialsReady{t: t, err: err}
		}
		tr, err := newTrials(tb, cfg)
		if err != nil {
			done()
			return trialsReady{t: t, err: err}
		}
		return trialsReady{t: t, tb: tb, tr: tr, done: func() { tr.Close(); done() }}
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
		last := time.Now()
		for _, v := range race.Variants {
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
		switch msg.String() {
		case "left", "b":
			t.show = max(t.show-1, 0)
		case "right", "n":
			t.show = min(t.show+1, max(len(t.all)-1, 0))
		case "q", "ctrl+c":
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

// Summary is the table of the trials that finished, for the terminal once
// the page is gone.
func (t *Trials) Summary() string {
	if len(t.all) == 0 {
		return ""
	}
	return trialsTable(t.all) + "\n" + trialsRates(t.all) + trialsBugs(t.text, t.all)
}

// Bugs is how many SET NX PX trials did not end with exactly one holder.
func (t *Trials) Bugs() int {
	if len(t.all) == 0 {
		return 0
	}
	return t.all[0].BugCount
}

// trialsBugs is the SET NX PX trials that did not end with one holder,
// with their replies; "" when there are none.
func trialsBugs(text content.Text, all []race.Counts) string {
	if len(all) == 0 || all[0].BugCount == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintln(&b, text.Fill("trials-bug", map[string]string{"count": itoa(int64(all[0].BugCount))}))
	for _, bug := range all[0].Bugs {
		fmt.Fprintf(&b, "  trial %d:\n    %s\n", bug.Trial, strings.Join(bug.Replies, "\n    "))
	}
	return b.String()
}

// Running reports whether trials are still running.
func (t *Trials) Running() bool { return t.running }

// SetSize sets the size View draws at.
func (t *Trials) SetSize(w, h int) { t.w, t.h = w, h }

// View draws the page at the size SetSize set (80x24 until then).
func (t *Trials) View() string {
	if t.w == 0 {
		return t.Page(80, 24)
	}
	return t.Page(t.w, t.h)
}

// Page draws the trials in w columns and h rows.
func (t *Trials) Page(w, h int) string {
	st := t.st
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
	total := t.n * len(race.Variants)
	status := "done"
	switch {
	case t.running && t.stopped:
		status = "stopping…"
	case t.running && len(t.all) > 0:
		c := t.all[len(t.all)-1]
		status = fmt.Sprintf("%s · %.0f trials/s · q stops", c.Variant, rate(c))
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
	rows = append(rows, strings.Split(strings.TrimRight(trialsTable(t.all), "\n"), "\n")...)
	if t.show < len(t.all) {
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
		rows = append(rows, st.Wrap(trialsNote(t.text, c, t.cfg), w, 5))
	}
	out := strings.Split(strings.Join(rows, "\n"), "\n")
	for len(out) < h-1 {
		out = append(out, "")
	}
	help := "←/→ variant · q stop · esc back"
	if t.Standalone {
		help = "←/→ variant · q stop, then quit"
	}
	out = append(out[:min(len(out), h-1)], st.Dim.Render(help))
	for i, l := range out {
		out[i] = truncate(l, w)
	}
	return strings.Join(out, "\n")
}
