package scenes

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/simtest"
)

// maxScale is the most -scale allows.
const maxScale = 1000

// embeddedOnly are the stories a live server cannot play as written: a
// node's clock cannot jump there (a restart empty is locksim deleting its
// own keys on the node, which plays the same).
var embeddedOnly = map[string]bool{
	"redlock/story: clock jump": true,
}

// TestSameOnEveryServer plays every story of every scene, under every
// combination of its settings, on the embedded server and on each live
// server the machine has: the redis-server on PATH (Debian's Redis 7),
// and Redis 8.4 or later and Valkey 9.0 or later as .ci/servers builds
// them (simtest.Built says where they are looked for). At the default ÷20
// and at the scene's scale cap, it requires the same commands, the same
// replies and the same readings from the ledger once tokens, run prefixes
// and scaled durations are set aside. A story that sends a one-command
// form (DELEX, DELIFEQ, SET … IFEQ) is skipped only on a server whose
// preflight finds it lacks the form, with the refusal's line, which names
// the server's version. A story that rests on a millisecond boundary fails
// here. The race's winner is decided by a real race: there only the
// replies as a multiset and the verdict are compared.
//
// A live run's story time is the wall clock's: a machine that stalls the
// run longer than half the scene's margin before the first difference has
// moved a command across a deadline the story keeps well clear of. Such a
// run proves nothing either way and is played again, up to three times.
func TestSameOnEveryServer(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	t.Parallel()
	// live plays at once: they mostly wait out story time (the whole
	// test is about 6 s of CPU in 80 s of wall at 6 at once), but each
	// stall they cause one another stretches that time; at 16 at once, on
	// two cores at load 9, one play in 327 was stalled and played again
	slots := make(chan struct{}, 16)
	servers := []struct {
		name  string
		start func(testing.TB, ...string) *simtest.Server
	}{
		{"redis-server", simtest.StartServer},
		{simtest.Redis8.Name, simtest.Redis8.Start},
		{simtest.Valkey9.Name, simtest.Valkey9.Start},
	}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			t.Parallel()
			// the preflight's finding, the same for every server of this
			// binary: which forms it has, and its version
			o := simtest.LiveOptions(20)
			o.NoSweep = true
			probe, err := sim.OpenLive(context.Background(), srv.start(t).URL, o)
			if err != nil {
				t.Fatal(err)
			}
			forms := probe.FormSupport()
			probe.Close(context.Background())
			t.Logf("%s: %s", srv.name, forms.Server)
			for _, sc := range All() {
				if sc.Kind == Quiz {
					continue
				}
				t.Run(sc.ID, func(t *testing.T) {
					t.Parallel()
					sameOn(t, sc, srv.start(t).URL, forms, slots)
				})
			}
		})
	}
}

// sameOn plays every story of sc on the live server at url, which has
// forms, against the embedded server (see TestSameOnEveryServer).
func sameOn(t *testing.T, sc *Scene, url string, forms sim.FormSupport, slots chan struct{}) {
	for _, p := range allSettings(sc) {
		name := sc.Describe(p)
		if name == "" {
			name = "as written"
		}
		if embeddedOnly[sc.ID+"/"+name] {
			continue
		}
		if refusal := firstRefusal(forms, sc.FormsNeeded(p)); refusal != "" {
			// the live refusal itself is cli's TestTodaysFormsOnRedis7
			t.Run(name, func(t *testing.T) { t.Skip(refusal) })
			continue
		}
		// the default, and the cap (the most a learner can ask for,
		// capped by the scene)
		script := sc.Script(p)
		scales := []int{script.ScaleOn(&sim.Backend{Scale: 20})}
		if c := script.ScaleOn(&sim.Backend{Scale: maxScale}); c != scales[0] {
			scales = append(scales, c)
		}
		for _, scale := range scales {
			t.Run(fmt.Sprintf("%s/÷%d", name, scale), func(t *testing.T) {
				t.Parallel()
				emb := playStory(t, embedded(t), sc.ID, p, 1)
				want := story2lines(emb, sc.Kind == Race)
				slots <- struct{}{}
				defer func() { <-slots }()
				for try := 1; ; try++ {
					// each try under a prefix of its own: a run
					// forgets the node keys an earlier run wrote
					o := simtest.LiveOptions(scale)
					o.NoSweep = true
					live, err := sim.OpenLive(context.Background(), url, o)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { live.Close(context.Background()) })
					got := playStory(t, live, sc.ID, p, 1)
					lines := story2lines(got, sc.Kind == Race)
					if slices.Equal(lines, want) {
						return
					}
					late := lateness(emb, got, firstDiff(want, lines))
					if sc.Kind == Race || late < sc.Shortest/2 {
						t.Errorf("%s tells another story (its commands at most %s late of story time):\n%s",
							forms.Server, sim.FormatDuration(late), lineDiff(want, lines))
						return
					}
					if try == 3 {
						t.Skipf("three live runs were stalled past half the %s margin: the machine is too loaded to judge", sim.FormatDuration(sc.Shortest))
					}
					t.Logf("try %d: a command ran %s late of story time, more than half the %s margin: playing again",
						try, sim.FormatDuration(late), sim.FormatDuration(sc.Shortest))
				}
			})
		}
	}
}

// firstRefusal is the refusal of the first of forms the server lacks, ""
// when it has them all.
func firstRefusal(f sim.FormSupport, forms []string) string {
	for _, form := range forms {
		if r := f.Refusal(form); r != "" {
			return r
		}
	}
	return ""
}

