package class

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/sim/simtest"

	"github.com/alicebob/miniredis/v2"
)

// v1Class is testdata/v1-class.json, a class as locksim saved it before
// answers were kept per question (written by that version's code): ann
// answered gc-pause's first story (1 of its choices, 0-based; her run made
// it true) and stands at the lesson's second (pause 20 s), answered 0 and
// not run yet; bob answered the first, 0, and his run answered 1.
func v1Class(t *testing.T) (stored, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/v1-class.json")
	if err != nil {
		t.Fatal(err)
	}
	var st stored
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st, data
}

// TestOldClassOpens: a class saved by the older locksim, under -serve-dir
// or in a class Redis, opens: its roster, its place, and its report, whose
// question columns hold what the older rows kept (the answer at each
// student's place exactly, the progress's others with their settings
// unknown). A seat of a student of it keeps those answers and adds new.
func TestOldClassOpens(t *testing.T) {
	st, data := v1Class(t)
	code := st.Info.Code
	check := func(t *testing.T, h Hub) {
		ctx := context.Background()
		info, err := h.Find(ctx, code)
		if err != nil || info.Name != "monday" {
			t.Fatalf("the old class: %+v, %v", info, err)
		}
		if l, ok, err := h.LeadOf(ctx, code); err != nil || !ok || l.Pos.Settings["pause"] != 2 || !l.Follow {
			t.Fatalf("its place: %+v, %v, %v", l, ok, err)
		}
		roster, err := h.Roster(ctx, code)
		if err != nil || len(roster) != 3 {
			t.Fatalf("its roster: %+v, %v", roster, err)
		}
		first := Question{Scene: "gc-pause", Name: PredictQuestion}
		second := Question{Scene: "gc-pause", Settings: map[string]int{"pause": 2}, Name: PredictQuestion}
		old := Question{Scene: "gc-pause", Story: OldStory, Name: PredictQuestion}
		byName := map[string]Member{}
		for _, m := range roster {
			byName[m.Name] = m
			if m.V != RowVersion {
				t.Errorf("%s's row is of version %d once read", m.Name, m.V)
			}
		}
		if a := byName["ann"].Answers; len(a) != 2 || a[second.Key()].Chosen != 0 || a[second.Key()].Ran ||
			a[old.Key()].Chosen != 1 || !a[old.Key()].Right() {
			t.Errorf("ann's answers: %+v", a)
		}
		if a := byName["bob"].Answers; len(a) != 1 || a[first.Key()].Chosen != 0 || !a[first.Key()].Ran || a[first.Key()].Actual != 1 {
			t.Errorf("bob's answers: %+v", a)
		}
		// the poll at the instructor's place counts ann's answer there
		if p, ok := Tally(st.Lead.Pos, roster, t0); !ok || p.Answered != 1 || p.Guesses[0] != 1 {
			t.Errorf("the poll at the old place: %+v, %v", p, ok)
		}
		var buf bytes.Buffer
		if err := WriteReport(&buf, info, roster, t0); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatalf("the report: %v\n%s", err, buf.String())
		}
		n := len(ReportHeader)
		if !slices.Equal(rows[0][:n], ReportHeader) || len(rows[0]) != n+3+len(WatchColumns) {
			t.Fatalf("the report's header: %q", rows[0])
		}
		qs := rows[0][n:]
		for i, want := range []string{"question gc-pause: ", "question gc-pause, pause 20 s: ", "question gc-pause (settings not kept): "} {
			if !strings.HasPrefix(qs[i], want) {
				t.Errorf("question column %d: %q, want it to start %q", i, qs[i], want)
			}
		}
		for _, r := range rows[1:] {
			if r[6] != AllScenes {
				continue
			}
			got := strings.Join(r[n:len(r)-len(WatchColumns)], "|")
			want := map[string]string{"ann": "|1|2 right", "bob": "1 wrong||"}[r[4]]
			if got != want || r[13] != ReportVersion {
				t.Errorf("%s's summary row's answers %q, want %q: %q", r[4], got, want, r)
			}
		}

		// ann comes back: her row keeps the old answers, and her answer
		// at her place, once her run makes the move, is judged
		ann, err := Sit(ctx, h, code, Member{ID: "k-ann-0123456789", Name: "ann", Role: Student, Pos: byName["ann"].Pos, Following: true}, at0)
		if err != nil {
			t.Fatal(err)
		}
		pos := byName["ann"].Pos
		pos.Step++
		ann.Report(Member{Pos: pos, Actual: 0, Revealed: true, Following: true})
		ann.Leave(ctx)
		roster, err = h.Roster(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range roster {
			if m.Name != "ann" {
				continue
			}
			if a := m.Answers; len(a) != 2 || !a[second.Key()].Right() || a[second.Key()].Blind || !a[old.Key()].Right() {
				t.Errorf("ann's answers after she came back: %+v", a)
			}
		}
	}
	t.Run("serve-dir", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, code+".json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		h, err := OpenDir(dir, 365*24*time.Hour, at0)
		if err != nil {
			t.Fatal(err)
		}
		// written back in this version's form at the first save, with no
		// change needed
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
		if again, err := os.ReadFile(filepath.Join(dir, code+".json")); err != nil || bytes.Count(again, []byte(`"v":2`)) != 3 {
			t.Fatalf("the class written back: %v\n%s", err, again)
		}
		h, err = OpenDir(dir, 365*24*time.Hour, at0)
		if err != nil {
			t.Fatal(err)
		}
		check(t, h)
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
		// written back in this version's form, and read again the same
		again, err := os.ReadFile(filepath.Join(dir, code+".json"))
		if err != nil || !bytes.Contains(again, []byte(`"v":2`)) {
			t.Fatalf("the class written back: %v\n%s", err, again)
		}
	})
	redisOf := func(t *testing.T, url string, put func(key string, fields ...string)) {
		// the older version's keys, as its Redis hub wrote them
		info, _ := json.Marshal(st.Info)
		lead, _ := json.Marshal(st.Lead)
		put(classKey(code), string(info))
		put(leadKey(code), string(lead))
		for id, m := range st.Members {
			row, _ := json.Marshal(m)
			put(membersKey(code), id, string(row))
		}
		check(t, redisHub(t, url))
	}
	t.Run("miniredis", func(t *testing.T) {
		simtest.QuickOnly(t)
		mr := miniredis.RunT(t)
		redisOf(t, "redis://"+mr.Addr(), func(key string, fields ...string) {
			if len(fields) == 1 {
				_ = mr.Set(key, fields[0])
				return
			}
			mr.HSet(key, fields...)
		})
	})
	t.Run("redis-server", func(t *testing.T) {
		url := simtest.StartRedis(t)
		c := redisHub(t, url)
		redisOf(t, url, func(key string, fields ...string) {
			ctx := context.Background()
			if len(fields) == 1 {
				_ = c.c.Set(ctx, key, fields[0], time.Hour).Err()
				return
			}
			_ = c.c.HSet(ctx, key, fields[0], fields[1]).Err()
		})
	})
}
