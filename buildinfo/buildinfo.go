// Package buildinfo says which build of locksim is running, from the
// build information the Go toolchain writes into the binary
// (runtime/debug.ReadBuildInfo): what -version prints, and what a refused
// story code names.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// NoVCS is the version of a build that carries neither a module version
// nor a VCS revision: built by go run, with -buildvcs=false (or
// GOFLAGS=-buildvcs=false), or outside a git checkout.
const NoVCS = "(devel, no VCS info)"

// Version is this build's version: the main module's version when it has
// one (a tagged or pseudo-version, which go build stamps from git since
// Go 1.24, "+dirty" for uncommitted changes), with the VCS revision and
// its time when they were stamped; NoVCS when there is neither.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(no build info)"
	}
	return versionOf(bi)
}

// versionOf is Version for build information bi.
func versionOf(bi *debug.BuildInfo) string {
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	v := bi.Main.Version
	if v == "(devel)" {
		v = ""
	}
	var vcs []string
	if rev != "" {
		vcs = append(vcs, "commit "+rev[:min(12, len(rev))])
	}
	if at != "" {
		vcs = append(vcs, at)
	}
	if modified && !strings.HasSuffix(v, "+dirty") {
		vcs = append(vcs, "modified")
	}
	switch {
	case v == "" && len(vcs) == 0:
		return NoVCS
	case v == "":
		return "(devel, " + strings.Join(vcs, ", ") + ")"
	case len(vcs) == 0:
		return v
	}
	return v + " (" + strings.Join(vcs, ", ") + ")"
}
