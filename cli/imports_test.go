package cli

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImportGraph keeps the house upright: the core (play) draws nothing,
// the scenes never reach the screen, and nothing reaches back up into the
// screen. It reads the whole graph, indirect imports included, with go list
// (goList).
func TestImportGraph(t *testing.T) {
	pkgs := packages(t)
	// a name ending in /... stands for the module's every package
	screen := []string{"locksim/tui", "locksim/views", "github.com/charmbracelet/lipgloss/...", "github.com/charmbracelet/bubbles/...",
		"github.com/charmbracelet/bubbletea/...", "github.com/muesli/termenv/..."}
	for _, c := range []struct {
		pkg   string
		never []string
	}{
		{"locksim/play", append(screen, "locksim/views")},
		{"locksim/storycode", append(screen, "locksim/views", "locksim/transcript")},
		{"locksim/scenes", screen},
		{"locksim/check", append(screen, "locksim/scenes", "locksim/play", "locksim/race", "locksim/transcript")},
		{"locksim/lab", screen},
		{"locksim/class", append(screen, "locksim/serve/...")},
		// the gradebook reads the class's rows: no screen, no server
		{"locksim/gradebook", append(screen, "locksim/serve/...", "locksim/cli")},
		// the tests' SSH client and wrap checks: the program never reaches them
		{"locksim", []string{"locksim/serve/termtest", "locksim/internal/wraptest"}},
		{"locksim/cli", []string{"locksim/serve/termtest"}},
		{"locksim/scenes/say", append(screen, "locksim/scenes", "locksim/sim", "locksim/play")},
		{"locksim/views", []string{"locksim/scenes", "locksim/play", "locksim/tui", "locksim/sim"}},
		// the SSH server sits above the screen: nothing but the commands
		// (cli) reach it
		{"locksim/tui", []string{"locksim/serve"}},
		{"locksim/transcript", []string{"locksim/serve"}},
		// the server knows nothing of the class, nor of the verbs its
		// commands run: both plug in from above
		{"locksim/serve", []string{"locksim/serve/classroom", "locksim/cli"}},
		// results.json is written above the lab, where it can call the
		// story codes: the lab itself reaches neither
		{"locksim/lab", []string{"locksim/storycode", "locksim/lab/grade"}},
	} {
		for _, d := range depsOf(t, pkgs, c.pkg) {
			for _, n := range c.never {
				if reaches(d, n) {
					t.Errorf("%s depends on %s", c.pkg, d)
				}
			}
		}
	}
	screenStartsNoEngine(t, pkgs)
}

// screenStartsNoEngine: the screen asks the core for what runs an engine
// (play.CheckLock, play.StartTrials, play.Course.LabStory) and draws what
// it reports. The core reaches race, so the screen does too through it:
// the rule is on the screen's own imports and calls. Its tests may build
// race's counts by hand.
func screenStartsNoEngine(t *testing.T, pkgs map[string]*listed) {
	tui, ok := pkgs["locksim/tui"]
	if !ok || tui.Dir == "" {
		t.Fatalf("go list does not list locksim/tui")
	}
	if slices.Contains(tui.Imports, "locksim/race") {
		t.Error("locksim/tui imports locksim/race: the core runs the trials (play.StartTrials)")
	}
	files, err := filepath.Glob(filepath.Join(tui.Dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	starts := map[string]string{"lab.Check": "play.CheckLock", "sim.OpenEmbedded": "play.Course.LabStory",
		"sim.OpenEmbeddedRealClock": "play.StartTrials", "checker.Check": "play.Session.CheckLater", "check.Check": "play.Session.CheckLater"}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok {
				if core, ok := starts[x.Name+"."+sel.Sel.Name]; ok {
					t.Errorf("%s calls %s.%s: the screen starts no engine (the core's %s does)", filepath.Base(name), x.Name, sel.Sel.Name, core)
				}
			}
			return true
		})
	}
}

