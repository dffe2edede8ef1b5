//go:build !race

package runner

const raceBuild = false
