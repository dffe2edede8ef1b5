//go:build !race

package serve

// raceShadow is 1 without the race detector (see race_test.go).
const raceShadow = 1
