package views

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// KeyMap is every binding locksim answers to. A scene switches off what it
// does not use (SetEnabled), so help lists only live keys.
type KeyMap struct {
	Play, Step, Back, Home, Faster, Slower key.Binding
	Select, Next, Prev                     key.Binding
	Replay, Move, Crash, Pause, Wait       key.Binding
	SceneNext, ScenePrev                   key.Binding
	Earlier, Later                         key.Binding
	About, Help, Quit                      key.Binding
	Hint, Notes, Esc, Export               key.Binding
	// a distributed story's nodes: pick one, then stop or restart it, cut
	// the selected client off it, slow it, jump its clock, or hang it
	Node, Stop, Cut, Slow, Jump, Hang key.Binding
	// the race scene's trials: the race run a thousand times for real;
	// the smallest trial of the anomaly picked there, as a story
	Trials, ShowOne key.Binding
	// a quiz's two answers; off in every other scene
	Efficiency, Correctness key.Binding
	// the scene's settings back to their defaults; off where it has none
	Defaults key.Binding
	// the history page: each model's finding over the timeline; a
	// story scene's only
	Verdicts key.Binding
	// the scene's ending: what it taught, what libraries do, its
	// references and what comes next, once its story is over
	Ending key.Binding
	// in a class served over SSH: Follow follows the instructor or leaves
	// follow mode (a student), or asks the class to follow or stops
	// asking (the instructor); Desk switches the instructor between the
	// scene and the class view (roster, poll, notes). Off elsewhere.
	Follow, Desk key.Binding
}

// DefaultKeyMap returns the bindings of a story scene.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Play:      Bind("space", "play/pause", " "),
		Step:      Bind("→/n/./pgdn", "step", "right", "n", ".", "pgdown"),
		Back:      Bind("←/b/,/pgup", "back", "left", "b", ",", "pgup"),
		Home:      Bind("home", "restart", "home", "0"),
		Faster:    Bind("+/-", "speed", "+", "="),
		Slower:    Bind("", "", "-", "_"),
		Select:    Bind("1-4", "select", "1", "2", "3", "4", "5"),
		Next:      Bind("tab/↓", "next actor", "tab", "down"),
		Prev:      Bind("shift+tab/↑", "previous actor", "shift+tab", "up"),
		Replay:    Bind("r", "race again", "r"),
		Move:      Bind("enter", "step the selected actor", "enter"),
		Crash:     Bind("x", "crash selected", "x"),
		Pause:     Bind("p", "pause/wake selected", "p"),
		Wait:      Bind("w", "let time pass", "w"),
		SceneNext: Bind(">", "next scene", ">"),
		ScenePrev: Bind("<", "previous scene", "<"),
		Notes:     Bind("N", "speaker notes", "N"),
		Export:    Bind("y", "save commands for redis-cli", "y"),
		Esc:       Bind("esc", "cancel, let go, contents", "esc"),
		Earlier:   Bind("[ ] / wheel", "scroll the log", "["),
		Later:     Bind("", "", "]"),
		About:     Bind("i", "about", "i"),
		Hint:      Bind("h", "a hint", "h"),
		Help:      Bind("?", "keys", "?"),
		Quit:      Bind("q", "quit", "q", "ctrl+c"),
		Trials:    Bind("t", "run the race 1000 times", "t"),
		ShowOne:   Bind("o", "show me one (after t)", "o"),
		Node:      Bind("A-E", "pick a node", "A", "B", "C", "D", "E"),
		Stop:      Bind("s", "stop node, or restart it", "s"),
		Cut:       Bind("u", "cut client off node, heal", "u"),
		Slow:      Bind("d", "slow node, undo", "d"),
		Jump:      Bind("j", "jump node clock forward", "j"),
		Hang:      Bind("H", "hang node, wake it", "H"),
		// 1 and 2 answer too, through Select
		Efficiency:  BindOff("e/1", "efficiency lock", "e"),
		Correctness: BindOff("c/2", "correctness lock", "c"),
		Defaults:    Bind("R", "settings back to default", "R"),
		Verdicts:    Bind("v", "the history, checked", "v"),
		Ending:      Bind("a", "what the scene taught", "a"),
		Follow:      BindOff("F", "follow the instructor, or leave", "F"),
		Desk:        BindOff("l", "the class: roster, poll, notes", "l"),
	}
}

