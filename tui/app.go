package tui

import (
	"context"
	"slices"
	"sync"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// MinWidth and MinHeight are the smallest terminal locksim draws a scene in.
const (
	MinWidth  = 80
	MinHeight = 24
)

// App is the Bubble Tea model of one screen: a stack of pages (see
// Component) over the session they share. A key goes to the page on top,
// after the few that are the whole screen's (ctrl+c, and the class's keys
// on a screen in a class); the resize, the server's health and the
// class's messages are the app's; the rest of the session's work reaches
// the player, and every page takes its own.
type App struct {
	*session
	// pages is what is on screen, the page on top last (see Component)
	pages stack
}

// TrialsFromRace is how many trials of each variant t runs in the race scene.
const TrialsFromRace = 1000

// NewApp opens the scene with the given id on backend b; tokens come from
// seed. Call Shutdown after the program ends.
func NewApp(b *sim.Backend, id string, seed uint64) (*App, error) {
	a := newApp(b, seed)
	s, err := a.course.Open(max(a.course.Index(id), 0), nil)
	if err != nil {
		a.cancel()
		return nil, err
	}
	a.setPlayer(s)
	a.doAsks() // the scene's page for its kind: no command, nothing runs yet
	return a, nil
}

// newApp is the app of a course on backend b, tokens drawn from seed,
// with no scene open yet: the caller opens one through the course and
// puts it on screen (setPlayer).
func newApp(b *sim.Backend, seed uint64) *App {
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{ctx: ctx, cancel: cancel, b: b, seed: seed, ops: &sync.WaitGroup{}, switchWanted: -1, labOwn: labStarter(),
		com: NewCommon(views.ASCII(), scenes.Export{}), clock: time.Now}
	s.course = play.NewCourse(ctx, b, seed, s.ops)
	s.help = s.com.help()
	return &App{session: s, pages: stack{&scenePage{a: s}}}
}

// Shutdown stops what is in flight and waits for it until ctx's deadline,
// then releases the scene's connections. The keys go with the backend's
// Close, on a fresh connection.
func (a *App) Shutdown(ctx context.Context) {
	a.cancel()
	a.pages.shut(ctx)
	done := make(chan struct{})
	go func() { a.ops.Wait(); close(done) }()
	select {
	case <-done:
		a.closeRuns(ctx)
	case <-ctx.Done():
		// a command is still stuck in a stalled server; the backend's
		// cleanup does not need its connection
	}
}

// Init starts the first scene (at -step N if asked), and on a live server
// the health watch.
func (a *App) Init() tea.Cmd {
	start := a.pl.Start(nil)
	if at := a.labAt; at != nil {
		// a lab story's position: the story over the lab, the course's
		// scene started under it
		a.labAt = nil
		if l := a.labPage(); l != nil {
			start = tea.Batch(start, a.openLabAt(l, *at), a.doAsks())
		}
	}
	if a.b.Live() {
		return tea.Batch(start, healthLater(a.b))
	}
	return start
}

// healthTick asks the app to look at the heartbeat's last reading, which
// has changed: no Redis call, the heartbeat runs in the backend.
type healthTick struct{}

// healthRetry asks again, healthEvery after a reading that left the
// replay after an outage waiting for a move to end.
type healthRetry struct{}

const healthEvery = 500 * time.Millisecond

// healthLater waits, in a command, for the heartbeat's next change
// (sim.Backend.HealthChanged), taken now so that a change between now and
// the reading that follows is not missed. No timer runs while the server
// answers: an idle screen costs nothing.
func healthLater(b *sim.Backend) tea.Cmd {
	ch := b.HealthChanged()
	if ch == nil {
		return nil
	}
	return healthWait{ch}.wait
}

// healthWait is a method value rather than a closure so that the tests,
// which run commands in turn, can tell it from the rest (it blocks until
// the server's health changes).
type healthWait struct{ ch <-chan struct{} }

func (w healthWait) wait() tea.Msg {
	<-w.ch
	return healthTick{}
}

// onHealth reads the heartbeat (watchHealth); after a change it waits for
// the next one, unless the heartbeat has stopped; while a replay waits
// for a move to end, it reads again every healthEvery.
func (a *App) onHealth(msg tea.Msg) tea.Cmd {
	var next tea.Cmd
	if _, changed := msg.(healthTick); changed && !a.b.Health().Stopped {
		next = healthLater(a.b)
	} else if _, retry := msg.(healthRetry); retry {
		a.retrying = false
	}
	cmd := a.watchHealth()
	if h := a.b.Health(); (a.down || h.Lapsed) && h.Err == nil && !h.Stopped && !a.retrying {
		a.retrying = true
		next = tea.Batch(next, tea.Tick(healthEvery, func(time.Time) tea.Msg { return healthRetry{} }))
	}
	return tea.Batch(cmd, next)
}

// Update handles keys, mouse, resizes and the player's messages; with
// -notes, the notes file follows the step on screen.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(notesWritten); ok {
		if m.err != nil && a.pl != nil {
			a.pl.SetErr("writing the speaker notes: " + m.err.Error())
		}
		a.settle(false)
		return a, nil
	}
	sel := -2
	if a.pl != nil {
		sel = a.pl.Sel
	}
	_, cmd := a.update(msg)
	// the pages the message asked for first, so the class's row says where
	// the learner is now (on the contents or not); then what the class
	// asked for in turn
	asked := a.doAsks()
	cmd = tea.Batch(cmd, asked, a.classAfter(a.offScene()), a.doAsks())
	// a mouse moving over the screen without selecting changes nothing on it
	_, mouse := msg.(tea.MouseMsg)
	a.settle(mouse && a.pl != nil && a.pl.Sel == sel && !isWheel(msg))
	var check tea.Cmd
	if a.pl != nil {
		a.pl.role = a.role()
		check = a.pl.checkLater()
	}
	return a, tea.Batch(cmd, a.notesFollow(), a.saving(), check)
}

