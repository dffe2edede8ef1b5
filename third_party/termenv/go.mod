module github.com/muesli/termenv

go 1.17

require (
	github.com/aymanbagabas/go-osc52/v2 v2.0.1
	github.com/lucasb-eyer/go-colorful v1.2.0
	github.com/mattn/go-isatty v0.0.20
	github.com/rivo/uniseg v0.4.7
	golang.org/x/sys v0.30.0
)
