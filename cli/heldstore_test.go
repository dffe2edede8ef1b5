package cli

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"locksim/class"
	"locksim/play"
	"locksim/scenes"
	"locksim/serve"
	"locksim/serve/classroom"
	"locksim/serve/termtest"
	"locksim/sim/simtest"
	"locksim/storycode"
)

// TestAClassHoldsEveryServerOfItsStore: two servers over one class store
// (the memory hub; in the slow tier a redis-server), a class whose
// instructor is seated through neither server's sessions (as one seated
// on a third) asked fencing's question: on both, /plain/fencing stops at
// the question and `story CODE -answer 1` over SSH is refused; once the
// class is past the question, both serve them whole; asked again, they
// hold while the instructor's seat has just left, and are whole Gone
// after its last beat; back, then the class closed, whole at once (no
// hold outlives the class).
func TestAClassHoldsEveryServerOfItsStore(t *testing.T) {
	// the beats' clock stands but where the test moves it: Gone passes
	// only when the test says
	var clock atomic.Int64
	clock.Store(time.Date(2026, 12, 6, 22, 0, 0, 0, time.UTC).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	t.Run("memory", func(t *testing.T) {
		simtest.QuickOnly(t)
		h := class.NewMemory(now)
		heldOnEveryServer(t, h, h, &clock)
	})
	t.Run("redis-server", func(t *testing.T) {
		url := simtest.StartRedis(t)
		hub := func() class.Hub {
			h, err := class.NewRedis(context.Background(), url, now)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = h.Close() })
			return h
		}
		heldOnEveryServer(t, hub(), hub(), &clock)
	})
}

// classServed is a server of the course over SSH (its commands in
// process) and the web (its pages), whose classes are kept in hub.
type classServed struct {
	ssh, web string
}

func serveClasses(t *testing.T, hub class.Hub) classServed {
	t.Helper()
	s, err := serve.New(serve.Config{HostKey: filepath.Join(t.TempDir(), "host_ed25519"), Commands: sshCommands(),
		Web: serve.WebConfig{Pages: webPages()}, Log: log.New(io.Discard, "", 0), CommandTime: 10 * time.Minute,
		Class: classroom.New(hub, "ssh CODE@host", nil)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := serve.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(termtest.Serve(t, s, l))
	hs := httptest.NewServer(s.WebHandler())
	t.Cleanup(hs.Close)
	return classServed{ssh: l.Addr().String(), web: hs.URL}
}

func heldOnEveryServer(t *testing.T, a, b class.Hub, clock *atomic.Int64) {
	ctx := context.Background()
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	servers := []classServed{serveClasses(t, a), serveClasses(t, b)}
	info, err := a.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := class.Sit(ctx, a, info.Code, class.Member{ID: info.Lead, Name: "teacher", Role: class.Instructor}, now)
	if err != nil {
		t.Fatal(err)
	}
	defer teacher.Leave(ctx)
	// its first beat, as its seat's loop puts it (the clock stands)
	if err := a.Beat(ctx, info.Code, info.Lead, class.Instructor, now()); err != nil {
		t.Fatal(err)
	}
	at := play.QuestionAt(scenes.Find("fencing"), nil, nil)
	pos := play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 1, Step: at}
	if d := play.Disclose(pos, play.Code); !d.Open || d.At != at {
		t.Fatalf("fencing's question is not at step %d: %+v", at, d)
	}
	code, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	version := int64(0)
	lead := func(step int) {
		t.Helper()
		p := pos
		p.Step = step
		cur, won, err := a.SwapLead(ctx, info.Code, version, class.Lead{Pos: p, Follow: true})
		if err != nil || !won {
			t.Fatalf("lead to step %d: won %v, %v", step, won, err)
		}
		version = cur.Version
	}
	check := func(what string, held bool) {
		t.Helper()
		for i, s := range servers {
			resp, err := http.Get(s.web + "/plain/fencing")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			stops := strings.Contains(string(body), "Answer in the terminal") && !strings.Contains(string(body), "<details>") &&
				!strings.Contains(string(body), "the replies answer")
			whole := strings.Contains(string(body), "<details>") && strings.Contains(string(body), "the replies answer")
			if resp.StatusCode != http.StatusOK || stops != held || whole == held {
				t.Errorf("%s: server %d's /plain/fencing: %d, stops at the question %v, want %v:\n%.600s", what, i+1, resp.StatusCode, stops, held, body)
			}
			c := termtest.Dial(t, s.ssh, "student", termtest.NewKey(t))
			out, errOut, status := termtest.Run(t, c, "story "+code+" -answer 1")
			refused := status == 2 && out == "" && strings.Contains(errOut, "waits for the class's answer")
			if refused != held || !held && status != 0 {
				t.Errorf("%s: server %d's story CODE -answer 1: status %d, stderr %q, stdout %.200q; refused %v, want %v", what, i+1, status, errOut, out, refused, held)
			}
			_ = c.Close()
		}
	}
	lead(0)
	check("the class led to fencing, before its question", true)
	lead(at)
	check("the class at fencing's question", true)
	lead(at + 1)
	check("the class past the question", false)
	lead(at)
	check("the class asked again", true)
	teacher.Leave(ctx)
	check("the instructor just left (another session of theirs may beat yet)", true)
	clock.Add(int64(class.Gone))
	check("Gone after the instructor left", false)
	// asked again by an instructor who beats, then the class is closed
	if err := a.Beat(ctx, info.Code, info.Lead, class.Instructor, now()); err != nil {
		t.Fatal(err)
	}
	check("the instructor back", true)
	if err := a.CloseClass(ctx, info.Code); err != nil {
		t.Fatal(err)
	}
	check("the class closed", false)
}
