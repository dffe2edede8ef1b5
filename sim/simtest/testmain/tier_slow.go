//go:build slow

package testmain

// Slow is true in the slower test tier (go test -race -tags slow ./...),
// which runs the live-server comparisons, fresh-process walks and suites
// that take longer than the README's quick test command allows.
const Slow = true
