package serve

import (
	"fmt"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// A watch is an instructor's session drawing a student's live screen at
// the student's side: the frames the student's own program drew (frames),
// rendered once, for the student, and cropped or letterboxed to the
// watcher's terminal; read-only, until the student says yes to a pair,
// when the instructor's keys go to the student's program too. The student
// is told for as long as it lasts, on a line of their own screen, and may
// end it (EndKey); so may the instructor (esc), and either session's end
// does. A watch runs inside the instructor's session, which admit counted
// as the instructor's: it takes no slot of the student's key, address or
// class, and no session of its own.
type watch struct {
	srv              *Server
	teacher, student *Session
	// tName and sName are the names the two screens show of each other
	tName, sName string
	started      time.Time

	mu sync.Mutex
	// lines is the student's newest frame, every row of it as their
	// program drew it, for a terminal of w×h
	lines []string
	w, h  int
	pair  pairState
	// refused is set when the student said no to the last ask
	refused bool
	// typed is who typed last while paired ("" before anyone did)
	typed string
	// pairedAt is when the pair began; pairedFor the time paired before
	// it; pairs how many times the student said yes
	pairedAt  time.Time
	pairedFor time.Duration
	pairs     int
	// ended says why the watch ended; "" while it lasts
	ended string
	// room is set for a projector's watch, a show of the student's screen
	// to the room (show.go); show is the instructor's ask to show it, and
	// shows the projectors' watches while it is shown
	room  bool
	show  pairState
	shows []*watch
	// keys are the instructor's keys, while paired, waiting to reach the
	// student's program in the order they came
	keys []tea.KeyMsg

	toTeacher chan struct{} // a token while the watcher's screen has news
	toStudent chan struct{} // a token while the student's screen has news or keys
	done      chan struct{}
	once      sync.Once
}

type pairState int

const (
	pairOff   pairState = iota
	pairAsked           // the instructor asked; the student has not answered
	pairOn              // the student said yes: both type
)

// EndKey ends a watch or a pair from either side: the student's session
// ends every watch of it, the instructor's ends the pair it types in. A
// control key the course binds nowhere (the lab's editor takes the
// letters' control keys), and one a browser leaves to the page.
const EndKey = "ctrl+]"

// Visit is one watch as the class's record keeps it: who watched whom,
// when, for how long, and for how much of it they typed together.
type Visit struct {
	// Teacher and Student are the two sessions' identities; their names
	// as the screens showed them.
	Teacher, Student         Identity
	TeacherName, StudentName string
	Start, End               time.Time
	// Paired is the time the two typed together; Pairs how many times the
	// student said yes to pair.
	Paired time.Duration
	Pairs  int
}

// Watcher is a Class that says which sessions an instructor's session
// may watch: a student of a class it leads. Without it, any instructor
// key may watch any session with a screen on this server.
type Watcher interface {
	MayWatch(teacher, student *Session) bool
}

// WatchRecorder is a Class that keeps each watch once it has ended, for
// the class's report.
type WatchRecorder interface {
	Watched(teacher, student *Session, v Visit)
}

// watchRoom is the server's watches: by the student watched (several
// instructors' sessions may watch one) and by the watcher (one at a time).
type watchRoom struct {
	mu sync.Mutex
	of map[*Session][]*watch
	by map[*Session]*watch
}

func (r *watchRoom) add(w *watch) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.of == nil {
		r.of, r.by = map[*Session][]*watch{}, map[*Session]*watch{}
	}
	r.of[w.student] = append(r.of[w.student], w)
	r.by[w.teacher] = w
}

func (r *watchRoom) remove(w *watch) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ws := r.of[w.student]
	for i, x := range ws {
		if x == w {
			ws = append(ws[:i:i], ws[i+1:]...)
			break
		}
	}
	if len(ws) == 0 {
		delete(r.of, w.student)
	} else {
		r.of[w.student] = ws
	}
	if r.by[w.teacher] == w {
		delete(r.by, w.teacher)
	}
}

// watching is the watch ses draws, nil for none.
func (r *watchRoom) watching(ses *Session) *watch {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.by[ses]
}

// watchesOf are the watches of ses's screen.
func (r *watchRoom) watchesOf(ses *Session) []*watch {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*watch(nil), r.of[ses]...)
}

