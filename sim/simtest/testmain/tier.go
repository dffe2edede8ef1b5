package testmain

import (
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The two tiers, and why each test runs in exactly one of them.
//
// The quick tier (go test -race ./...) is compiled without the slow tag,
// so simtest.StartServer and SkipUnlessSlow skip: nothing in it starts a
// redis-server. The slow tier (go test -race -tags slow ./...) must run
// only what the quick tier skipped, not the quick tier a second time.
//
// A test is a slow-tier test when its body, or a function, method,
// variable or constant of its package's test files that it reaches by
// name, names one of Markers (simtest.StartRedis, SkipUnlessSlow, OnBoth,
// InTier...). Run reads the package's _test.go files (go test runs a test
// binary in its package's directory) and, in the slow tier, passes every
// other test, fuzz target and example to -test.skip. So the marker a test
// already needs in order to skip in the quick tier is also what picks it
// for the slow tier: no list to keep, no naming rule, no file to move it
// to. A test the reading misses (a marker reached through another
// package, say) would run in neither tier, so the quick tier checks every
// SkipUnlessSlow it meets against the reading (see SlowTest) and fails
// such a test.
//
// Inside a slow-tier test, parts the quick tier already ran skip
// themselves in the slow tier: OnBoth's embedded half, simtest.QuickOnly,
// and a sweep's quick sample (simtest.InTier).
//
// A -skip given on the command line wins: go test -race -tags slow
// -skip= ./... runs both tiers' tests in one go.

// Markers are the simtest names whose use makes a test a slow-tier test.
var Markers = []string{"StartRedis", "StartRedisArgs", "StartServer", "SkipUnlessSlow", "OnBoth", "Slow", "InTier", "QuickOnly"}

// slowTests is the reading of this package's test files: the top-level
// tests that reach a marker. nil when Run did not read them.
var slowTests map[string]bool

// The quick tier skips no test by the reading: it needs it only to check
// a SkipUnlessSlow (SlowTest), so Run leaves it to the first check.
// Parsing every test file under -race cost each test binary 10 to 200 ms
// at its start, 0.6 s of the quick tier over its packages. lazyDir is the
// directory Run was called in, made absolute (a test may change
// directory); lazyReading reads it once. lazyReading is nil in the slow
// tier, or when Run was not called.
var (
	lazyDir     string
	lazyReading func() map[string]bool
)

// SlowTest reports whether the top-level test named name (t.Name() up to
// its first slash) is a slow-tier test by the reading of its package's
// test files, and whether there was a reading at all (Run was called from
// the package's TestMain and found its files). In the quick tier a test
// whose own body names a marker (the usual SkipUnlessSlow) is answered
// from its own file (ownMarker): the whole reading, which starts from the
// test, finds that marker too.
func SlowTest(name string) (slow, read bool) {
	top, _, _ := strings.Cut(name, "/")
	if lazyReading != nil {
		if ownMarker(lazyDir, top) {
			return true, true
		}
		m := lazyReading()
		if m == nil {
			return false, false
		}
		return m[top], true
	}
	if slowTests == nil {
		return false, false
	}
	return slowTests[top], true
}

// ownMarker reports whether the top-level function named name in dir's
// test files names a marker in its own declaration. Only the file that
// declares it is parsed, once for all the tests it declares (ownMarks).
func ownMarker(dir, name string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return false
	}
	decl := []byte("func " + name + "(")
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(src, decl) {
			continue
		}
		f, _ := ownMarks.LoadOrStore(path, sync.OnceValue(func() map[string]bool { return marksOf(path, src) }))
		if f.(func() map[string]bool)()[name] {
			return true
		}
	}
	return false
}

// ownMarks is, for each test file ownMarker parsed, the top-level
// functions of it that name a marker in their own declarations.
var ownMarks sync.Map // path → func() map[string]bool

