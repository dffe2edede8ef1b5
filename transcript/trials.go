package transcript

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"locksim/check"
	"locksim/content"
	"locksim/race"
	"locksim/scenes"
	"locksim/sim"
)

// PlainTrials runs n trials of every variant on b and prints the table and
// what each row means. An atomic trial with other than one holder is
// printed with its replies and makes the error.
func PlainTrials(ctx context.Context, w io.Writer, b *sim.Backend, n int, cfg race.Config) error {
	text, err := content.Load("race")
	if err != nil {
		return err
	}
	tr, _, done, err := race.OnBackend(b, cfg)
	if err != nil {
		return err
	}
	defer done()
	// the course text is written as paragraphs; the transcript keeps to 80 columns
	say := func(s string) { _, _ = io.WriteString(w, wrapColumns(s, plainColumns)) }
	say(TrialsIntro(text, n, cfg) + "\n\n")
	say(fmt.Sprintf("server: %s · %d lanes of %d connections\n\n", trialsWhere(b), race.Lanes, race.Workers))
	var all []race.Counts
	for _, v := range race.VariantsFor(cfg) {
		c, err := tr.Run(ctx, v, n, nil)
		all = append(all, c)
		if err != nil {
			fmt.Fprint(w, TrialsTable(all))
			return err
		}
	}
	fmt.Fprint(w, TrialsTable(all))
	fmt.Fprintln(w)
	fmt.Fprint(w, TrialsRates(all))
	fmt.Fprintln(w)
	if cfg.Loss > 0 {
		say(text.Fill("trials-lost", map[string]string{"loss": lossPercent(cfg)}) + "\n\n")
		fmt.Fprint(w, TrialsLosses(all))
		fmt.Fprintln(w)
	}
	for _, c := range all {
		say(TrialsNote(text, c, cfg) + "\n\n")
	}
	say(text.Get("trials-anomalies") + "\n\n")
	fmt.Fprint(w, TrialsAnomalies(all))
	if u := TrialsUnknown(text, all); u != "" {
		say(u + "\n")
	}
	if ex := TrialsSmallest(all); len(ex) > 0 {
		say("\n" + text.Get("trials-smallest") + "\n")
		for _, e := range ex {
			fmt.Fprint(w, wrapColumns(TrialsExample(e), plainColumns))
		}
	}
	fmt.Fprintln(w)
	if a := all[0]; a.BugCount > 0 {
		say(TrialsBugs(text, all))
		return fmt.Errorf("%d atomic trials did not end with one holder", a.BugCount)
	}
	return nil
}

// TrialsIntro is what a run of n trials under cfg does, in a sentence.
func TrialsIntro(text content.Text, n int, cfg race.Config) string {
	name := "trials-intro"
	if cfg.Loss > 0 {
		name = "trials-intro-lost"
	}
	return text.Fill(name, map[string]string{"n": itoa(int64(n))})
}

func trialsWhere(b *sim.Backend) string {
	if b.Live() {
		return b.Name + " (keys under " + b.Prefix + ")"
	}
	return "embedded (a server of its own, keys expiring on the real clock)"
}

// TrialsTable is one row per variant: trials by holders at the end, the
// trials each worker ended as a holder in (not the trials it was granted
// the lock in: a worker whose lease ran out while it worked ended holding
// nothing), and the rate.
func TrialsTable(all []race.Counts) string {
	var b strings.Builder
	// 80 columns: variant 13, trials 7, five counts of 7, four holder counts of 6
	fmt.Fprintf(&b, "%-13s %6s %-34s %s\n", "", "", "  trials by holders at the end", " ended as a holder")
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

// TrialsLosses is one row per variant that loses replies (race.Config's
// Loss): the replies lost, the leases wasted (workers that gave up while
// the key held their own token), and the locks a release's retry deleted,
// as the ledger read the trials.
func TrialsLosses(all []race.Counts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-13s %14s %22s %20s\n", "variant", "replies lost", "leases wasted", "deleted by a retry")
	for _, c := range all {
		if !c.Variant.Loses() {
			continue
		}
		fmt.Fprintf(&b, "%-13s %14d %22d %20d\n", c.Variant, c.Lost, c.Wasted, c.RetryDeletes)
	}
	return b.String()
}

// TrialsLoss is c's line of TrialsLosses as a sentence, "" for a variant
// that loses no reply.
func TrialsLoss(c race.Counts) string {
	if !c.Variant.Loses() {
		return ""
	}
	return fmt.Sprintf("%s: %d replies lost · %d leases wasted · %d deleted by a retry",
		c.Variant, c.Lost, c.Wasted, c.RetryDeletes)
}

func lossPercent(cfg race.Config) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", 100*cfg.Loss), "0"), ".") + "%"
}

// TrialsRates is each variant's pace: trials and commands per second.
func TrialsRates(all []race.Counts) string {
	var b strings.Builder
	for _, c := range all {
		cmds := 0.0
		if c.Took > 0 {
			cmds = float64(c.Commands) / c.Took.Seconds()
		}
		fmt.Fprintf(&b, "%-13s %8.0f trials/s · %8.0f commands/s · %d commands\n", c.Variant, TrialsPerSecond(c), cmds, c.Commands)
	}
	return b.String()
}

