package cli

// screenFlag is a flag that asks the interactive screen for something the
// plain transcript cannot do: given with -plain, or without a terminal
// (where the transcript is the default), it is refused in one line (exit
// 2) rather than passed over while the transcript prints. The flags that
// only ask the screen not to do something (-no-color, -no-mouse, -no-save,
// -no-quiz) are not among them: a transcript has no colour, mouse or saved
// progress and never stops, so what they ask holds.
type screenFlag struct {
	name string
	// given reports whether the command line asks for it.
	given func(c config) bool
	// what the flag is, after "-name is".
	what string
	// instead is what to do instead, after the refusal; "" for none.
	instead string
}

// screenFlags is every flag that means something only on the screen.
func screenFlags() []screenFlag {
	return []screenFlag{
		{"present", func(c config) bool { return c.present }, "presenter mode, the interactive screen's", ""},
		{"scenes", func(c config) bool { return len(c.playlist) > 0 }, "the interactive screen's playlist", "use -plain -scene ID, once per scene"},
		{"notes", func(c config) bool { return c.notes != "" }, "the speaker notes of the step on the interactive screen", ""},
		{"theme", func(c config) bool { return c.theme != "default" }, "the interactive screen's colours", ""},
		// with -story it is also where a lab pointer's file is read
		{"export-dir", func(c config) bool { return c.exportDir != "" && c.story == "" }, "where the interactive screen's y writes a story for redis-cli", ""},
		{"export-scale", func(c config) bool { return c.exportScale != 0 }, "how the interactive screen's y scales a story for redis-cli", ""},
	}
}

// screenless is every verb that, at least sometimes, draws no screen:
// when (given the command line and whether stdin and stdout are a
// terminal) it writes what instead. A verb not here draws one (the
// course, a cast's frames, a served session), and each screen flag means
// something there.
var screenless = []struct {
	verb   string
	when   func(c config, term bool) bool
	writes string
}{
	{"plain", always, "the plain transcript"},
	{"story", always, "the plain transcript"},
	{"trials", func(c config, term bool) bool { return c.plain || !term }, "the trials' table"},
	{"list", always, "the list of scenes"},
	{"history", always, "the history page"},
}

func always(config, bool) bool { return true }

// screenRefused is the one line refusing the first screen flag given when
// verb draws no screen (screenless): the transcript, -plain given or no
// terminal, or a verb that only writes; "" when none is given.
func screenRefused(verb string, c config, term bool) string {
	writes := ""
	for _, s := range screenless {
		if s.verb == verb && s.when(c, term) {
			writes = s.writes
		}
	}
	if writes == "" {
		return ""
	}
	for _, f := range screenFlags() {
		if !f.given(c) {
			continue
		}
		line := "-" + f.name + " is " + f.what
		if verb == "list" || verb == "history" {
			return line + ": -" + verb + " writes " + writes + " and draws no screen"
		}
		if c.plain {
			line += ": it does not go with -plain"
			if f.instead != "" {
				line += " (" + f.instead + ")"
			}
			return line
		}
		hint := "run it in a terminal"
		if f.instead != "" {
			hint += ", or " + f.instead
		}
		return line + ", and stdin or stdout is not a terminal: without one locksim writes " + writes + ", which -" +
			f.name + " does not go with (" + hint + ")"
	}
	return ""
}
