package tui

import (
	"fmt"
	"strings"

	checker "locksim/check"
	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/shown"
	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Player draws one scene's Session and keeps what only the screen has: the
// log's scroll, where the cards were drawn, the spinner, the notes pane,
// the server's health.
type Player struct {
	*play.Session
	com  *Common
	w, h int // the size the player draws at (SetSize)
	// scroll is how many log lines back from the newest the log shows.
	scroll int
	// banner is the app's word on the server's health, shown over the verdict
	banner string
	// logRows is how many log lines the last drawing had room for, zones
	// where it drew the cards (the mouse selects by them)
	logRows int
	// logLen is how many rows the whole log took then (a reply too long
	// for its command's row takes one of its own)
	logLen int
	zones  []views.Zone
	// serverDown is set while the heartbeat says the server does not answer
	serverDown bool
	// spin turns while a live step or a race runs; spinning is set while
	// its tick chain is alive
	spin     spinner.Model
	spinning bool
	notes    bool // the speaker notes pane is open
	// role is who reads this screen, for the disclosure rule: the notes
	// and the story page show an open question's answer only to a role
	// that may read the answer key (the instructor's own session)
	role play.Role
	// checked is set while the history page (v) is open; histBack is how
	// many instants its timeline's window stands back from the newest
	checked  bool
	histBack int
	// report is the checker's findings on snapshot checkedGen-1 (0: none
	// yet), kept while the snapshot stays on screen; checking is the
	// snapshot (gen+1) a check runs for
	report     checker.Report
	checkedGen int
	checking   int
	// log is the log's viewport, kept from frame to frame; logText is what
	// it holds (a new log, or a new size, gives it new lines)
	log     viewport.Model
	logText string
	// endLine is the line under a race that has run, saying how to go on
	// (see session.endLine); nil for none
	endLine func() string
	// storyEnd is the timeline's word for a story's end, with the key
	// that goes on from it (see session.storyEnd); nil for "end of story"
	storyEnd func() string
}

// newPlayer draws session s (see play.Course.Open) with com's styles and
// keys, turning com's spinner while it works; no size yet.
func newPlayer(s *play.Session, com *Common) *Player {
	return &Player{Session: s, com: com, spin: com.spinner()}
}

// SetSize sets the size View draws the scene at: w columns, h rows, the
// help line's row (which the app draws under it) included.
func (p *Player) SetSize(w, h int) { p.w, p.h = w, h }

// teaCmd is the session's command as Bubble Tea runs it.
func teaCmd(c play.Cmd) tea.Cmd {
	if c == nil {
		return nil
	}
	return func() tea.Msg { return c() }
}

// spinWith is the session's command, with the spinner started while the
// session works on a live server or a race: the learner sees that
// something runs.
func (p *Player) spinWith(c play.Cmd) tea.Cmd {
	cmd := teaCmd(c)
	if cmd == nil || !p.Busy || p.spinning || !(p.Backend.Live() || !p.Stepped()) {
		return cmd
	}
	p.spinning = true
	return tea.Batch(p.spin.Tick, cmd)
}

// Update handles a message meant for the player: the spinner's, and the
// session's (keys come already matched by the app).
func (p *Player) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if !p.Busy {
			p.spinning = false // the chain ends with the work
			return nil
		}
		var cmd tea.Cmd
		p.spin, cmd = p.spin.Update(msg)
		return cmd
	}
	gen := p.Gen
	cmd := p.spinWith(p.Session.Update(msg))
	if p.Gen != gen {
		p.scroll = 0 // a new snapshot: the log follows the newest line again
	}
	return cmd
}

// key applies an action to the session, with the spinner if it set work
// going; false if the action means nothing here.
func (p *Player) key(a play.Action, k views.KeyMap) (tea.Cmd, bool) {
	cmd, ok := p.Session.Act(a)
	// the session says what must be picked; the keys that pick it are ours
	switch p.Wants {
	case play.WantActor:
		p.SetErr(p.Err + " (" + k.Select.Help().Key + " or " + k.Next.Help().Key + ")")
	case play.WantNode:
		p.SetErr(p.Err + " (" + k.Node.Help().Key + ")")
	}
	return p.spinWith(cmd), ok
}