// allSettings is every combination of the scene's knobs, whatever the
// transcript plays.
func allSettings(sc *Scene) []Params {
	copied := *sc
	copied.Variants = nil
	return copied.Stories()
}

var (
	// hexToken is a token from the run's seeded source, or a run prefix.
	hexToken = regexp.MustCompile(`\b[0-9a-f]{16,}\b`)
	// duration is a story duration as the readouts print it.
	duration   = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?\s?(ms|s)\b`)
	scriptName = regexp.MustCompile(`<[a-z-]+>`)
	positive   = regexp.MustCompile(`\b[1-9][0-9]*\b`)
	large      = regexp.MustCompile(`\b[1-9][0-9]{3,}(\.[0-9]+)?\b`)
)

// story2lines is what must agree between servers: per command, its actor,
// node, name and normalised reply with the ledger's reading; then the
// verdict, the alarm and the scoreboard.
func story2lines(p played, raced bool) []string {
	var out []string
	for i, e := range p.snap.Events {
		if e.Kind != sim.Command {
			continue
		}
		name := ""
		if len(e.Args) > 0 {
			name = strings.ToUpper(e.Args[0])
		}
		if name == "PEXPIRE" {
			// a whole-second TTL goes as EXPIRE, and the same TTL
			// scaled down as PEXPIRE: one command in two units
			name = "EXPIRE"
		}
		if name == "EVAL" || name == "EVALSHA" {
			name += " " + scriptName.FindString(e.Cmd)
		}
		line := fmt.Sprintf("%s@%s %s → %s [%s]", e.Actor, e.Node, name, normReply(name, e), p.led.Reads[i].What)
		if raced {
			line = fmt.Sprintf("%s → %s [%s]", name, normReply(name, e), p.led.Reads[i].What)
		}
		out = append(out, line)
	}
	if raced {
		slices.Sort(out)
	}
	norm := func(s string) string { return duration.ReplaceAllString(hexToken.ReplaceAllString(s, "<hex>"), "<d>") }
	out = append(out, "verdict: "+norm(p.ex.Verdict), "alarm: "+norm(p.ex.Alarm), fmt.Sprintf("scoreboard: %v", p.ex.Props))
	return out
}

// normReply sets aside what differs by nature: tokens and prefixes, the
// positive remaining times a scaled live server gives, clock readings and
// scores taken from them (four digits or more), and the words after
// NOSCRIPT, which differ between servers; a key's absence (-2), its lack
// of a TTL (-1), zero and small counts stay.
func normReply(cmd string, e sim.Event) string {
	if e.Unknown() {
		// a client-side failure (a stopped, cut-off or slow node): its
		// wording is the client's, which differs between servers
		return "(client-side error)"
	}
	if strings.HasPrefix(e.Reply, "(error) NOSCRIPT ") {
		// the code is what a client reads; Redis adds "Please use EVAL."
		// to the line, Valkey 9.1 does not (server.c's shared.noscripterr)
		return "(error) NOSCRIPT"
	}
	reply := hexToken.ReplaceAllString(e.Reply, "<hex>")
	reply = strings.ReplaceAll(reply, "locksim:<hex>:", "")
	if cmd == "PTTL" || cmd == "TTL" || cmd == "TIME" {
		return positive.ReplaceAllString(reply, "<n>")
	}
	return large.ReplaceAllString(reply, "<n>")
}

// firstDiff is the index of the first line where a and b differ.
func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// lateness is how far the live run's commands ran from the embedded run's
// story times, at most, up to and including command upto.
func lateness(emb, live played, upto int) time.Duration {
	e, l := commandEvents(emb), commandEvents(live)
	stalled := stalls(live)
	var most time.Duration
	for i := 0; i <= upto && i < len(e) && i < len(l); i++ {
		// a command's At is read before it is sent: the server may run it
		// anywhere in the round trip, which a redis-server waiting for a
		// loaded machine's CPU can stretch past a margin at the scale cap
		// (50 ms of wire) while At stays on time; the log notes such a
		// round trip, in story time
		most = max(most, (l[i].At-e[i].At).Abs()+stalled[i])
	}
	return most
}

// tookMs is the round trip of a stall note (sim.StallNoted).
var tookMs = regexp.MustCompile(`the server took ([0-9]+) ms to answer`)

// stalls is, for each command event of p in order, the story time its
// round trip took when the log noted it as a stall.
func stalls(p played) map[int]time.Duration {
	out := map[int]time.Duration{}
	i := -1
	for _, e := range p.snap.Events {
		if e.Kind == sim.Command {
			i++
			continue
		}
		if m := tookMs.FindStringSubmatch(e.Note); e.Kind == sim.Aside && m != nil && i >= 0 {
			ms, _ := strconv.Atoi(m[1])
			out[i] = time.Duration(ms) * time.Millisecond * time.Duration(max(p.snap.Scale, 1))
		}
	}
	return out
}

func commandEvents(p played) []sim.Event {
	var out []sim.Event
	for _, e := range p.snap.Events {
		if e.Kind == sim.Command {
			out = append(out, e)
		}
	}
	return out
}

// lineDiff shows want and got side by side from the first difference.
func lineDiff(want, got []string) string {
	var b strings.Builder
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "", ""
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		mark := "  "
		if w != g {
			mark = "≠ "
		}
		fmt.Fprintf(&b, "%sembedded: %s\n  live:     %s\n", mark, w, g)
	}
	return b.String()
}
