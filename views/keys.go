package views

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every binding locksim answers to. A scene switches off what it
// does not use (SetEnabled), so help lists only live keys.
type KeyMap struct {
	Play, Step, Back, Home, Faster, Slower key.Binding
	Select, Next, Prev                     key.Binding
	Replay, Crash, Pause, Wait             key.Binding
	SceneNext, ScenePrev                   key.Binding
	Help, Quit                             key.Binding
}

// DefaultKeyMap returns the bindings of a story scene.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Play:      key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "play/pause")),
		Step:      key.NewBinding(key.WithKeys("right", "n"), key.WithHelp("→/n", "step")),
		Back:      key.NewBinding(key.WithKeys("left", "b"), key.WithHelp("←/b", "step back")),
		Home:      key.NewBinding(key.WithKeys("home", "0"), key.WithHelp("home", "restart")),
		Faster:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/-", "speed")),
		Slower:    key.NewBinding(key.WithKeys("-", "_")),
		Select:    key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1-4", "select")),
		Next:      key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next actor")),
		Prev:      key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous actor")),
		Replay:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "replay, fresh tokens")),
		Crash:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "crash selected")),
		Pause:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause/wake selected")),
		Wait:      key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "let time pass")),
		SceneNext: key.NewBinding(key.WithKeys("pgdown", ">", "."), key.WithHelp(">", "next scene")),
		ScenePrev: key.NewBinding(key.WithKeys("pgup", "<", ","), key.WithHelp("<", "previous scene")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the one-line help under every scene.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Play, k.Step, k.Back, k.Replay, k.Select, k.Help, k.Quit}
}

// FullHelp is the help page opened with ?.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Play, k.Step, k.Back, k.Home, k.Faster},
		{k.Select, k.Next, k.Prev, k.Replay},
		{k.Crash, k.Pause, k.Wait},
		{k.SceneNext, k.ScenePrev, k.Help, k.Quit},
	}
}
