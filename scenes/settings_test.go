package scenes

import "testing"

// TestEverySettingRoundTrips: every value of every scene's settings, as
// -set takes it (FormatSettings, and name=value for a first value), reads
// back through ParseSettings as that value: a value -set cannot carry (a
// comma, which separates settings) fails here, not for a user.
func TestEverySettingRoundTrips(t *testing.T) {
	for _, sc := range All() {
		for _, k := range sc.Knobs {
			for i, v := range k.Values {
				forms := []string{k.Name + "=" + setForm(v)}
				if f := FormatSettings(sc, Params{k.Name: i}); f != "" {
					forms = append(forms, f)
				}
				for _, f := range forms {
					p, err := ParseSettings(sc, f)
					if err != nil {
						t.Errorf("%s: -set %q (value %q) is refused: %v", sc.ID, f, v, err)
						continue
					}
					if p[k.Name] != i {
						t.Errorf("%s: -set %q reads as %s's value %d, want %d (%q)", sc.ID, f, k.Name, p[k.Name], i, v)
					}
				}
			}
		}
	}
}
