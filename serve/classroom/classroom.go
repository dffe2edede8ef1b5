// Package classroom is the instructor's half of the course over SSH: it
// plugs a class hub (package class) into the SSH server (serve.Config's
// Class and Commands). An instructor key opens its class and sees the
// code; `ssh -p PORT CODE@host` joins it as a student, or, from the
// instructor's own key, as the projector; `ssh host report CODE` writes
// the class summary as CSV.
package classroom

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"locksim/class"
	"locksim/serve"
	"locksim/tui"

	tea "github.com/charmbracelet/bubbletea"
)

// Classes is the hook the SSH server calls for every session: it seats
// the session in its class and keeps the class's events flowing to it.
type Classes struct {
	hub class.Hub
	// join is how students reach this server, with CODE where the class
	// code goes: "ssh -p 2222 CODE@host"
	join string
	// web is the page a class is joined from in a browser, set by OnWeb
	web webJoin
	// enrolled is the school's roster (-roster), set by Enrol
	enrolled []class.Enrolled
	now      func() time.Time
	log      func(format string, a ...any)

	mu    sync.Mutex
	seats map[*serve.Session]*seated
}

// seated is one session's place: its seat and the watch its events come by.
type seated struct {
	seat  *class.Seat
	watch *class.Watch
	done  chan struct{} // closed once the events' goroutine has ended
}

// New is the hook over hub. join is the command students join with, CODE
// standing for the class's code; logf (nil for none) gets one line when a
// class fails a session.
func New(hub class.Hub, join string, logf func(format string, a ...any)) *Classes {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Classes{hub: hub, join: join, now: time.Now, log: logf, seats: map[*serve.Session]*seated{}}
}

// Seat is the class a session's user name names (serve.Seater), asked
// before the session opens: an open class's code, or wrong for a name of
// a code's form that no class has. An instructor's user name is the name
// of the class they lead, never a guess.
func (c *Classes) Seat(ctx context.Context, id serve.Identity) (code string, wrong bool, err error) {
	if id.Instructor || !class.ValidCode(id.User) {
		return "", false, nil
	}
	info, err := c.hub.Find(ctx, id.User)
	switch {
	case errors.Is(err, class.ErrNoClass):
		return "", true, nil
	case err != nil:
		return "", false, err
	case !info.Closed.IsZero():
		return "", false, nil
	}
	return info.Code, false, nil
}

// Model is the app itself: it draws the class's panes.
func (c *Classes) Model(_ *serve.Session, app *tui.App) tea.Model { return app }

// Join seats the session: from an instructor's key, its own class's code
// is the projector, and a user name that is no class's code opens (or
// finds again) its class to lead; any key with a class's code (another
// instructor's too) is a student there. Other sessions join nothing.
func (c *Classes) Join(s *serve.Session) {
	ctx := s.Context()
	role, code, note, err := c.place(ctx, s.Identity)
	if err != nil {
		c.log("session %s: class: %v", s.ID, err)
		s.Send(tui.JoinedMsg{Note: "the class is out of reach: " + err.Error()})
		return
	}
	if code == "" {
		if note != "" {
			s.Send(tui.JoinedMsg{Note: note})
		}
		return
	}
	name := s.Name
	if name == "" {
		name = map[class.Role]string{class.Instructor: "instructor", class.Projector: "projector"}[role]
		if name == "" {
			name = "student " + s.ID[:min(6, len(s.ID))]
		}
	}
	seat, err := class.Sit(ctx, c.hub, code, class.Member{ID: s.ID, Name: name, Role: role}, nil)
	if err != nil {
		c.log("session %s: class %s: %v", s.ID, code, err)
		s.Send(tui.JoinedMsg{Note: "class " + code + " could not be joined: " + err.Error()})
		return
	}
	// the instructor's screen reads the roster's presence every beat; the
	// others hear the class's moves only
	watch, err := seat.Watch()
	if role == class.Instructor {
		watch, err = seat.WatchRoster()
	}
	if err != nil {
		seat.Leave(context.Background())
		s.Send(tui.JoinedMsg{Note: "class " + code + " could not be joined: " + err.Error()})
		return
	}
	st := &seated{seat: seat, watch: watch, done: make(chan struct{})}
	c.mu.Lock()
	c.seats[s] = st
	c.mu.Unlock()
	room := tui.Classroom{Seat: seat, Join: c.joinFor(code, s.Identity.Local), Web: c.web.link(code, s.Identity.Local)}
	if link := s.ProjectorLink(code); role == class.Instructor && link != "" {
		// the instructor's alone: it opens this class's projector. The
		// class view (l) shows it whole, where the note would be cut at
		// 80 columns
		room.Projector = link
	}
	if role == class.Instructor && s.Key != nil {
		// a one-time link to a tab of this class view, from the
		// instructor's SSH session alone (a tab has no key to make one)
		room.TabLink = func() (string, time.Duration) { return s.TabLink(code), serve.TabLinkLife }
	}
	if role == class.Instructor {
		c.mu.Lock()
		room.Enrolled = c.enrolled // the school's records are the instructor's alone
		c.mu.Unlock()
	}
	s.Send(tui.JoinedMsg{Class: room, Note: note})
	go func() {
		defer close(st.done)
		defer func() {
			if r := recover(); r != nil {
				c.log("session %s: panic in the class's events: %v\n%s", s.ID, r, debug.Stack())
			}
		}()
		send := func(msg tea.Msg) {
			m, ok := msg.(tui.ClassMsg)
			if ok && role != class.Instructor {
				// the roster is the instructor's to see: a student's or
				// a projector's screen takes only the instructor's moves,
				// not a message for every classmate's every row
				m.Events = slices.DeleteFunc(m.Events, func(e class.Event) bool { return e.Kind == class.KindMember || e.Kind == class.KindMatch })
				if len(m.Events) == 0 {
					return
				}
				msg = m
			}
			// the instructor's moves keep a lesson's sessions from idling out
			if ok && slices.ContainsFunc(m.Events, func(e class.Event) bool { return e.Kind == class.KindLead }) {
				s.Touch()
			}
			s.Send(msg)
		}
		if role == class.Student {
			go c.watchLeader(ctx, s, seat)
		}
		err := tui.Listen(ctx, seat, watch, send)
		if err != nil && ctx.Err() == nil && !errors.Is(err, class.ErrClosed) {
			c.log("session %s: class %s: %v", s.ID, code, err)
		}
	}()
}

