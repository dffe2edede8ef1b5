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

// storyKeys are DefaultKeyMap's bindings, in the order of the fields it
// sets: a table, where forty Bind calls in one composite literal each
// compiled their own copy of the result into the binary (about 8 KB).
// 1 and 2 answer the efficiency and correctness question too, through
// Select.
var storyKeys = [...]struct {
	h, d string
	off  bool
	keys []string
}{
	{"space", "play/pause", false, []string{" "}},
	{"→/n/./pgdn", "step", false, []string{"right", "n", ".", "pgdown"}},
	{"←/b/,/pgup", "back", false, []string{"left", "b", ",", "pgup"}},
	{"home", "restart", false, []string{"home", "0"}},
	{"+/-", "speed", false, []string{"+", "="}},
	{"", "", false, []string{"-", "_"}},
	{"1-4", "select", false, []string{"1", "2", "3", "4", "5"}},
	{"tab/↓", "next actor", false, []string{"tab", "down"}},
	{"shift+tab/↑", "previous actor", false, []string{"shift+tab", "up"}},
	{"r", "race again", false, []string{"r"}},
	{"enter", "step the selected actor", false, []string{"enter"}},
	{"x", "crash selected", false, []string{"x"}},
	{"p", "pause/wake selected", false, []string{"p"}},
	{"w", "let time pass", false, []string{"w"}},
	{">", "next scene", false, []string{">"}},
	{"<", "previous scene", false, []string{"<"}},
	{"N", "speaker notes", false, []string{"N"}},
	{"y", "save commands for redis-cli", false, []string{"y"}},
	{"esc", "cancel, let go, contents", false, []string{"esc"}},
	{"[ ] / wheel", "scroll the log", false, []string{"["}},
	{"", "", false, []string{"]"}},
	{"i", "about", false, []string{"i"}},
	{"h", "a hint", false, []string{"h"}},
	{"?", "keys", false, []string{"?"}},
	{"q", "quit", false, []string{"q", "ctrl+c"}},
	{"t", "run the race 1000 times", false, []string{"t"}},
	{"o", "show me one (after t)", false, []string{"o"}},
	{"A-E", "pick a node", false, []string{"A", "B", "C", "D", "E"}},
	{"s", "stop node, or restart it", false, []string{"s"}},
	{"u", "cut client off node, heal", false, []string{"u"}},
	{"d", "slow node, undo", false, []string{"d"}},
	{"j", "jump node clock forward", false, []string{"j"}},
	{"H", "hang node, wake it", false, []string{"H"}},
	{"e/1", "efficiency lock", true, []string{"e"}},
	{"c/2", "correctness lock", true, []string{"c"}},
	{"R", "settings back to default", false, []string{"R"}},
	{"v", "the history, checked", false, []string{"v"}},
	{"a", "what the scene taught", false, []string{"a"}},
	{"F", "follow the instructor, or leave", true, []string{"F"}},
	{"l", "the class: roster, poll, notes", true, []string{"l"}},
}

// DefaultKeyMap returns the bindings of a story scene.
func DefaultKeyMap() KeyMap {
	var k KeyMap
	for i, b := range [...]*key.Binding{&k.Play, &k.Step, &k.Back, &k.Home, &k.Faster, &k.Slower, &k.Select, &k.Next, &k.Prev, &k.Replay, &k.Move, &k.Crash, &k.Pause, &k.Wait, &k.SceneNext, &k.ScenePrev, &k.Notes, &k.Export, &k.Esc, &k.Earlier, &k.Later, &k.About, &k.Hint, &k.Help, &k.Quit, &k.Trials, &k.ShowOne, &k.Node, &k.Stop, &k.Cut, &k.Slow, &k.Jump, &k.Hang, &k.Efficiency, &k.Correctness, &k.Defaults, &k.Verdicts, &k.Ending, &k.Follow, &k.Desk} {
		e := storyKeys[i]
		*b = Bind(e.h, e.d, e.keys...)
		if e.off {
			b.SetEnabled(false)
		}
	}
	return k
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