// Start starts the session (see Session.Start), with the spinner.
func (p *Player) Start(old *sim.Run) tea.Cmd { return p.spinWith(p.Session.Start(old)) }

func (p *Player) replayHere() tea.Cmd { return p.spinWith(p.Session.ReplayHere()) }

func (p *Player) restart() tea.Cmd { return p.spinWith(p.Session.Restart()) }

func (p *Player) seekTo(target int) tea.Cmd { return p.spinWith(p.Session.SeekTo(target)) }

// frameLayout is where a frame put what the mouse and the log's scroll
// go by: the cards' zones and the log's rows.
type frameLayout struct {
	zones   []views.Zone
	logRows int
	logLen  int
	log     viewport.Model
	logText string
}

// View draws the scene at the size SetSize set, all but its last row: the
// app puts the help line there. It changes nothing: what the frame's
// layout is goes to the player in measure, from Update.
func (p *Player) View() string {
	frame, _ := p.draw()
	return frame
}

// measure keeps the layout of the frame View draws.
func (p *Player) measure() {
	_, lay := p.draw()
	p.zones, p.logRows, p.logLen, p.log, p.logText = lay.zones, lay.logRows, lay.logLen, lay.log, lay.logText
}

// draw is the frame, but for the help line's row, and its layout.
func (p *Player) draw() (string, frameLayout) {
	st, w, h := p.com.Styles, p.w, p.h
	lay := frameLayout{zones: p.zones, logRows: p.logRows, logLen: p.logLen, log: p.log, logText: p.logText}
	header := p.header(st, w)
	ex := p.Explanation()
	if p.Follow && p.Stepped() {
		// a follower takes no step (the instructor does): the readout reads
		// the handout's form of the text, which names no key of the screen
		if t, err := content.LoadHandout(p.Scene.ID); err == nil {
			ex.Readout = scenes.Explain(p.Scene, scenes.Frame{Snap: p.Snap, L: p.Ledger, P: p.Params, Sel: p.Sel, Text: t, Hide: p.hiding()}).Readout
		}
	}
	top := []string{header}
	cards := p.com.cards.Draw(st, ex.Cards, p.Sel, w)
	lay.zones = views.CardZones(cards, len(ex.Cards), len(joinLines(top)))
	top = append(top, cards)
	// at 80 columns the run's key prefix would push the values off the
	// line: the rule over the log names it once instead
	strip := p.Snap.Prefix != "" && w < 120
	var hiddenKeys []string
	hiddenNode := ""
	for _, k := range p.Snap.Keys {
		if strip {
			k.Name = strings.TrimPrefix(k.Name, p.Snap.Prefix)
		}
		if p.hiding() && k.Node != "" {
			hiddenNode = k.Name // one row for all the nodes, below
			continue
		}
		line := keyLine(st, k, p.Snap, w)
		if k.Node != "" {
			line = p.nodeLine(st, k, w)
		}
		if p.hiding() && k.Node == "" {
			// the keys as they stand would give the answer away; their names
			// share one row, which leaves the log rows for the setup move
			hiddenKeys = append(hiddenKeys, strings.TrimPrefix(k.Name, p.Snap.Prefix))
			continue
		}
		if p.Stale || p.serverDown {
			// the server did not answer: this is the last read, not now
			line = views.OneLine(st.Dim, truncate(views.Strip(line), w-12)) + views.OneLine(st.Warn, " (last read)")
		}
		top = append(top, line)
	}
	if hiddenNode != "" {
		top = append(top, p.hiddenNodes(st, strings.TrimPrefix(hiddenNode, p.Snap.Prefix), w)...)
	}
	if len(hiddenKeys) > 0 {
		// not their names or how many: that can be the answer (key-naming
		// asks whether two workers share one key)
		top = append(top, truncate(views.OneLine(st.Bold, "keys ")+views.OneLine(st.Dim, p.hiddenNote()), w))
	}
	if r := p.Snap.Resource; r != nil {
		top = append(top, resourceLine(st, *r, w))
	}
	if len(p.Scene.Knobs) > 0 {
		var parts []string
		for _, k := range p.Scene.Knobs {
			parts = append(parts, views.OneLine(st.Key, "["+k.Key+"]")+" "+k.Name+": "+views.OneLine(st.Bold, p.Scene.Shown(p.Params, k.Name)))
		}
		if p.Scene.NeedsEmbedded(p.Params) && p.Backend.Live() {
			// on the embedded server it plays as told: nothing to warn of
			parts = append(parts, views.OneLine(st.Warn, "needs the embedded server"))
		}
		top = append(top, truncate(strings.Join(parts, "  "), w))
	}

	var bottom []string
	if p.Present && h >= 30 {
		bottom = append(bottom, "") // room to breathe on a projector
	}
	bottom = append(bottom, views.Rule(st, "readout", w))
	readout := ex.Readout
	switch {
	case p.Err != "" && (p.banner != "" || p.Stale):
		// a failure of the server, not of the lock: say so, not a lock outcome
		readout = p.Text.Fill("outage", map[string]string{"err": p.Err})
	case p.Asking && p.Present:
		readout = p.Text.Get("ask-present")
	case p.Asking && p.Hints > 0:
		// the hints asked for, each once, newest last: in the readout's
		// rows, so the question's panel keeps the log above it
		var hints []string
		for i := 1; i <= p.Hints; i++ {
			hints = append(hints, "hint: "+p.Question("hint-"+itoa(int64(i))))
		}
		readout = strings.Join(hints, "\n")
	case p.Asking:
		readout = p.Question("ask")
	case p.Hinting:
		readout = "hint: " + p.Question("hint-"+itoa(int64(p.Hints)))
	case p.Waiting():
		readout = fmt.Sprintf("You predicted: %s. The instructor runs the move when the class has answered; then the replies of your own run answer it.", p.Choices()[p.Guess])
	case p.Revealed && p.JudgedHere() && p.QuestionAt() >= 0 && p.Snap.Pos == p.QuestionAt()+1:
		// just after the decisive move: the real replies answer the question,
		// first, even with a worker picked (its own lines follow); not where
		// they cannot (Redlock's clock jump on a live server: a saved answer)
		readout = p.verdictOnGuess() + " " + readout
	}
	readoutAt := len(bottom)
	bottom = append(bottom, st.Wrap(readout, w, 3))
	status := ex.Verdict
	if p.hiding() {
		// the verdict, the alarm and the properties as they stand could give
		// the answer away, or contradict the question's premise
		status, ex.Alarm = p.hiddenNote(), ""
	}
	if p.Flash != "" && p.banner == "" {
		// a note (y's path, an error, the end of the hints) is said whole
		// in rows of its own, each line wrapped, never cut, since a path
		// cut with … is no path; the verdict row stays under it
		bottom = append(bottom, wholeLines(st.Warn, p.Flash, w)...)
	}
	if ex.Alarm != "" && p.banner == "" && p.Err == "" {
		// the alarm and the verdict both: the scene's verdict line is how
		// a setting is judged
		bottom = append(bottom, truncate(views.OneLine(st.Bad, "⚠ "+ex.Alarm), w))
		ex.Alarm = ""
	}
	switch {
	case p.banner != "":
		status = views.OneLine(st.Bad, p.banner)
	case p.Err != "":
		status = views.OneLine(st.Bad, "error: "+shown.Text(p.Err)) // a server's words may be in it
	case ex.Alarm != "":
		status = views.OneLine(st.Bad, "⚠ "+ex.Alarm)
	case status == "":
		status = views.OneLine(st.Bold, "verdict ") + views.OneLine(st.Dim, "nothing observed yet")
	case p.LabPlace() != nil && ansi.StringWidth("verdict "+status) > w:
		// a lab's verdict is the adversary's sentence about the learner's
		// own lock, not a scene's line written to fit: it is said whole,
		// in rows of its own, as a note is
		rows := wholeLines(st.Plain, "verdict "+status, w)
		for i, r := range rows {
			if i == 0 {
				r = views.OneLine(st.Bold, "verdict ") + renderTone(st, ex.VerdictTone, strings.TrimPrefix(r, "verdict "))
			} else {
				r = renderTone(st, ex.VerdictTone, r)
			}
			bottom = append(bottom, r)
		}
		status = ""
	default:
		status = views.OneLine(st.Bold, "verdict ") + renderTone(st, ex.VerdictTone, status)
	}
	if status != "" {
		bottom = append(bottom, truncate(status, w))
	}
	if p.hiding() {
		bottom = append(bottom, truncate(views.OneLine(st.Bold, "properties ")+views.OneLine(st.Dim, p.hiddenNote()), w))
	} else {
		bottom = append(bottom, views.Scoreboard(st, ex.Props, w))
	}
	if p.Stepped() {
		state := ""
		switch {
		case p.Busy && p.Snap.Live:
			state = " · " + p.spin.View() + " " + p.Note
			if p.CancelOp != nil {
				state += " · esc cancels"
			}
		case p.Playing:
			state = fmt.Sprintf(" · playing, speed %d/%d", p.Speed+1, len(play.Speeds()))
		}
		end := "end of story"
		if p.storyEnd != nil {
			end = p.storyEnd()
		}
		if lp := p.LabPlace(); lp != nil && len(lp.Moves) == 0 {
			end = labHandEnd(lp.Clients) // a story played by hand ends where the learner stops
		}
		// the core says how much of the schedule may be drawn: while the
		// question is open, nothing past its move (play.Disclosure.Ahead)
		marks := timelineMarks(p.Snap)
		if n, more := p.Disclose(p.role).Drawn(len(marks)); more {
			marks = append(marks[:n:n], views.MoreMark())
		}
		bottom = append(bottom, views.TimelineTo(st, marks, p.Snap.Pos, "+"+sim.FormatDuration(p.Snap.Now), end, state, w))
	} else if p.Busy {
		bottom = append(bottom, views.OneLine(st.Dim, p.spin.View()+" racing…"))
	} else if l := p.endLine; l != nil && l() != "" {
		bottom = append(bottom, truncate(views.OneLine(st.Accent, l()), w))
	}
	bottom = append(bottom, "") // the help line's row, drawn by the app

	logW, readoutW := logWidth(w, h, !p.Asking && !p.notes)
	wide := readoutW > 0
	if wide {
		bottom = append(bottom[:readoutAt-1:readoutAt-1], bottom[readoutAt+1:]...)
	}
	logH := h - len(joinLines(top)) - len(joinLines(bottom)) - 1
	// a readout longer than its three rows takes rows the log leaves empty
	need := views.Rows(views.Join(readout), max(w, 1))
	// (and two rows of a full log, which then scrolls: the readout is the lesson)
	if free := logH - len(p.Snap.Events); need > 3 && !p.Asking && !p.notes && !wide {
		// a taller screen than 80x24 gives its rows to the readout
		extra := min(need-3, max(free, 2), 3+max(0, h-24))
		bottom[readoutAt] = st.Wrap(readout, w, 3+extra)
		logH -= extra
	}
	// the hints take the readout's rows, and rows of the log beyond its
	// three as they need them, down to one row of the log (which [ scrolls)
	listed := 0 // a presenter's hints stay in the panel, for the class
	if p.Present {
		listed = p.Hints
	}
	if p.Asking && !p.Present && p.Hints > 0 && need > 3 {
		room := logH - len(p.questionLines(st, w, 0)) - 2 // the log's rule and one row of it
		extra := max(0, min(need-3, room))
		bottom[readoutAt] = st.Wrap(readout, w, 3+extra)
		logH -= extra
	}
	sel := ""
	if p.Sel >= 0 && p.Sel < len(p.Snap.Actors) {
		sel = p.Snap.Actors[p.Sel].Name
	}
	digits := 8
	if logW >= 160 {
		// room for more of each token; a narrower log would cut the
		// longer tokens' heads, which 80 columns show
		digits = 16
	}
	lines := views.Unfold(st, logLines(p.Snap, sel, strip, digits, p.Disclose(p.role).Checked), logW)
	if p.Asking && len(lines) > 0 && !wide {
		logH += p.keepLogAtQuestion(st, bottom, readoutAt, readout, w, logH-len(p.questionLines(st, w, listed))-2)
	}
	lay.logLen = len(lines)
	// rows a taller screen leaves below the log show a script's source
	script := ""
	if h > 24 && !p.Asking && !p.notes {
		script = scriptPanel(st, p.Snap, p.Scripts(p.role).Shown, sel, logW, logH-len(lines))
		logH -= strings.Count(script, "\n") + min(len(script), 1)
	}
	lay.logRows = max(logH, 0)
	// the whole log in the player's viewport, which keeps the window inside
	// the ends; measure set it to this frame's log, so View only reads it
	vp := p.log
	content := p.com.log.Draw(st, lines, logW, max(len(lines), logH), 0)
	if vp.Width != logW || vp.Height != max(logH, 0) || p.logText != content {
		vp = viewport.New(logW, max(logH, 0))
		vp.SetContent(content)
	}
	vp.SetYOffset(len(lines) - logH - p.scroll)
	lay.log, lay.logText = vp, content
	back := max(0, len(lines)-logH-vp.YOffset)
	rule := "commands, as sent · replies, as redis-cli prints them"
	if strip {
		rule = "commands, as sent under " + p.Snap.Prefix + " · replies"
	}
	if back > 0 {
		rule = fmt.Sprintf("commands · %d newer below: ] or the wheel", back)
	} else if len(lines) > logH {
		rule += fmt.Sprintf(" · %d earlier: [", len(lines)-logH)
	}
	middle := views.Rule(st, rule, logW) + "\n" + logView(vp, content)
	if script != "" {
		middle += "\n" + script
	}
	if wide {
		rw := readoutW
		panel := views.Rule(st, "readout", rw) + "\n" + st.Wrap(readout, rw, logH)
		middle = views.JoinTop(middle, " ", panel)
	}
	switch {
	case p.notes && p.notesRows(st, w) > logH:
		// more notes than the log has rows: they take the screen, whole
		return top[0] + "\n" + views.Rule(st, "speaker notes · N hides them", w) + "\n" +
			fitRows(st.Wrap(p.Notes(p.role), w, h-3), h-3), lay
	case p.notes:
		middle = views.Rule(st, "speaker notes · N hides them", w) + "\n" + st.Wrap(p.Notes(p.role), w, logH)
	case p.Asking:
		middle, lay.logRows = p.questionWithLog(st, lines, listed, w, logH)
	}
	return strings.Join(top, "\n") + "\n" + middle + "\n" + strings.Join(bottom[:len(bottom)-1], "\n"), lay
}

