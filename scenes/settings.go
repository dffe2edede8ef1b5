package scenes

import (
	"fmt"
	"strings"
	"time"
)

// ParseSettings reads -set's "name=value,name=value" for scene sc: a name
// is one of the scene's knobs (any case), a value one the knob offers,
// compared as a duration when both read as one ("70s" and "70000ms" are
// the same pause), else as a word (any case), and a knob may be given
// once. The error is one line that names what the knob accepts.
func ParseSettings(sc *Scene, s string) (Params, error) {
	p := Params{}
	given := map[string]string{} // knob name → the value given for it first
	for _, pair := range strings.Split(s, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" || value == "" {
			return nil, fmt.Errorf("-set wants name=value pairs separated by commas, got %q", pair)
		}
		k := sc.knob(name)
		if k == nil {
			return nil, fmt.Errorf("-set: scene %s has no setting %q (%s)", sc.ID, name, sc.knobNames())
		}
		if first, twice := given[k.Name]; twice {
			// the last would win silently, and the reader meant one of them
			return nil, fmt.Errorf("-set: %s is given twice (%s, then %s): give it once", k.Name, first, value)
		}
		given[k.Name] = value
		i := k.index(value)
		if i < 0 {
			var forms []string
			for _, v := range k.Values {
				forms = append(forms, setForm(v))
			}
			return nil, fmt.Errorf("-set: %s of scene %s is one of %s, got %q", k.Name, sc.ID, strings.Join(forms, ", "), value)
		}
		p[k.Name] = i
	}
	return p, nil
}

// FormatSettings writes p as -set reads it ("pause=70s,TTL=60s"), knobs in
// the scene's order and only those away from their first value; "" when
// every knob is at its default.
func FormatSettings(sc *Scene, p Params) string {
	var parts []string
	for _, k := range sc.Knobs {
		if i := p[k.Name]; i > 0 && i < len(k.Values) {
			parts = append(parts, k.Name+"="+setForm(k.Values[i]))
		}
	}
	return strings.Join(parts, ",")
}

// knob returns the scene's knob called name (any case), or nil.
func (s *Scene) knob(name string) *Knob {
	for i := range s.Knobs {
		if strings.EqualFold(s.Knobs[i].Name, name) {
			return &s.Knobs[i]
		}
	}
	return nil
}

// knobNames lists the settings a scene has, for an error line.
func (s *Scene) knobNames() string {
	if len(s.Knobs) == 0 {
		return "it has none"
	}
	var names []string
	for _, k := range s.Knobs {
		names = append(names, k.Name)
	}
	return "its settings: " + strings.Join(names, ", ")
}

// setForm is a knob value as -set takes it: a duration the screen spaces
// ("70 s") without its space, so it reads as one shell word; other values
// as they are.
func setForm(v string) string {
	if d := strings.ReplaceAll(v, " ", ""); d != v {
		if _, err := time.ParseDuration(d); err == nil {
			return d
		}
	}
	return v
}

// index is the position of value among the knob's values, -1 if none.
func (k Knob) index(value string) int {
	want, derr := time.ParseDuration(value)
	for i, v := range k.Values {
		if d, err := time.ParseDuration(setForm(v)); err == nil && derr == nil && d == want {
			return i
		}
		if strings.EqualFold(v, value) {
			return i
		}
	}
	return -1
}
