module github.com/zeebo/xxh3

go 1.26.0

require (
	github.com/zeebo/assert v1.3.0
	golang.org/x/sys v0.50.0
)

replace github.com/zeebo/xxh3/avo => ./avo