// header is the scene's title line, with the server (for a quiz: that it
// sends nothing) on the right.
func (p *Player) header(st views.Styles, w int) string {
	mode := p.Snap.Backend
	if len(p.Snap.Nodes) > 0 && p.Snap.Live && !p.Snap.SharedNodes {
		// the story's nodes are servers of their own (-redlock)
		mode = fmt.Sprintf("%d live nodes", len(p.Snap.Nodes))
	}
	server := mode
	if p.Snap.Live {
		mode += fmt.Sprintf(" ÷%d", p.Snap.Scale)
		if p.Snap.Capped {
			mode += " (capped)"
		}
	}
	// the server's side, from the whole to the shortest: a title that
	// does not fit beside it (a presenter's timeout, "Waiting for a lock,
	// with a deadline"; gc-pause's beside a live server's address) keeps
	// its words and the side loses the seed, then the scale (or what a
	// quiz sends), before the title is cut
	modes := []string{mode + fmt.Sprintf(" · seed %d", p.Seed), mode, server}
	if !p.Sends() {
		modes = []string{"quiz · sends no command", "quiz"}
	}
	if p.Present {
		for i := range modes {
			modes[i] = "presenter · " + modes[i]
		}
	}
	name := p.Text.Get("title")
	if lp := p.LabPlace(); lp != nil && lp.Title() != "" {
		name = lp.Title() // a lab story is a level's, not the lab's own page
	}
	title := views.OneLine(st.Title, "locksim") + " " + views.OneLine(st.Bold, p.Scene.ID) + views.OneLine(st.Dim, " · "+p.Text.Get("dive")+" · ") + name
	if ansi.StringWidth(title)+ansi.StringWidth(modes[0])+2 > w { // spread keeps two spaces between them
		// the dive is on the story page and in the contents: the title stays whole
		title = views.OneLine(st.Title, "locksim") + " " + views.OneLine(st.Bold, p.Scene.ID) + views.OneLine(st.Dim, " · ") + name
	}
	mode = modes[0]
	for _, m := range modes[1:] {
		if ansi.StringWidth(title)+ansi.StringWidth(mode)+2 <= w {
			break
		}
		mode = m
	}
	return spread(title, views.OneLine(st.Dim, mode), w)
}

