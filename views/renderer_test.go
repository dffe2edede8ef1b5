package views

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// globalRenderer are lipgloss's functions that draw with, or set, the
// process's default renderer rather than a session's.
var globalRenderer = map[string]bool{
	"NewStyle": true, "Place": true, "PlaceHorizontal": true, "PlaceVertical": true,
	"DefaultRenderer": true, "SetDefaultRenderer": true, "ColorProfile": true,
	"SetColorProfile": true, "HasDarkBackground": true, "SetHasDarkBackground": true,
}

// TestNoGlobalRenderer: no code of the module (its tests and the
// patched third-party copies aside) draws with lipgloss's default
// renderer: a style from lipgloss.NewStyle, lipgloss.Style{} or Place
// reads the process's terminal, not the session's (a served session has
// its own, Styles.R). A lab verdict wrapped with lipgloss.NewStyle() did
// (3ab2599).
func TestNoGlobalRenderer(t *testing.T) {
	root := ".."
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module's root: %v", err)
	}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "third_party" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		name := ""
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "github.com/charmbracelet/lipgloss" {
				name = "lipgloss"
				if im.Name != nil {
					name = im.Name.Name
				}
			}
		}
		if name == "" {
			return nil
		}
		ofLipgloss := func(e ast.Expr) (string, bool) {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				return "", false
			}
			id, ok := sel.X.(*ast.Ident)
			return sel.Sel.Name, ok && id.Name == name
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if fn, ok := ofLipgloss(n); ok && globalRenderer[fn] {
					t.Errorf("%s: lipgloss.%s draws with the process's renderer: use the session's (Styles.R, Styles.Plain)", fset.Position(n.Pos()), fn)
				}
			case *ast.CompositeLit:
				if typ, ok := ofLipgloss(n.Type); ok && typ == "Style" {
					t.Errorf("%s: a lipgloss.Style{} draws with the process's renderer: use the session's (Styles.R)", fset.Position(n.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d files: the walk missed the module", files)
	}
}