// Notes a following student gets when the instructor's sessions stop
// beating, and when one beats again.
const (
	AwayNote = "the instructor is away: you keep your place"
	BackNote = "the instructor is back"
)

// watchLeader tells a student who follows when the instructor's session
// has stopped beating for class.Gone (its server died, or it left) and
// when one beats again; a follower keeps following, and goes on with the
// lesson as soon as the leading place moves again.
func (c *Classes) watchLeader(ctx context.Context, s *serve.Session, seat *class.Seat) {
	defer func() {
		if r := recover(); r != nil {
			c.log("session %s: panic watching the instructor: %v\n%s", s.ID, r, debug.Stack())
		}
	}()
	info := seat.Info()
	t := time.NewTicker(class.Beat)
	defer t.Stop()
	here := true
	for {
		select {
		case <-ctx.Done():
			return
		case <-seat.Left():
			return
		case <-t.C:
		}
		at, err := c.hub.LastBeat(ctx, info.Code, info.Lead, class.Instructor)
		if err != nil {
			continue // the hub is out of reach: nothing to say of the instructor
		}
		now := c.now()
		switch {
		case here && now.Sub(at) >= class.Gone:
			here = false
			away := true
			s.Send(tui.ClassMsg{Away: &away}) // a class is not held while its instructor is away
			if seat.Member().Following {
				s.Send(tui.JoinedMsg{Note: AwayNote})
			}
		case !here && now.Sub(at) < class.Gone:
			here = true
			away := false
			s.Send(tui.ClassMsg{Away: &away})
			if seat.Member().Following {
				s.Send(tui.JoinedMsg{Note: BackNote})
			}
		}
	}
}

// KnownName is the name a student's key (or reconnect token) has in the
// class its user name's code names, or an instructor's key in the class
// they lead (by its code, or the name that opens it): one who comes to
// another server of the class is not asked it again. An instructor's
// name is their row's in the class store, as a student's is.
func (c *Classes) KnownName(ctx context.Context, id serve.Identity) (string, bool) {
	code := id.Leads // an instructor's tab leads the class its link names
	if code == "" && class.ValidCode(id.User) {
		if _, err := c.hub.Find(ctx, id.User); err == nil {
			code = id.User
		}
	}
	if code == "" && id.Instructor {
		// as place finds it, without opening it: a session that leaves
		// at the name prompt opens no class
		info, err := c.hub.FindNamed(ctx, id.KeyHash, serve.CleanName(id.User))
		if err != nil {
			return "", false
		}
		code = info.Code
	}
	if code == "" {
		return "", false
	}
	roster, err := c.hub.Roster(ctx, code)
	if err != nil {
		return "", false
	}
	for _, m := range roster {
		if m.ID != id.ID || m.Name == "" {
			continue
		}
		// a projector's row is named for its role, not by its instructor
		if m.Role == class.Student || m.Role == class.Instructor && id.Instructor {
			return serve.CleanName(m.Name), true
		}
	}
	return "", false
}

