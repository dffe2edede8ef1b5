package views

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every binding locksim answers to. A scene switches off what it
// does not use (SetEnabled), so help lists only live keys.
type KeyMap struct {
	Play, Step, Back, Home, Faster, Slower key.Binding
	Select, Next, Prev                     key.Binding
	Replay, Crash, Pause, Wait             key.Binding
	SceneNext, ScenePrev                   key.Binding
	About, Help, Quit                      key.Binding
}

// DefaultKeyMap returns the bindings of a story scene.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Play:      key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "play/pause")),
		Step:      key.NewBinding(key.WithKeys("right", "n"), key.WithHelp("→/n", "step")),
		Back:      key.NewBinding(key.WithKeys("left", "b"), key.WithHelp("←/b", "back")),
		Home:      key.NewBinding(key.WithKeys("home", "0"), key.WithHelp("home", "restart")),
		Faster:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/-", "speed")),
		Slower:    key.NewBinding(key.WithKeys("-", "_")),
		Select:    key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1-4", "select")),
		Next:      key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next actor")),
		Prev:      key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous actor")),
		Replay:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "race again")),
		Crash:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "crash")),
		Pause:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause")),
		Wait:      key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wait")),
		SceneNext: key.NewBinding(key.WithKeys("pgdown", ">", "."), key.WithHelp(">", "next scene")),
		ScenePrev: key.NewBinding(key.WithKeys("pgup", "<", ","), key.WithHelp("<", "previous scene")),
		About:     key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "about")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the one-line help under every scene.
func (k KeyMap) ShortHelp() []key.Binding {
	// Wait, About and the scene's settings are on the help page and on the
	// settings line: an 80-column line has room for no more.
	if k.Crash.Enabled() {
		return []key.Binding{short(k.Play, "space", "play"), short(k.Step, "→", "step"), short(k.Back, "←", "back"), short(k.Select, "1-4", "pick"), k.Crash, k.Pause, k.Help, k.Quit}
	}
	return []key.Binding{k.Play, k.Step, k.Back, k.Replay, k.Select, k.About, k.Help, k.Quit}
}

// FullHelp is the help page opened with ?.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Play, k.Step, k.Back, k.Home, k.Faster},
		{k.Select, k.Next, k.Prev, k.Replay},
		{k.Crash, k.Pause, k.Wait},
		{k.SceneNext, k.ScenePrev, k.About, k.Help, k.Quit},
	}
}

// short is b with a terser help label, for the one-line help.
func short(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}