// startWatch has teacher watch the screen of the student whose class
// member id is id (name, as the class view showed it): the session of
// that student on this server that teacher may watch. It returns the
// watch, or the one line that says why not.
func (s *Server) startWatch(teacher *Session, id, name string) (*watch, string) {
	if !teacher.Instructor {
		return nil, "only an instructor's key watches a student's screen"
	}
	var found []*Session
	s.mu.Lock()
	for ses := range s.live {
		if ses.ID == id && ses != teacher && ses.fr != nil {
			found = append(found, ses)
		}
	}
	s.mu.Unlock()
	// without the class's word, an instructor's session (a projector tab
	// is one) is no student to watch
	may, _ := s.cfg.Class.(Watcher)
	var student *Session
	for _, ses := range found {
		if may == nil && !ses.Instructor || may != nil && may.MayWatch(teacher, ses) {
			student = ses
			break
		}
	}
	if student == nil {
		return nil, name + " has no screen open on this server you may watch"
	}
	if old := s.room.watching(teacher); old != nil {
		old.end("")
	}
	sName := student.Name
	if sName == "" {
		sName = name
	}
	tName := teacher.Name
	if tName == "" {
		tName = "the instructor"
	}
	w := &watch{srv: s, teacher: teacher, student: student, tName: tName, sName: sName, started: s.clock.Now(),
		toTeacher: make(chan struct{}, 1), toStudent: make(chan struct{}, 1), done: make(chan struct{})}
	s.room.add(w)
	student.fr.tap(w)
	go w.run()
	w.nudgeStudent()
	s.cfg.Log.Printf("session %s watches session %s", teacher.ID, student.ID)
	return w, ""
}

// leaveWatches ends every watch ses is in, as the watcher or the watched,
// when its session ends.
func (s *Server) leaveWatches(ses *Session) {
	if w := s.room.watching(ses); w != nil {
		w.end(w.tName + "'s session ended")
	}
	for _, w := range s.room.watchesOf(ses) {
		w.end(w.sName + "'s session ended")
	}
}

// run carries the watch's news to the two programs until it ends, then
// tells both once more. Send waits for a program to take a message (or
// to have ended), so neither program's Update ever waits on the other's.
func (w *watch) run() {
	go func() {
		defer w.srv.recovered(w.teacher.ID, "a watch")
		for {
			select {
			case <-w.toTeacher:
				w.teacher.Send(watchNews{w})
			case <-w.done:
				w.teacher.Send(watchNews{w})
				return
			}
		}
	}()
	defer w.srv.recovered(w.student.ID, "a watch")
	for {
		select {
		case <-w.toStudent:
			w.mu.Lock()
			keys := w.keys
			w.keys = nil
			w.mu.Unlock()
			for _, k := range keys {
				w.student.Send(pairKey{w: w, key: k})
			}
			w.student.Send(watchersChanged{})
		case <-w.done:
			w.student.Send(watchersChanged{})
			return
		}
	}
}

func (w *watch) nudgeTeacher() {
	select {
	case w.toTeacher <- struct{}{}:
	default:
	}
}

func (w *watch) nudgeStudent() {
	select {
	case w.toStudent <- struct{}{}:
	default:
	}
}

// frame takes the student's newest frame (its rows, never changed after,
// for a terminal of fw×fh). The student's frames call it as they paint.
func (w *watch) frame(lines []string, fw, fh int) {
	w.mu.Lock()
	w.lines, w.w, w.h = lines, fw, fh
	w.mu.Unlock()
	w.nudgeTeacher()
}

// end ends the watch, once, saying why to the watcher ("" for nothing),
// and hands it to the class's record.
func (w *watch) end(why string) {
	w.once.Do(func() {
		now := w.srv.clock.Now()
		w.mu.Lock()
		w.ended = why
		if why == "" {
			w.ended = "-"
		}
		if w.pair == pairOn {
			w.pairedFor += now.Sub(w.pairedAt)
		}
		w.pair, w.keys = pairOff, nil
		shows := w.shows
		w.shows, w.show = nil, pairOff
		v := Visit{Teacher: w.teacher.Identity, Student: w.student.Identity, TeacherName: w.tName, StudentName: w.sName,
			Start: w.started, End: now, Paired: w.pairedFor, Pairs: w.pairs}
		w.mu.Unlock()
		w.student.fr.untap(w)
		w.srv.room.remove(w)
		close(w.done)
		for _, c := range shows {
			c.end("")
		}
		if w.room {
			return // the room's: the instructor's watch is the one recorded
		}
		w.srv.cfg.Log.Printf("session %s stopped watching session %s after %s", w.teacher.ID, w.student.ID, now.Sub(w.started).Round(time.Second))
		if rec, ok := w.srv.cfg.Class.(WatchRecorder); ok {
			func() {
				defer w.srv.recovered(w.teacher.ID, "the watch's record")
				rec.Watched(w.teacher, w.student, v)
			}()
		}
	})
}

// endedWhy is why the watch ended, "" while it lasts.
func (w *watch) endedWhy() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ended
}

// askPair asks the student to pair; a watch already paired, shown to
// the room or asking stays as it is.
func (w *watch) askPair() {
	w.mu.Lock()
	if w.pair == pairOff && w.show == pairOff && w.ended == "" {
		w.pair, w.refused = pairAsked, false
	}
	w.mu.Unlock()
	w.nudgeStudent()
	w.nudgeTeacher()
}

