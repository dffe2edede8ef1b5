module locksim

go 1.26.8

require (
	github.com/alicebob/miniredis/v2 v2.40.0
	github.com/anishathalye/porcupine v1.3.1
	github.com/aymanbagabas/go-udiff v0.3.1
	github.com/charmbracelet/bubbles v1.0.0
	github.com/charmbracelet/bubbletea v1.3.10
	github.com/charmbracelet/lipgloss v1.1.0
	github.com/charmbracelet/ssh v0.0.0-20250128164007-98fd5ae11894
	github.com/charmbracelet/wish v1.4.7
	github.com/charmbracelet/x/ansi v0.11.7
	github.com/charmbracelet/x/exp/teatest v0.0.0-20251215102626-e0db08df7383
	github.com/charmbracelet/x/input v0.3.4
	github.com/charmbracelet/x/vt v0.1.0
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.0
	github.com/coder/websocket v1.8.15
	github.com/lucasb-eyer/go-colorful v1.4.0
	github.com/mattn/go-isatty v0.0.20
	github.com/muesli/termenv v0.16.0
	github.com/redis/go-redis/v9 v9.23.0
	github.com/yuin/gopher-lua v1.1.1
	golang.org/x/crypto v0.59.0
	golang.org/x/text v0.44.0
)

require (
	github.com/anmitsu/go-shlex v0.0.0-20200514113438-38f4b401e2be // indirect
	github.com/atotto/clipboard v0.1.4 // indirect
	github.com/aymanbagabas/go-osc52/v2 v2.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/charmbracelet/colorprofile v0.4.2 // indirect
	github.com/charmbracelet/harmonica v0.2.0 // indirect
	github.com/charmbracelet/keygen v0.5.3 // indirect
	github.com/charmbracelet/log v0.4.1 // indirect
	github.com/charmbracelet/ultraviolet v0.0.0-20260303162955-0b88c25f3fff // indirect
	github.com/charmbracelet/x/cellbuf v0.0.15
	github.com/charmbracelet/x/conpty v0.1.0 // indirect
	github.com/charmbracelet/x/errors v0.0.0-20240508181413-e8d8b6e2de86 // indirect
	github.com/charmbracelet/x/exp/golden v0.0.0-20241011142426-46044092ad91 // indirect
	github.com/charmbracelet/x/exp/ordered v0.1.0 // indirect
	github.com/charmbracelet/x/term v0.2.2 // indirect
	github.com/charmbracelet/x/termios v0.1.1 // indirect
	github.com/charmbracelet/x/windows v0.2.2 // indirect
	github.com/clipperhouse/displaywidth v0.11.0 // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/creack/pty v1.1.21 // indirect
	github.com/erikgeiser/coninput v0.0.0-20211004153227-1c3628e74d0f // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/go-logfmt/logfmt v0.6.0 // indirect
	github.com/mattn/go-localereader v0.0.1 // indirect
	github.com/mattn/go-runewidth v0.0.23 // indirect
	github.com/muesli/ansi v0.0.0-20230316100256-276c6243b2f6 // indirect
	github.com/muesli/cancelreader v0.2.2 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/sahilm/fuzzy v0.1.1 // indirect
	github.com/xo/terminfo v0.0.0-20220910002029-abceb7e1c41e // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/exp v0.0.0-20240719175910-8a7402abbf56 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

// A patched copy of miniredis v2.40.0 that speaks Redis 8.4's SET … IF*,
// DELEX conditions and DIGEST, and Valkey 9.0's DELIFEQ; the patch against
// the pristine release is third_party/miniredis.patch.
replace github.com/alicebob/miniredis/v2 => ./third_party/miniredis

// A patched copy of charmbracelet/x/input v0.3.4 (through wish's bubbletea)
// that builds for Windows against x/windows v0.2.2, which dropped two
// constants it names, and holds its own copy of x/ansi's kitty.Options so
// that the binary does not carry image/png; the patch is
// third_party/input.patch.
replace github.com/charmbracelet/x/input => ./third_party/input

// A patched copy of zeebo/xxh3 v1.1.0 (miniredis's DIGEST hashes with it)
// that reads the CPU's features from golang.org/x/sys/cpu, already in the
// binary, rather than klauspost/cpuid; the patch is third_party/xxh3.patch.
replace github.com/zeebo/xxh3 => ./third_party/xxh3

// A patched copy of muesli/termenv v0.16.0 whose template helpers are typed
// map[string]interface{} (what text/template's FuncMap is) so that it does
// not import text/template; the patch is third_party/termenv.patch.
replace github.com/muesli/termenv => ./third_party/termenv