// place is the session's role and class: "" for none, with a note to
// say when its user name looked like a code but named no class, or is
// not a code at all (a student who typed the class's name, or connected
// without CODE@): where a code comes from.
func (c *Classes) place(ctx context.Context, id serve.Identity) (role class.Role, code, note string, err error) {
	if id.Leads != "" {
		return c.placeTab(ctx, id)
	}
	var asked class.Info
	if class.ValidCode(id.User) {
		asked, err = c.hub.Find(ctx, id.User)
		switch {
		case errors.Is(err, class.ErrNoClass):
			err, note = nil, "no class has code "+id.User+": you are on the course alone"
		case err != nil:
			return "", "", "", err
		case !asked.Closed.IsZero():
			return "", "", "class " + id.User + " is closed: you are on the course alone", nil
		}
	}
	switch {
	case id.Instructor && asked.Code != "" && asked.Lead == id.KeyHash:
		return class.Projector, asked.Code, "the projector of class " + asked.Code + ": it shows the scene you lead", nil
	case asked.Code != "" && id.Token != "":
		return class.Student, asked.Code, "you joined class " + asked.Code + " · no key: " + c.comeBack(id) + " comes back as you", nil
	case asked.Code != "":
		// another instructor's code joins that class as a student: an
		// instructor drives only their own class
		return class.Student, asked.Code, "you joined class " + asked.Code, nil
	case id.Instructor:
		// the instructor's user name names the class: the same name is the
		// same class, next week or after a restart, until it is closed
		// the name is the client's to choose: a bidirectional override in
		// it would reverse the class's line on every screen that shows it
		info, err := c.hub.OpenNamed(ctx, id.KeyHash, serve.CleanName(id.User))
		if err != nil {
			return "", "", "", err
		}
		return class.Instructor, info.Code, "class " + info.Code + " (" + info.Name + ") is open · l shows the class · F asks it to follow", nil
	}
	if note == "" && id.User != "" && !class.ValidCode(id.User) {
		note = notACode(id.User)
	}
	return "", "", note, nil
}

// placeTab is the place of an instructor's tab (serve.Session.TabLink):
// the instructor of the class its link was made for, while that class
// is open and led by the tab's key; else the course alone, saying why.
func (c *Classes) placeTab(ctx context.Context, id serve.Identity) (role class.Role, code, note string, err error) {
	info, err := c.hub.Find(ctx, id.Leads)
	switch {
	case errors.Is(err, class.ErrNoClass):
		return "", "", "no class has code " + id.Leads + " any more: you are on the course alone", nil
	case err != nil:
		return "", "", "", err
	case !info.Closed.IsZero():
		return "", "", "class " + id.Leads + " is closed: you are on the course alone", nil
	case !id.Instructor || info.Lead != id.KeyHash:
		return "", "", "class " + id.Leads + " is led by another key: you are on the course alone", nil
	}
	return class.Instructor, info.Code, "class " + info.Code + " (" + info.Name + ") · your instructor tab · l shows the class", nil
}

// notACode is the note for a user name that is not a class code: it
// says so, and where codes come from, in 80 columns whatever the name.
func notACode(user string) string {
	// the name is the client's to choose: a control character in it
	// would reach the terminal as is
	user = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return '?'
		}
		return r
	}, user)
	if r := []rune(user); len(r) > 10 {
		user = string(r[:9]) + "…"
	}
	return user + " is no class code · codes (like k7m2q) are on the instructor's screen"
}

// comeBack is the command a keyless student connects with to come back
// as themselves (their reconnect token after the code).
func (c *Classes) comeBack(id serve.Identity) string {
	if c.join == "" {
		return id.ComeBack()
	}
	return c.joinLine(id.ComeBack())
}

// joinFor is the join command with the class's code in it, as the
// session at local (the address its client reached) shows it: the
// server's -public-addr when it has one; else the host and port that
// client reached, which may not be the students' way in behind a NAT or a
// port forward, and the line says so.
func (c *Classes) joinFor(code, local string) string {
	if c.join != "" || local == "" {
		return c.joinLine(code)
	}
	host, port, err := net.SplitHostPort(local)
	if err != nil {
		return c.joinLine(code)
	}
	line := "ssh "
	if port != "22" {
		line += "-p " + port + " "
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return line + code + "@" + host + " (the address you reached: behind a NAT or a port forward, use -public-addr)"
}

// joinLine is the join command with the class's code in it.
func (c *Classes) joinLine(code string) string {
	if c.join == "" {
		return ""
	}
	out := []byte{}
	for i := 0; i < len(c.join); i++ {
		if i+4 <= len(c.join) && c.join[i:i+4] == "CODE" {
			out = append(out, code...)
			i += 3
			continue
		}
		out = append(out, c.join[i])
	}
	return string(out)
}

// webJoin is how a browser reaches the class's page: the public URL
// (-public-url), else the -web address's port on the host the
// instructor's client reached.
type webJoin struct{ base, scheme, port string }

// OnWeb tells the class view that the server also serves the course in a
// browser tab: publicURL is -public-url ("" for none), addr -web's
// address (":8080"), tls whether it serves HTTPS. Call it before the
// server serves.
func (c *Classes) OnWeb(publicURL, addr string, tls bool) {
	_, port, _ := net.SplitHostPort(addr)
	scheme := "http://"
	if tls {
		scheme = "https://"
	}
	c.web = webJoin{base: strings.TrimSuffix(publicURL, "/"), scheme: scheme, port: port}
}

// Enrol gives the instructors' class views the school's roster (-roster
// FILE; see gradebook.Roster.Enrolled): they list who has not joined and
// who matches no row, and match a student by hand. An instructor's
// session has the rows given before it joined.
func (c *Classes) Enrol(rows []class.Enrolled) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.enrolled = rows
}

