package serve

import (
	"image/color"
	"io"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/input"
	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// rendererFor is a session's own lipgloss renderer over t, its colour
// profile and background those of the client's terminal: a tab's
// xterm.js draws in true colour on a dark background, so it is set so
// rather than asked; a terminal with no type, or "dumb", gets none; any
// other is read from the type and environment the client sent, and its
// background asked of the terminal itself, as wish v1.4.7's
// bubbletea.MakeRenderer does for an SSH session.
func rendererFor(t Transport) *lipgloss.Renderer {
	c := t.Client()
	switch c.Term {
	case BrowserTerm:
		r := lipgloss.NewRenderer(t, termenv.WithProfile(termenv.TrueColor))
		r.SetColorProfile(termenv.TrueColor)
		r.SetHasDarkBackground(true)
		return r
	case "", "dumb":
		return lipgloss.NewRenderer(t, termenv.WithProfile(termenv.Ascii))
	}
	env := environ(append(append([]string(nil), c.Env...), "TERM="+c.Term))
	r := lipgloss.NewRenderer(t, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
	if bg := queryBackground(t, t); bg != nil {
		if c, ok := colorful.MakeColor(bg); ok {
			_, _, l := c.Hsl()
			r.SetHasDarkBackground(l < 0.5)
		}
	}
	return r
}

// environ is a client's environment as termenv reads it.
type environ []string

func (e environ) Environ() []string { return e }

func (e environ) Getenv(k string) string {
	for _, v := range e {
		if len(v) > len(k) && v[:len(k)] == k && v[len(k)] == '=' {
			return v[len(k)+1:]
		}
	}
	return ""
}

// queryWait is how long a terminal has to answer the background query
// (wish v1.4.7's querySessionBackgroundColor waits as long).
const queryWait = time.Second

// queryBackground asks the terminal on in and out for its background
// colour (OSC 11), then its device attributes (DA1), which every terminal
// answers, so the wait ends at once on one that does not know OSC 11; nil
// when it does not say within queryWait. It follows wish v1.4.7's
// querySessionBackgroundColor (copied there from x/term v0.1.3).
func queryBackground(in io.Reader, out io.Writer) (bg color.Color) {
	rd, err := input.NewReader(in, "", 0)
	if err != nil {
		return nil
	}
	defer rd.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(queryWait):
			rd.Cancel()
		}
	}()
	if _, err := io.WriteString(out, ansi.RequestBackgroundColor+ansi.RequestPrimaryDeviceAttributes); err != nil {
		return nil
	}
	for {
		events, err := rd.ReadEvents()
		if err != nil {
			return bg
		}
		for _, e := range events {
			switch e := e.(type) {
			case input.BackgroundColorEvent:
				bg = e.Color
			case input.PrimaryDeviceAttributesEvent:
				return bg
			}
		}
	}
}