// marksOf is the top-level functions of the file path holding src that
// name a marker in their own declarations; none if it does not parse.
func marksOf(path string, src []byte) map[string]bool {
	marks := map[string]bool{}
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		return marks
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil {
			continue
		}
		ast.Inspect(fd, func(n ast.Node) bool {
			if x, ok := n.(*ast.SelectorExpr); ok && isMarker(x) {
				marks[fd.Name.Name] = true
			}
			return !marks[fd.Name.Name]
		})
	}
	return marks
}

// isMarker reports whether x is simtest.M for one of Markers.
func isMarker(x *ast.SelectorExpr) bool {
	id, ok := x.X.(*ast.Ident)
	return ok && id.Name == "simtest" && slices.Contains(Markers, x.Sel.Name)
}

// reading is the slow tests of readTests(dir), nil when there are no
// test files there.
func reading(dir string) map[string]bool {
	slow, quick, err := readTests(dir)
	if err != nil || len(slow)+len(quick) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, n := range slow {
		m[n] = true
	}
	return m
}

// selectTier reads the test files in dir and, in the slow tier, skips the
// quick ones unless -test.skip was given.
func selectTier(dir string) {
	if !Slow {
		if abs, err := filepath.Abs(dir); err == nil {
			lazyDir, lazyReading = abs, sync.OnceValue(func() map[string]bool { return reading(abs) })
		}
		return
	}
	slow, quick, err := readTests(dir)
	if err != nil || len(slow)+len(quick) == 0 {
		return // not in a package's directory (a test binary run by hand)
	}
	slowTests = map[string]bool{}
	for _, n := range slow {
		slowTests[n] = true
	}
	if len(quick) == 0 {
		return
	}
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.skip" })
	if given {
		return
	}
	var pat []string
	for _, n := range quick {
		if !strings.HasPrefix(n, "Benchmark") { // run only when asked for, by -bench
			pat = append(pat, regexp.QuoteMeta(n))
		}
	}
	if len(pat) > 0 {
		_ = flag.Set("test.skip", "^("+strings.Join(pat, "|")+")$")
	}
}

// readTests sorts the Test, Fuzz, Example and Benchmark functions of dir's _test.go
// files into those that reach a marker and the rest.
func readTests(dir string) (slow, quick []string, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	refs := map[string]map[string]bool{} // a top-level name → the names it uses
	marked := map[string]bool{}          // a top-level name that uses a marker itself
	var tests []string
	add := func(name string, n ast.Node) {
		if refs[name] == nil {
			refs[name] = map[string]bool{}
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if isMarker(x) {
					marked[name] = true
				}
				refs[name][x.Sel.Name] = true // a method or field: by name, which can only over-reach
			case *ast.Ident:
				refs[name][x.Name] = true
			}
			return true
		})
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				add(d.Name.Name, d)
				if d.Recv == nil && isTest(d.Name.Name) {
					tests = append(tests, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n.Name, s)
						}
					case *ast.TypeSpec:
						add(s.Name.Name, s)
					}
				}
			}
		}
	}
	for _, t := range tests {
		if reaches(t, refs, marked) {
			slow = append(slow, t)
		} else {
			quick = append(quick, t)
		}
	}
	return slow, quick, nil
}

func isTest(name string) bool {
	for _, p := range []string{"Test", "Fuzz", "Example", "Benchmark"} {
		if rest, ok := strings.CutPrefix(name, p); ok && name != "TestMain" && (rest == "" || !isLower(rest[0])) {
			return true
		}
	}
	return false
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// reaches reports whether from uses a marker, itself or through the
// package's top-level names it uses, transitively.
func reaches(from string, refs map[string]map[string]bool, marked map[string]bool) bool {
	seen := map[string]bool{from: true}
	todo := []string{from}
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if marked[n] {
			return true
		}
		for r := range refs[n] {
			if _, ok := refs[r]; ok && !seen[r] {
				seen[r] = true
				todo = append(todo, r)
			}
		}
	}
	return false
}