// TestNoKindOutsideTheCore: outside the core (play) and the scenes, no
// program code compares with a scene's kind (scenes.Story, Race, Quiz, in
// == != or a switch case; a lab may still define a scene of a kind): it
// asks a session what it accepts, or a scene what it does. And
// no code, tests included, builds a play.Session by hand: a session comes
// from a Position through the door (play.Open).
func TestNoKindOutsideTheCore(t *testing.T) {
	kinds := map[string]bool{"Story": true, "Race": true, "Quiz": true}
	checked := 0
	for _, p := range modulePackages(packages(t)) {
		pkg, dir := p.ImportPath, p.Dir
		if pkg == "locksim/play" || pkg == "locksim/scenes" || strings.HasPrefix(pkg, "locksim/scenes/") {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			test := strings.HasSuffix(name, "_test.go")
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			// a file that spells neither scenes and a kind nor play and
			// Session, as words, has no node the check looks for: only
			// the others are parsed (parsing every file of the module
			// under -race was seconds)
			if !(hasWord(src, "scenes") && (hasWord(src, "Story") || hasWord(src, "Race") || hasWord(src, "Quiz")) ||
				hasWord(src, "play") && hasWord(src, "Session")) {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			kind := func(e ast.Expr) {
				if sel, ok := e.(*ast.SelectorExpr); ok && !test {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "scenes" && kinds[sel.Sel.Name] {
						t.Errorf("%s compares with scenes.%s: ask the session (Accepts, Show) or the scene (Sends, Stepped, FiresAtOnce)", filepath.Join(pkg, filepath.Base(name)), sel.Sel.Name)
					}
				}
			}
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BinaryExpr:
					kind(n.X)
					kind(n.Y)
				case *ast.CaseClause:
					for _, e := range n.List {
						kind(e)
					}
				case *ast.CompositeLit:
					if sel, ok := n.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Session" {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == "play" {
							t.Errorf("%s builds a play.Session by hand: open one through play.Open", filepath.Join(pkg, filepath.Base(name)))
						}
					}
				}
				return true
			})
		}
	}
	if checked == 0 {
		t.Fatal("no file was read")
	}
}

// hasWord reports whether src holds w as a whole word: not inside a longer
// identifier (every identifier w is in Go source is one such).
func hasWord(src []byte, w string) bool {
	ident := func(b byte) bool {
		return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
	}
	for at := 0; ; {
		i := bytes.Index(src[at:], []byte(w))
		if i < 0 {
			return false
		}
		i += at
		if (i == 0 || !ident(src[i-1])) && (i+len(w) == len(src) || !ident(src[i+len(w)])) {
			return true
		}
		at = i + 1
	}
}

// TestRootIsMainOnly: the root package is main.go alone, which hands the
// arguments to the command table (cli): it imports cli and os, and no
// package, test or not, imports it.
func TestRootIsMainOnly(t *testing.T) {
	pkgs := packages(t)
	root, ok := pkgs["locksim"]
	if !ok {
		t.Fatal("go list does not list locksim")
	}
	if got, want := fmt.Sprintf("%s %v %v %v %v", root.ImportPath, root.GoFiles, root.TestGoFiles, root.XTestGoFiles, root.Imports), "locksim [main.go] [] [] [locksim/cli os]"; got != want {
		t.Errorf("the root package: %s, want %s", got, want)
	}
	for _, p := range modulePackages(pkgs) {
		if slices.Contains(p.Imports, "locksim") || slices.Contains(p.TestImports, "locksim") || slices.Contains(p.XTestImports, "locksim") {
			t.Errorf("%s imports the root package", p.ImportPath)
		}
	}
}

// reaches reports dep is the package never names, or, for a name ending in
// /..., one of its module's packages.
func reaches(dep, never string) bool {
	mod, all := strings.CutSuffix(never, "/...")
	if !all {
		return dep == never
	}
	return dep == mod || strings.HasPrefix(dep, mod+"/")
}