// TrialsPerSecond is the trials c ran per second of its run; 0 before any
// time has passed.
func TrialsPerSecond(c race.Counts) float64 {
	if c.Took <= 0 {
		return 0
	}
	return float64(c.Trials) / c.Took.Seconds()
}

// TrialsNote is what a variant's row means, with its own counts.
func TrialsNote(text content.Text, c race.Counts, cfg race.Config) string {
	multi := 0
	for k := 2; k < len(c.Holders); k++ {
		multi += c.Holders[k]
	}
	name := "trials-" + itoa(int64(c.Variant))
	if c.Variant == race.Atomic && cfg.Loss > 0 {
		name = "trials-0-lost"
	}
	return c.Variant.String() + ": " + text.Fill(name, map[string]string{
		"crash": fmt.Sprintf("%.0f%%", 100*cfg.CrashRate), "nottl": itoa(int64(c.NoTTL)),
		"short": sim.FormatSpan(cfg.Short), "gap": sim.FormatSpan(cfg.Gap), "foreign": itoa(int64(c.Foreign)),
		"multi": itoa(int64(multi)), "loss": lossPercent(cfg), "lost": itoa(int64(c.Lost)),
		"wasted": itoa(int64(c.Wasted)), "retrydel": itoa(int64(c.RetryDeletes)),
	})
}

// TrialsAnomalies is one row per variant: the trials that showed each
// kind of anomaly (check.Anomalies, in order), as the client's mutex model
// and the ledger read them.
func TrialsAnomalies(all []race.Counts) string {
	var b strings.Builder
	// 80 columns: variant 13, four counts of 15 after a space
	fmt.Fprintf(&b, "%-13s", "variant")
	for _, k := range check.Anomalies() {
		fmt.Fprintf(&b, " %15s", k.Label())
	}
	fmt.Fprintln(&b)
	for _, c := range all {
		fmt.Fprintf(&b, "%-13s", c.Variant)
		for _, k := range check.Anomalies() {
			fmt.Fprintf(&b, " %15d", c.Anomalies[k])
		}
		fmt.Fprintln(&b)
	}
	return b.String()
}

// TrialsUnknown says how many trials' checks timed out; "" when none did.
func TrialsUnknown(text content.Text, all []race.Counts) string {
	n := 0
	for _, c := range all {
		n += c.Unknown
	}
	if n == 0 {
		return ""
	}
	return text.Fill("trials-unknown", map[string]string{"count": itoa(int64(n))})
}

// TrialsSmallest is, for each kind of anomaly some variant showed, the
// smallest trial that showed it (the fewest commands, then the first
// variant), in the order of check.Anomalies.
func TrialsSmallest(all []race.Counts) []*race.Example {
	var out []*race.Example
	for _, k := range check.Anomalies() {
		var best *race.Example
		for _, c := range all {
			if ex := c.Examples[k]; ex != nil && (best == nil || len(ex.Events) < len(best.Events)) {
				best = ex
			}
		}
		if best != nil && !slices.Contains(out, best) {
			out = append(out, best)
		}
	}
	return out
}

// TrialsExample is one kept trial: the kinds it showed, the mutex model's
// verdict, and its commands with their replies, in the order sent, each
// with the time since the trial began (wire time: trials have no story
// clock).
func TrialsExample(ex *race.Example) string {
	var b strings.Builder
	var kinds []string
	for _, k := range check.Anomalies() {
		if ex.Found[k] {
			kinds = append(kinds, k.String())
		}
	}
	fmt.Fprintf(&b, "%s, trial %d (%s): client's mutex %s\n", ex.Variant, ex.Trial, strings.Join(kinds, ", "), ex.Finding.Short())
	// the tokens shortened, as the screen's log shows them
	var pairs []string
	for _, e := range ex.Events {
		if e.Op != nil && e.Op.Token != "" && !slices.Contains(pairs, e.Op.Token) {
			pairs = append(pairs, e.Op.Token, scenes.ShortToken(e.Op.Token))
		}
	}
	short := strings.NewReplacer(pairs...)
	for _, e := range ex.Events {
		switch e.Kind {
		case sim.Command:
			fmt.Fprintf(&b, "  +%s %s> %s → %s\n", sim.FormatSpan(e.At.Round(100*time.Microsecond)), e.Actor, short.Replace(e.Cmd), short.Replace(e.Reply))
			if e.Note != "" {
				// a lost reply, a release sent again: what the worker did not hear
				fmt.Fprintf(&b, "      (%s)\n", e.Note)
			}
		case sim.Fault:
			fmt.Fprintf(&b, "  +%s [%s crashed]\n", sim.FormatSpan(e.At.Round(100*time.Microsecond)), e.Actor)
		}
	}
	return b.String()
}

// TrialsBugs is the SET NX PX trials that did not end with one holder,
// with their replies; "" when there are none.
func TrialsBugs(text content.Text, all []race.Counts) string {
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
