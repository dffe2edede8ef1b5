package grade

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"locksim/lab"
)

// BenchmarkReferenceFix grades each level's reference fix
// (../testdata/fixes) under the default grade, the strictest the lab
// gives: every search, lessons and notes included. Run on one core:
//
//	go test ./lab/grade -run '^$' -bench ReferenceFix -cpu 1 -benchtime 1x
//
// Issue 32 asks for at most 5 s each.
func BenchmarkReferenceFix(b *testing.B) {
	for _, lv := range lab.Levels() {
		b.Run(lv.ID, func(b *testing.B) {
			dir := filepath.Join("..", "testdata", "fixes", lv.ID)
			for b.Loop() {
				res, err := Dir(context.Background(), dir, Pin{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Status == lab.Error {
					b.Fatalf("%s: %s", lv.ID, res.Message)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/grade")
		})
	}
}

// gradeWall is the default wall limit of a grade (cli's
// defaultGradeTimeout): past it, -grade kills the search and reports
// error, "the grade ran past its time limit".
const gradeWall = time.Minute

// BenchmarkBudgetSpender grades a lock whose release spends nearly its
// whole budget of instructions on every run (never over it, so the lock
// runs), under the default grade, with the wall limit of a grade as its
// deadline. It reports the seconds the grade took and whether it
// finished within the limit (1) or would be reported error (0). One
// iteration is up to a minute:
//
//	go test ./lab/grade -run '^$' -bench BudgetSpender -cpu 1 -benchtime 1x
func BenchmarkBudgetSpender(b *testing.B) {
	dir := b.TempDir()
	for name, src := range map[string]string{
		"acquire.lua": `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`,
		// about 99 000 of the 100 000 instructions a run may spend
		"release.lua": `local n = 0
for i = 1, 24500 do n = n + i end
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	finished := 0
	for b.Loop() {
		if gradeWithin(b, dir, gradeWall) {
			finished++
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/grade")
	b.ReportMetric(float64(finished)/float64(b.N), "finished")
}

// gradeWithin grades dir under the default grade with limit as its
// deadline, and reports whether it finished in time.
func gradeWithin(b *testing.B, dir string, limit time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	res, err := Dir(ctx, dir, Pin{})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return false
	case err != nil:
		b.Fatal(err)
	case res.Status == lab.Error:
		b.Fatalf("the lock cannot run: %s", res.Message)
	}
	return true
}