// ShortHelp is the one-line help under every scene: the scene's own keys,
// then the way on (> the next scene, esc the contents), help and quit.
// Wait, About and the scene's settings are on the help page and on the
// settings line; a line narrower than all of it drops the scene's keys
// the help page lists too (see Fit).
func (k KeyMap) ShortHelp() []key.Binding {
	var own []key.Binding
	switch {
	case k.Node.Enabled():
		own = []key.Binding{short(k.Step, "→", "step"), short(k.Back, "←", "back"), short(k.Select, k.Select.Help().Key, "client"),
			short(k.Node, "A-E", "node"), short(k.Stop, "s", "stop"), short(k.Cut, "u", "cut"), short(k.Slow, "d", "slow"), short(k.Jump, "j", "jump")}
	case k.Efficiency.Enabled():
		own = []key.Binding{short(k.Efficiency, "e/1", "efficiency"), short(k.Correctness, "c/2", "correctness"),
			short(k.Step, "→", "next"), short(k.Back, "←", "back"), k.Hint}
	case k.Crash.Enabled():
		own = []key.Binding{short(k.Play, "space", "play"), short(k.Step, "→", "step"), short(k.Back, "←", "back"),
			short(k.Select, k.Select.Help().Key, "pick"), short(k.Crash, "x", "crash"), short(k.Pause, "p", "pause")}
	default:
		own = []key.Binding{k.Play, short(k.Step, "→", "step"), short(k.Back, "←", "back"), k.Replay,
			short(k.Select, k.Select.Help().Key, "select"), short(k.Trials, "t", "1000 races"), k.About}
	}
	return append(own, k.wayOn()...)
}

// wayOn is the end of every scene's help line: the next scene, the
// contents, help, quit.
func (k KeyMap) wayOn() []key.Binding {
	return []key.Binding{short(k.SceneNext, ">", "next scene"), short(k.Esc, "esc", "contents"), k.Help, k.Quit}
}

// dropFirst are the keys (by their first key) a help line too narrow for
// all of its keys leaves out, the first first: each is on the help page.
var dropFirst = []string{" ", "p", "i", "h", "x", "j", "d", "u", "s", "1", "t", "r", "left", "right"}

// Fit is bindings with as few of the scene's keys left out (dropFirst's
// order) as makes width(bindings) at most w: the way on, help and quit
// stay.
func Fit(bindings []key.Binding, w int, width func([]key.Binding) int) []key.Binding {
	out := bindings
	for _, drop := range dropFirst {
		if width(out) <= w {
			break
		}
		var kept []key.Binding
		for _, b := range out {
			if len(b.Keys()) == 0 || b.Keys()[0] != drop {
				kept = append(kept, b)
			}
		}
		out = kept
	}
	return out
}

// FullHelp is the help page opened with ?.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Efficiency, k.Correctness, k.Play, k.Step, k.Back, k.Home, k.Faster},
		{k.Select, k.Next, k.Prev, k.Replay, k.Trials, k.ShowOne},
		{k.Move, k.Crash, k.Pause, k.Wait, k.Defaults},
		{k.Node, k.Stop, k.Cut, k.Slow, k.Jump, k.Hang},
		{k.Earlier, k.SceneNext, k.ScenePrev, k.About, k.Verdicts, k.Ending, k.Hint, k.Notes, k.Export},
		{k.Follow, k.Desk, k.Esc, k.Help, k.Quit},
	}
}

// PredictHelp is the help line's bindings while a question waits for the
// learner's answer, one of choices.
func (k KeyMap) PredictHelp(choices int) []key.Binding {
	return []key.Binding{short(k.Select, "1-"+strconv.Itoa(choices), "your prediction"), short(k.Hint, "h", "a hint"),
		short(k.SceneNext, ">", "next scene"), short(k.Esc, "esc", "contents"), short(k.Help, "?", "keys"), short(k.Quit, "q", "quit")}
}