// hiding reports that the disclosure rule hides the state as read: the
// keys, the nodes, the verdict, the alarm and the properties. One rule for
// every role: a presenter's class must not read the answer either.
func (p *Player) hiding() bool { return !p.Disclose(play.Learner).State }

// hiddenNote stands where a hidden value would be, worded for who answers.
func (p *Player) hiddenNote() string {
	if p.Waiting() {
		return "(hidden until the instructor runs the move)"
	}
	if p.Present {
		return "(hidden until the next click)"
	}
	return p.Text.Get("verdict-hidden")
}

// questionWithLog is the prediction panel with its first hints hints, in
// rows lines, under the newest log lines when there is room for them: the
// move that set the question up stays in view while the class thinks.
func (p *Player) questionWithLog(st views.Styles, lines []views.LogLine, hints, w, rows int) (string, int) {
	ql := p.questionLines(st, w, hints)
	q := fitRows(strings.Join(ql, "\n"), rows)
	tail := min(len(lines), rows-len(ql)-1) // and a rule over the log
	if tail <= 0 {
		return views.Rule(st, "predict", w) + "\n" + q, 0
	}
	// the clue may be an older line: [ and ] scroll the few rows left
	back := min(p.scroll, max(0, len(lines)-tail))
	rule := "commands, newest last"
	if earlier := len(lines) - tail - back; earlier > 0 {
		rule += fmt.Sprintf(" · %d earlier: [", earlier)
	}
	if back > 0 {
		rule += fmt.Sprintf(" · %d newer: ]", back)
	}
	return fitRows(views.Rule(st, rule, w)+"\n"+p.com.log.Draw(st, lines, w, tail, back)+"\n"+
		views.Rule(st, "predict", w)+"\n"+q, rows+1), tail
}

