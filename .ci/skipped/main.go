// Command skipped reads go test -json on stdin and prints what go test
// without -json (and without -v) would have: each package's own lines,
// the closing ok, FAIL and PASS lines among them, and the whole output of
// every test that failed. Then the ten slowest tests: each top-level
// test's wall span, from its start (its resumption, for a parallel one)
// to the end of its last subtest, read from the events' times, since go
// test's own elapsed leaves out the parallel subtests a test waits for
// after its body returns; a loaded machine stretches them all. Then a
// summary of the tests that
// were skipped and why (the parts left to the quick tier counted in one
// line). It lives under .ci, which ./... does not reach.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"
)

// event is the part of a test2json event this reads.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Time    time.Time
}

// span is a top-level test's wall span: from its start (or its
// resumption, when it is parallel) to the last end of it or a subtest.
type span struct {
	id         string
	start, end time.Time
}

// spans keeps each top-level test's span.
type spans struct {
	byID  map[string]*span
	order []*span
}

// see takes an event of a test.
func (ss *spans) see(e event) {
	top, _, sub := strings.Cut(e.Test, "/")
	id := e.Package + " " + top
	sp := ss.byID[id]
	if sp == nil {
		if sub || e.Action != "run" {
			return
		}
		sp = &span{id: id, start: e.Time}
		ss.byID[id] = sp
		ss.order = append(ss.order, sp)
	}
	switch {
	case !sub && e.Action == "cont":
		sp.start = e.Time
	case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
		if e.Time.After(sp.end) {
			sp.end = e.Time
		}
	}
}

// slowest prints the n slowest spans, slowest first.
func (ss *spans) slowest(n int) {
	took := func(sp *span) time.Duration { return max(sp.end.Sub(sp.start), 0) }
	all := slices.Clone(ss.order)
	sort.SliceStable(all, func(i, j int) bool { return took(all[i]) > took(all[j]) })
	if len(all) > n {
		all = all[:n]
	}
	fmt.Printf("slowest tests: %d\n", len(all))
	for _, sp := range all {
		fmt.Printf("  %6.1f s  %s\n", took(sp).Seconds(), sp.id)
	}
}

func main() {
	reasons := map[string]string{} // "package Test" → the skip's message
	var order []string
	times := &spans{byID: map[string]*span{}}
	held := map[string][]string{} // a test's output, printed if it fails
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Println(sc.Text()) // not an event: a build error, as go test printed it
			continue
		}
		id := e.Package + " " + e.Test
		if e.Test != "" {
			times.see(e)
		}
		switch e.Action {
		case "output":
			if e.Test == "" {
				fmt.Print(e.Output)
			} else {
				held[id] = append(held[id], e.Output)
			}
			// t.Skip's message is the test's last indented line before
			// its --- SKIP
			if e.Test != "" && strings.HasPrefix(e.Output, "    ") {
				reasons[id] = strings.TrimSpace(e.Output)
			}
		case "fail":
			if e.Test != "" {
				fmt.Print(strings.Join(held[id], ""))
			}
			delete(held, id)
		case "pass":
			delete(held, id)
		case "skip":
			if e.Test != "" {
				order = append(order, id)
			}
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "skipped:", err)
		os.Exit(1)
	}
	times.slowest(10)
	// the parts of slow-tier tests that the quick tier ran (simtest's
	// QuickOnly: OnBoth's embedded halves and the like) are counted, not
	// listed: they are not missing, they ran in the other tier
	var listed []string
	quick := 0
	for _, id := range order {
		// the message follows the skip's file:line
		if strings.Contains(reasons[id], "quick tier: go test -race ./... ran this") {
			quick++
		} else {
			listed = append(listed, id)
		}
	}
	if quick > 0 {
		fmt.Printf("left to the quick tier: %d subtests\n", quick)
	}
	if len(listed) == 0 {
		fmt.Println("skipped tests: none")
		return
	}
	sort.Strings(listed)
	fmt.Printf("skipped tests: %d\n", len(listed))
	for _, id := range listed {
		fmt.Printf("  %s: %s\n", id, reasons[id])
	}
}
