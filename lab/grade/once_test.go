package grade

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// graded is the grade of each lock directory of testdata under each pin,
// made once for every test that reads it: the default grade of getdel and
// of fenced was made three times over, and a grade is a search of every
// property, most of the package's quick tier. The directories are never
// written, and a grade of the same files under the same pin is the same
// grade (TestTable and the agreement set hold them to exact statuses).
var graded sync.Map // "dir pin" → func() (Results, error)

// gradeOnce is Dir of a testdata lock directory dir under pin, graded at
// most once per test binary; each caller gets its own copy of the tests.
func gradeOnce(dir string, pin Pin) (Results, error) {
	key := fmt.Sprintf("%s %+v", dir, pin)
	f, _ := graded.LoadOrStore(key, sync.OnceValues(func() (Results, error) {
		return Dir(context.Background(), dir, pin)
	}))
	res, err := f.(func() (Results, error))()
	res.Tests = slices.Clone(res.Tests)
	return res, err
}