func (a *App) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case exported:
		if msg.id == a.pl.ID {
			a.pl.SetFlash(msg.note)
		}
		return a, nil
	case ClassMsg:
		return a, a.classMsg(msg)
	case JoinedMsg:
		var start tea.Cmd
		if msg.Class.Seat != nil {
			if old := a.joinClass(msg.Class); old != nil {
				start = a.pl.Start(old) // a returning follower, back in the story
			}
		}
		if msg.Note != "" {
			a.say(msg.Note)
		}
		return a, tea.Batch(start, a.doAsks())
	case saved:
		a.saveRunning = false
		if msg.err != nil && a.pl != nil {
			a.pl.SetErr("saving progress: " + msg.err.Error())
		}
		return a, nil
	case tea.WindowSizeMsg:
		if msg.Width <= 0 || msg.Height <= 0 {
			return a, a.unknownSize()
		}
		a.sizeAsks = 0
		a.SetSize(msg.Width, msg.Height)
		return a, nil
	case askSize:
		return a, tea.WindowSize()
	case tea.MouseMsg:
		if a.com.Width < MinWidth || a.com.Height < MinHeight {
			return a, nil
		}
		return a, a.toTop(msg)
	case tea.KeyMsg:
		// keys typed faster than the terminal is read arrive as one message
		// ("nnn"); each is a press of its own
		typing := isTyping(a.pages.top())
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !typing {
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
				cmds = append(cmds, cmd)
			}
			return a, tea.Batch(cmds...)
		}
		switch {
		case msg.Type == tea.KeyCtrlC:
			return a, a.quit(true)
		case a.com.Width < MinWidth || a.com.Height < MinHeight:
			if key.Matches(msg, a.com.Keys.Quit) {
				return a, a.quit(false) // q quits; nothing else acts on a screen too small to show it
			}
			return a, nil
		}
		if !typing {
			// a letter typed into the contents' filter is the filter's
			if cmd, done := a.classKey(msg); done {
				return a, cmd
			}
		}
		return a, a.toTop(msg)
	case quitMsg:
		return a, a.quit(false)
	case pushPage:
		return a, a.openPage(msg.c)
	case picked:
		return a, a.openEntry(msg.e)
	case play.CheckedMsg:
		a.pl.takeCheck(msg)
		return a, nil
	case showTrial:
		return a, a.openTrial(msg.rec)
	case labStory:
		if l := a.labPage(); l != nil {
			return a, a.openLabStory(l, msg.place)
		}
		return a, nil // a closed lab's
	case play.SearchProgress, play.SearchOver:
		return a, a.toPages(msg) // a closed lab's are nobody's
	case play.TrialsOpened, play.TrialsCounted, play.TrialsOver:
		// a closed page's are nobody's: the core lets go of its trials
		return a, a.toPages(msg)
	}
	switch msg.(type) {
	case healthTick, healthRetry:
		return a, a.onHealth(msg)
	}
	// the session's work first, then the pages' own messages (the contents
	// list's filter's results, a move of the lab's story)
	cmd := a.sceneMsg(msg)
	return a, tea.Batch(cmd, a.toPages(msg))
}

// toTop hands msg (a key, the mouse) to the page on top, and puts what
// it returns in its place (see Component).
func (a *App) toTop(msg tea.Msg) tea.Cmd {
	was := a.pages.top()
	c, cmd := was.Update(msg)
	return tea.Batch(cmd, a.settlePage(was, c))
}

// toPages hands msg to every page, the bottom first; each takes its own.
func (a *App) toPages(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, was := range slices.Clone(a.pages) {
		c, cmd := was.Update(msg)
		cmds = append(cmds, cmd, a.settlePage(was, c))
	}
	return tea.Batch(cmds...)
}

// settlePage puts c where page was stood, if it still stands: was stays,
// another page takes its place (started at the screen's size), nil closes
// it and the pages over it.
func (a *App) settlePage(was, c Component) tea.Cmd {
	i := slices.Index(a.pages, was)
	switch {
	case i < 0 || c == was:
		return nil
	case c == nil:
		a.pages.closeAt(i)
		return nil
	}
	if old, ok := was.(closer); ok {
		old.close()
	}
	a.pages[i] = c
	c.SetSize(a.com.Width, a.com.Height)
	return c.Init()
}

