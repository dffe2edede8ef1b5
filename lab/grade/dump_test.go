package grade

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDumpTable(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	dirs, _ := filepath.Glob("../testdata/table*/*")
	for _, d := range dirs {
		if want := os.Getenv("DUMP"); want != "all" && want != filepath.Base(d) {
			continue
		}
		start := time.Now()
		res, err := Dir(context.Background(), d, Pin{})
		t.Logf("== %s (%v) %v: %s %s", d, time.Since(start).Round(time.Millisecond), err, res.Status, res.Message)
		for _, tr := range res.Tests {
			m := tr.Message
			if len(m) > 400 {
				m = m[:400]
			}
			t.Logf("   %s %s: %s | %s", tr.Name, tr.Status, m, tr.Output)
		}
	}
}
