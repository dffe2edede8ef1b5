//go:build race

package runner

// raceBuild: this binary was built with -race (the tests), and so are
// the children it starts of itself.
const raceBuild = true