// PresenterHelp is presenter mode's help line: the clicker's step (its
// keys and space), the notes, a hint, the story page, the keys, quit.
func (k KeyMap) PresenterHelp() []key.Binding {
	return []key.Binding{short(k.Step, "./pgdn/space", "step"), short(k.Notes, "N", "notes"), short(k.Hint, "h", "hint"),
		short(k.About, "i", "story"), short(k.Help, "?", "keys"), short(k.Quit, "q", "quit")}
}

// PresenterEndHelp follows what the next click opens at a story's end.
func (k KeyMap) PresenterEndHelp() []key.Binding {
	return []key.Binding{short(k.Notes, "N", "notes"), short(k.Help, "?", "keys")}
}

// HelpLine is bindings as one line of "key what", joined by " · ".
func HelpLine(bindings []key.Binding) string {
	var parts []string
	for _, b := range bindings {
		if b.Enabled() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return strings.Join(parts, KeySep)
}

// KeySep separates the keys of a one-line help, on every page: the scene's
// footer (its help model, tui's Common.help) and each line HelpLine joins.
const KeySep = " · "

// short is b with a terser help label, for the one-line help.
func short(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// keyWidth is the widest key of keys, in runes.
func keyWidth(keys []key.Binding) int {
	kw := 0
	for _, b := range keys {
		kw = max(kw, len([]rune(b.Help().Key)))
	}
	return kw
}

// helpColumn is one column of the keys page, room columns wide: each key
// padded to kw, then what it does. A column whose descriptions do not
// all fit after keys of kw (the keys of the whole page) pads its keys to
// its own widest instead, and a description that still does not fit
// comes nearer its key, so what the class's keys do (F, l: short keys
// beside a scene's "←/shift+tab" or "[ ] / wheel") is not cut at 80
// columns; a line that still does not fit is cut with "…".
func helpColumn(st Styles, keys []key.Binding, kw, room int) []string {
	fits := func(kw int) bool {
		for _, b := range keys {
			if kw+2+ansi.StringWidth(b.Help().Desc) > room {
				return false
			}
		}
		return true
	}
	if !fits(kw) {
		kw = min(kw, keyWidth(keys))
	}
	out := make([]string, len(keys))
	for i, b := range keys {
		k, desc := b.Help().Key, b.Help().Desc
		// a description that does not fit after its column's keys comes
		// nearer its own key, as near as two spaces, before it is cut
		pad := max(0, min(kw-len([]rune(k)), room-len([]rune(k))-2-ansi.StringWidth(desc)))
		out[i] = ansi.Truncate(st.Key.Render(k)+strings.Repeat(" ", pad)+"  "+desc, room, "…")
	}
	return out
}

// HelpPage lists every enabled binding of groups as "key  what it does",
// in two columns across width, followed by the legend lines.
func HelpPage(st Styles, groups [][]key.Binding, legend []string, width int) string {
	var keys []key.Binding
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() && b.Help().Key != "" {
				keys = append(keys, b)
			}
		}
	}
	col := width / 2
	half := (len(keys) + 1) / 2
	left := helpColumn(st, keys[:half], keyWidth(keys), col-1)
	right := helpColumn(st, keys[half:], keyWidth(keys), width-col)
	var rows []string
	for i := range half {
		row := left[i]
		if i < len(right) {
			row += strings.Repeat(" ", max(1, col-ansi.StringWidth(left[i]))) + right[i]
		}
		rows = append(rows, row)
	}
	rows = append(rows, "")
	for _, l := range legend {
		rows = append(rows, st.Dim.Render(ansi.Truncate(l, width, "…")))
	}
	return strings.Join(rows, "\n")
}

// Bind is a binding of keys with help h and d, enabled; BindOff,
// disabled. A binding with no help (h and d empty) is left out of help.
// One function rather than key.NewBinding's options at each key of a key
// map: the options' closures built inline at each of DefaultKeyMap's keys
// were about 50 KB of binary.
func Bind(h, d string, keys ...string) key.Binding {
	if h == "" && d == "" {
		return key.NewBinding(key.WithKeys(keys...))
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(h, d))
}

func BindOff(h, d string, keys ...string) key.Binding {
	b := Bind(h, d, keys...)
	b.SetEnabled(false)
	return b
}