// openPage puts c on top of the stack, at the screen's size, and starts it.
func (a *App) openPage(c Component) tea.Cmd {
	a.pages.push(c)
	c.SetSize(a.com.Width, a.com.Height)
	return c.Init()
}

// doAsks carries out what the message asked of the stack (see pageAsk):
// first the pages over the scene closed, then a page opened.
func (a *App) doAsks() tea.Cmd {
	ask := a.asks
	a.asks = pageAsk{}
	if ask.note != "" {
		if a.onContents() {
			a.toc.notice = ask.note
		} else {
			a.pl.SetFlash(ask.note)
		}
	}
	if ask.close {
		var desk Component
		if top := a.pages.top(); ask.keepDesk && isDesk(top) {
			desk, a.pages = top, a.pages[:len(a.pages)-1]
		}
		a.pages.closeAt(a.pages.find(isScene) + 1)
		if desk != nil {
			a.pages.push(desk)
		}
	}
	if ask.scene {
		// the scene on top is drawn by the page of its kind
		i := a.pages.find(isScene)
		p := sceneOf(a.pages[i])
		if a.quiz != nil {
			a.pages[i] = &quizPage{p}
		} else {
			a.pages[i] = p
		}
	}
	var cmds []tea.Cmd
	if ask.contents && a.toc != nil && !a.offScene() {
		cmds = append(cmds, a.toContents())
	}
	for _, c := range ask.open {
		cmds = append(cmds, a.openPage(c))
	}
	return tea.Batch(cmds...)
}

// isScene reports a scene's page: a story's, a race's or a quiz's.
func isScene(c Component) bool { return sceneOf(c) != nil }

// sceneOf is the scene page c is, or draws a quiz with; nil for another
// page.
func sceneOf(c Component) *scenePage {
	switch c := c.(type) {
	case *scenePage:
		return c
	case *quizPage:
		return c.scenePage
	}
	return nil
}

// View draws the current scene, or says how large the terminal must be.
func (a *App) View() string {
	if a.com.Width < MinWidth || a.com.Height < MinHeight {
		return views.TooSmall(a.com.Styles, a.com.Width, a.com.Height, MinWidth, MinHeight)
	}
	return a.pages.top().View()
}

// Running reports a move of the scene running with nothing on screen
// saying so: on the embedded server a step shows no spinner, so the view
// drawn while it runs is the one before it, and the move's end (a
// message) comes moments later. A served session's frames skip those
// views (serve's drawn).
func (a *App) Running() bool { return a.pl != nil && a.pl.Busy && !a.pl.spinning }

// SetSize sets the size the screen draws at: the terminal's, or a
// session's window; each part of the screen gets it.
func (a *App) SetSize(w, h int) {
	a.com.SetSize(w, h)
	a.help.Width = w
	a.sizeParts()
}

// askSize asks the terminal its size again (tea.WindowSize).
type askSize struct{}

// sizeAsksAtMost and sizeAskEvery bound asking a terminal that said 0x0
// its size again: a few times, a quarter of a second apart.
const (
	sizeAsksAtMost = 8
	sizeAskEvery   = time.Second / 4
)

// unknownSize takes a size of 0x0 (or of no rows or no columns) as no
// size known: the program started in a tmux pane just created detached
// reads 0x0, and drew nothing until a key. The screen draws at 80x24
// until a size comes (the next WindowSizeMsg redraws it at that one), and
// the terminal is asked again, a few times, a moment apart.
func (a *App) unknownSize() tea.Cmd {
	if a.com.Width <= 0 || a.com.Height <= 0 {
		a.SetSize(MinWidth, MinHeight)
	}
	if a.sizeAsks >= sizeAsksAtMost {
		return nil
	}
	a.sizeAsks++
	return tea.Tick(sizeAskEvery, func(time.Time) tea.Msg { return askSize{} })
}

// sizeParts gives every part of the screen the size in Common. The
// contents are sized only while on screen at a size a scene is drawn at.
func (a *App) sizeParts() {
	w, h := a.com.Width, a.com.Height
	for _, c := range a.pages {
		c.SetSize(w, h)
	}
}

// settle keeps what drawing the next frame needs from writing state, so
// that View only reads: the contents list's size now, and the scene's
// layout (where the cards are, how many log lines show) marked stale
// unless the message changed nothing on screen; layout works it out when
// the mouse or a scroll needs it.
func (a *App) settle(still bool) {
	if a.onContents() {
		a.toc.SetSize(a.com.Width, a.com.Height)
	}
	if !still {
		a.laidOut = false
	}
	if a.pl != nil && a.pl.Sends() {
		a.pl.Explanation() // once per snapshot and selection, here rather than in View
	}
	a.syncDesk(a.offScene())
}

func isWheel(msg tea.Msg) bool {
	m, ok := msg.(tea.MouseMsg)
	return ok && (m.Button == tea.MouseButtonWheelUp || m.Button == tea.MouseButtonWheelDown)
}