// answer is the student's yes or no to the ask: to show their screen to
// the room, or to pair.
func (w *watch) answer(yes bool) {
	w.mu.Lock()
	if w.show == pairAsked {
		w.show = pairOff
		if yes {
			w.show = pairOn
		}
		w.refused = !yes
		w.mu.Unlock()
		if yes {
			w.srv.startShow(w)
		}
		w.nudgeStudent()
		w.nudgeTeacher()
		return
	}
	if w.pair == pairAsked {
		if yes {
			w.pair, w.pairedAt = pairOn, w.srv.clock.Now()
			w.pairs++
		} else {
			w.pair, w.refused = pairOff, true
		}
	}
	w.mu.Unlock()
	w.nudgeStudent()
	w.nudgeTeacher()
}

// endPair ends the pair; the watch goes on, read-only.
func (w *watch) endPair() {
	w.mu.Lock()
	if w.pair == pairOn {
		w.pairedFor += w.srv.clock.Now().Sub(w.pairedAt)
	}
	w.pair, w.keys, w.typed = pairOff, nil, ""
	w.mu.Unlock()
	w.nudgeStudent()
	w.nudgeTeacher()
}

// state is the pair's state.
func (w *watch) state() pairState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pair
}

// asking reports an ask (to pair, or to show) the student has not
// answered.
func (w *watch) asking() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pair == pairAsked || w.show == pairAsked
}

// send queues one of the instructor's keys for the student's program,
// while paired.
func (w *watch) send(k tea.KeyMsg) {
	w.mu.Lock()
	on := w.pair == pairOn
	if on {
		w.keys = append(w.keys, k)
	}
	w.mu.Unlock()
	if on {
		w.nudgeStudent()
	}
}

// typedBy notes who typed last while paired; it reports whether that
// changed.
func (w *watch) typedBy(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pair != pairOn || w.typed == name {
		return false
	}
	w.typed = name
	return true
}

// watchNews tells the watcher's program that the student's screen (or
// the watch) changed.
type watchNews struct{ w *watch }

// watchersChanged tells the student's program that its watches changed.
type watchersChanged struct{}

// pairKey is one of the instructor's keys for the student's program.
type pairKey struct {
	w   *watch
	key tea.KeyMsg
}

// header is the watcher's top line: whom, at what size, the keys.
func (w *watch) header(width, height int) string {
	w.mu.Lock()
	sw, sh, pair, refused, show := w.w, w.h, w.pair, w.refused, w.show
	w.mu.Unlock()
	fit := "whole"
	switch {
	case sw > width || sh > height-1:
		fit = "cropped"
	case sw < width || sh < height-1:
		fit = "letterboxed"
	}
	switch pair {
	case pairOn:
		return fmt.Sprintf("paired with %s: your keys go to their screen · %s ends the pair", w.sName, EndKey)
	case pairAsked:
		return fmt.Sprintf("watching %s · asked to pair: waiting for their answer · esc leaves", w.sName)
	}
	switch show {
	case pairAsked:
		return fmt.Sprintf("watching %s · asked to show their screen on the projector: waiting · esc leaves", w.sName)
	case pairOn:
		return fmt.Sprintf("watching %s · on the projector too · R takes it off · esc leaves", w.sName)
	}
	line := fmt.Sprintf("watching %s (%dx%d, %s) · P pair · R projector · esc leaves", w.sName, sw, sh, fit)
	if refused {
		line = fmt.Sprintf("watching %s · they said no · esc leaves", w.sName)
	}
	return line
}

// body is the student's screen in width×rows: centred where it is
// smaller; where it is larger, its left columns and its last rows (the
// keys and the class's line are at the bottom), as a terminal too small
// for a view shows it.
func (w *watch) body(width, rows int) []string {
	w.mu.Lock()
	lines, sw, sh := w.lines, w.w, w.h
	w.mu.Unlock()
	top, left := (rows-sh)/2, max((width-sw)/2, 0)
	if rows < sh {
		top = rows - sh
	}
	pad := strings.Repeat(" ", left)
	out := make([]string, rows)
	for i := range out {
		j := i - top
		if j < 0 || j >= len(lines) {
			continue
		}
		l := ansi.Truncate(lines[j], sw, "")
		if left > 0 {
			l = pad + l
		}
		out[i] = ansi.Truncate(l, width, "")
	}
	return out
}

// tap adds w to the watches of f's screen: it has the screen now, and
// each frame after.
func (f *frames) tap(w *watch) {
	f.mu.Lock()
	if f.taps == nil {
		f.taps = map[*watch]bool{}
	}
	f.taps[w] = true
	lines, fw, fh, stopped := f.shown, f.w, f.h, f.stopped
	f.mu.Unlock()
	if stopped {
		w.end(w.sName + "'s session ended")
		return
	}
	w.frame(lines, fw, fh)
}

func (f *frames) untap(w *watch) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.taps, w)
}

// tell hands a painted frame to the watches. The caller holds mu.
func (f *frames) tell(lines []string) {
	for w := range f.taps {
		w.frame(lines, f.w, f.h)
	}
}
