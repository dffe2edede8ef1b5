module github.com/charmbracelet/x/input

go 1.18

require (
	github.com/charmbracelet/x/ansi v0.8.0
	github.com/charmbracelet/x/windows v0.2.0
	github.com/muesli/cancelreader v0.2.2
	github.com/rivo/uniseg v0.4.7
	github.com/xo/terminfo v0.0.0-20220910002029-abceb7e1c41e
	golang.org/x/sys v0.30.0
)

require (
	github.com/lucasb-eyer/go-colorful v1.2.0 // indirect
	github.com/mattn/go-runewidth v0.0.16 // indirect
	golang.org/x/exp v0.0.0-20231006140011-7918f672742d // indirect
)