// link is the page that joins class code; local is the address the
// instructor's client reached, the host of the fallback. "" when the
// server serves no page.
func (w webJoin) link(code, local string) string {
	if w.base != "" {
		return w.base + "/c/" + code
	}
	host, _, err := net.SplitHostPort(local)
	if w.port == "" || err != nil {
		return ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return w.scheme + host + ":" + w.port + "/c/" + code + " (the address you reached: behind a NAT or a proxy, use -public-url)"
}

// Leave puts the session's row offline and ends its events.
func (c *Classes) Leave(s *serve.Session) {
	c.mu.Lock()
	st := c.seats[s]
	delete(c.seats, s)
	c.mu.Unlock()
	if st == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st.watch.Close()
	st.seat.Leave(ctx)
	select {
	case <-st.done:
	case <-ctx.Done():
	}
}

// Report is the report command: `ssh host report CODE > class.csv` writes
// the class report (see class.WriteReport: a summary row per student,
// then a row per student and scene, each naming the class and the time
// it was written) for the instructor who leads that class, from their
// key; a closed class's too, until its retention ends or its roster is
// cleared.
func Report(hub class.Hub) serve.Command { return ReportAt(hub, time.Now) }

// ReportAt is Report with the clock that stamps the report.
func ReportAt(hub class.Hub, now func() time.Time) serve.Command {
	return serve.Command{Args: "CLASS", Run: func(ctx context.Context, call serve.Call) int {
		info, code := led(ctx, hub, call, "ssh host report CODE > class.csv")
		if code != 0 {
			return code
		}
		roster, err := hub.Roster(ctx, info.Code)
		if err != nil {
			return call.Fail(err)
		}
		if err := class.WriteReport(call.Out, info, roster, now()); err != nil {
			return call.Fail(err)
		}
		return 0
	}}
}

// Close is the close command: `ssh host close CODE` closes the class the
// instructor's key leads: it takes no student from then on, and the next
// session under its name opens a new class.
func Close(hub class.Hub) serve.Command {
	return serve.Command{Args: "CLASS", Run: func(ctx context.Context, call serve.Call) int {
		info, code := led(ctx, hub, call, "ssh host close CODE")
		if code != 0 {
			return code
		}
		if err := hub.CloseClass(ctx, info.Code); err != nil {
			return call.Fail(err)
		}
		fmt.Fprintf(call.Out, "class %s (%s) is closed; its report stays until its retention ends (clear deletes its roster now)\n", info.Code, info.Name)
		return 0
	}}
}

// Clear is the clear command: `ssh host clear CODE` deletes the roster
// (names, places, answers) of the class the instructor's key leads.
func Clear(hub class.Hub) serve.Command {
	return serve.Command{Args: "CLASS", Run: func(ctx context.Context, call serve.Call) int {
		info, code := led(ctx, hub, call, "ssh host clear CODE")
		if code != 0 {
			return code
		}
		if err := hub.ClearRoster(ctx, info.Code); err != nil {
			return call.Fail(err)
		}
		fmt.Fprintf(call.Out, "class %s (%s): its roster is cleared\n", info.Code, info.Name)
		return 0
	}}
}

// led is the class the call's one argument names, when the call's key
// leads it; else code is the status after one line said why.
func led(ctx context.Context, hub class.Hub, call serve.Call, usage string) (info class.Info, code int) {
	if len(call.Args) != 1 {
		return info, call.Usage("give the class's code: %s", usage)
	}
	if !call.Who.Instructor {
		return info, call.Fail(errors.New("that is for the class's instructor: connect with the instructor's key"))
	}
	info, err := hub.Find(ctx, call.Args[0])
	switch {
	case errors.Is(err, class.ErrNoClass):
		return info, call.Fail(fmt.Errorf("no class has code %q", call.Args[0]))
	case err != nil:
		return info, call.Fail(err)
	case info.Lead != call.Who.KeyHash:
		return info, call.Fail(fmt.Errorf("class %s is led by another instructor's key", call.Args[0]))
	}
	return info, 0
}