// questionLines are the prediction panel's rows: the question, the
// numbered choices, and the first hints hints.
func (p *Player) questionLines(st views.Styles, w, hints int) []string {
	var lines []string
	lines = append(lines, strings.Split(st.Wrap(p.Question("predict"), w, 3), "\n")...)
	for i, c := range p.Choices() {
		lines = append(lines, truncate(views.OneLine(st.Key, itoa(int64(i+1)))+") "+c, w))
	}
	for i := 1; i <= hints; i++ {
		lines = append(lines, strings.Split(views.OneLine(st.Dim, st.Wrap("hint: "+p.Question("hint-"+itoa(int64(i))), w, 2)), "\n")...)
	}
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// verdictOnGuess says whether the prediction came true.
func (p *Player) verdictOnGuess() string {
	choices := p.Choices()
	if p.Guess < 0 {
		// put to the class: say what the replies answered
		if p.Actual < 0 || p.Actual >= len(choices) {
			return p.Text.Get("reveal-class-none")
		}
		return p.Text.Fill("reveal-class", map[string]string{"actual": choices[p.Actual]})
	}
	vars := map[string]string{"guess": choices[p.Guess]}
	switch {
	case p.Actual < 0 || p.Actual >= len(choices):
		return p.Text.Fill("reveal-none", vars)
	case p.Actual == p.Guess:
		return p.Text.Fill("reveal-right", vars)
	}
	vars["actual"] = choices[p.Actual]
	return p.Text.Fill("reveal-wrong", vars)
}

// scrollLog moves the log view by d lines (positive: back in time), no
// further back than the first line: the view stops at both ends.
func (p *Player) scrollLog(d int) {
	p.scroll = max(0, min(p.scroll+d, max(p.logLen, len(p.Snap.Events))-p.logRows))
}

// notesRows is how many rows the speaker notes take at width w: measured
// only when they are on screen.
func (p *Player) notesRows(st views.Styles, w int) int {
	return views.Rows(p.Notes(p.role), max(w, 1))
}
