package grade

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/storycode"
)

func TestGrade(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		dir, status, msg string
	}{
		{"../testdata/getdel", "fail", "(story code lab."},
		{"../testdata/fenced", "pass", `"name": "resource-safety"`},
		{"../testdata/syntax", "error", "acquire.lua:2: syntax error"},
		{"../testdata/endless", "error", "budget of instructions"},
		{"../testdata/runtime", "error", "acquire.lua:2: ERR unknown command"},
	} {
		res, err := Dir(ctx, c.dir)
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		out := t.TempDir()
		if err := Write(out, res); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(out, "results.json"))
		var back map[string]any
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if back["version"] != 2.0 || back["status"] != c.status || !strings.Contains(string(data), c.msg) {
			t.Errorf("%s: %s", c.dir, data)
		}
		if _, ok := back["tests"].([]any); !ok {
			t.Errorf("%s: no tests list: %s", c.dir, data)
		}
	}
	if _, err := Dir(ctx, "../testdata/nosuch"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing directory: %v", err)
	}
}

// TestFailureCode: each failure's message carries the story code of its
// break, which -story opens as a story of the lab.
func TestFailureCode(t *testing.T) {
	res, err := Dir(context.Background(), "../testdata/getdel")
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, tr := range res.Tests {
		if tr.Status != lab.Fail {
			continue
		}
		failed++
		m := regexp.MustCompile(`\(story code ([^ )]+)\)`).FindStringSubmatch(tr.Message)
		if m == nil {
			t.Errorf("%s: no story code in %q", tr.Name, tr.Message)
			continue
		}
		pos, err := storycode.Decode(m[1])
		if err != nil || pos.Scene != lab.SceneID || pos.Lab == nil {
			t.Errorf("%s: code %s reads as %+v, %v", tr.Name, m[1], pos, err)
		}
	}
	if failed == 0 {
		t.Errorf("getdel failed nothing: %+v", res)
	}
}
