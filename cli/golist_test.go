package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"sync"
	"testing"
)

// listed is what go list says of a package: the fields the tests of the
// import graph and of the modules read.
type listed struct {
	ImportPath string
	Dir        string
	// DepOnly is set on a package the pattern did not name (a dependency
	// of the module's packages: the standard library's, a module's)
	DepOnly                                  bool
	GoFiles, TestGoFiles, XTestGoFiles       []string
	Imports, TestImports, XTestImports, Deps []string
	Module                                   *struct {
		Path, Version string
		Replace       *struct{ Path, Version string }
	}
}

// goList lists the module's packages and every package they depend on
// (go list -deps -json locksim/...), once for all the tests that read the
// graph: a go list for each question was most of their time.
var goList = sync.OnceValues(func() (map[string]*listed, error) {
	out, err := exec.Command("go", "list", "-deps", "-json", "locksim/...").Output()
	if err != nil {
		return nil, err
	}
	pkgs := map[string]*listed{}
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		pkgs[p.ImportPath] = &p
	}
	return pkgs, nil
})

// packages is goList's answer; it skips the test when there is no go
// command.
func packages(t *testing.T) map[string]*listed {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the packages with")
	}
	pkgs, err := goList()
	if err != nil {
		t.Fatalf("go list -deps -json locksim/...: %v", err)
	}
	return pkgs
}

// depsOf is what go list -deps pkg lists: pkg and every package it
// depends on.
func depsOf(t *testing.T, pkgs map[string]*listed, pkg string) []string {
	t.Helper()
	p, ok := pkgs[pkg]
	if !ok || p.DepOnly {
		t.Fatalf("go list does not list %s", pkg)
	}
	return append([]string{pkg}, p.Deps...)
}

// modulePackages are the module's own packages (locksim/...), by path.
func modulePackages(pkgs map[string]*listed) []*listed {
	var own []*listed
	for _, p := range pkgs {
		if !p.DepOnly {
			own = append(own, p)
		}
	}
	return own
}
