package grade

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestDumpTable(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	ents, _ := os.ReadDir("../testdata/table")
	for _, e := range ents {
		if d := os.Getenv("DUMP"); d != "all" && d != e.Name() {
			continue
		}
		start := time.Now()
		res, err := Dir(context.Background(), "../testdata/table/"+e.Name(), Pin{})
		t.Logf("== %s (%v) %v: %s %s", e.Name(), time.Since(start).Round(time.Millisecond), err, res.Status, res.Message)
		for _, tr := range res.Tests {
			m := tr.Message
			if len(m) > 400 {
				m = m[:400]
			}
			t.Logf("   %s %s: %s | %s", tr.Name, tr.Status, m, tr.Output)
		}
	}
}
