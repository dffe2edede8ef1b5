module github.com/alicebob/miniredis/v2

require (
	github.com/yuin/gopher-lua v1.1.1
	github.com/zeebo/xxh3 v1.1.0
)

require (
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	golang.org/x/sys v0.30.0 // indirect
)

go 1.22
