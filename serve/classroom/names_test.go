package classroom

import (
	"context"
	"strings"
	"testing"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/termtest"

	"github.com/alicebob/miniredis/v2"
)

// TestInstructorNamedOnce: an instructor who gave their name on one
// server of a class is not asked it again on the class's other servers
// (its store the servers share: one memory hub, or one Redis), neither
// under the class's name nor as its projector on its code; the name is
// their row's in the class store. A student's fresh key is still asked.
func TestInstructorNamedOnce(t *testing.T) {
	for _, store := range []string{"memory", "redis"} {
		t.Run(store, func(t *testing.T) {
			mem := class.NewMemory(nil)
			hub := func() class.Hub { return mem }
			if store == "redis" {
				s := miniredis.RunT(t)
				hub = func() class.Hub {
					h, err := class.NewRedis(context.Background(), "redis://"+s.Addr(), nil)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { _ = h.Close() })
					return h
				}
			}
			teacherKey := termtest.NewKey(t)
			file := instructorsFile(t, teacherKey)
			shared := hub()
			one, other, third := classServer(t, shared, file), classServer(t, hub(), file), classServer(t, hub(), file)
			_, code := openClass(t, one, teacherKey) // asked, and named Prof

			named := func(s string) bool { return strings.Contains(s, "Your name, as the class will see it") }
			again := termtest.Open(t, termtest.Dial(t, other, "prof", teacherKey), "xterm-256color", 100, 30)
			if s := again.WaitUntil("the name prompt or the class", func(s string) bool {
				return named(s) || strings.Contains(s, "class "+code+" (prof) is open")
			}); named(s) {
				t.Fatalf("the instructor was asked their name again on the class's other server:\n%s", s)
			}
			projector := termtest.Open(t, termtest.Dial(t, third, code, teacherKey), "xterm-256color", 100, 30)
			if s := projector.WaitUntil("the name prompt or the projector", func(s string) bool {
				// the instructor is on the contents, leading no scene: the
				// projector waits on its contents under its welcome (a
				// scene's class line, once one is led)
				return named(s) || strings.Contains(s, "the projector of class "+code) || strings.Contains(s, "class "+code+" · projector")
			}); named(s) {
				t.Fatalf("the instructor's projector was asked their name on a third server:\n%s", s)
			}
			roster, err := shared.Roster(context.Background(), code)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range roster {
				if m.Role == class.Instructor && m.Name != "Prof" {
					t.Errorf("the instructor's row is named %q, want Prof", m.Name)
				}
			}

			// a student's key, new to the class, is asked on its first server
			ann := termtest.Open(t, termtest.Dial(t, other, code, termtest.NewKey(t)), "xterm-256color", 100, 30)
			ann.WaitFor("Your name, as the class will see it")
		})
	}
}

// TestKnownNameFindsNoClassItOpens: asking what an instructor is known
// by opens no class: one who leaves at the name prompt leaves none behind.
func TestKnownNameFindsNoClassItOpens(t *testing.T) {
	ctx := context.Background()
	hub := class.NewMemory(nil)
	c := New(hub, "", nil)
	id := serve.Identity{ID: "teacher", KeyHash: "teacher", User: "prof", Instructor: true}
	if name, ok := c.KnownName(ctx, id); ok {
		t.Fatalf("an instructor with no class is known as %q", name)
	}
	if _, err := hub.FindNamed(ctx, "teacher", "prof"); err != class.ErrNoClass {
		t.Fatalf("KnownName opened a class (FindNamed: %v)", err)
	}
}
