//go:build race

package serve

// raceShadow is how many times its own memory a test process holds under
// the race detector (its shadow memory), for the tests that bound RSS.
const raceShadow = 2
