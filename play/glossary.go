package play

import (
	"strings"
)

// GlossaryHeldSection is the section of a scene's course text that names,
// separated by commas, the glossary's terms whose meaning would answer the scene's
// question: while it is open they are held back (GlossaryFor). A scene
// whose stories ask different questions names them per question, as it
// does the question's other sections: the section is a slot its
// Prediction.Vars fills for the story (extend's "{held}", from
// glossary-held-pause, or none for the GET story).
const GlossaryHeldSection = "glossary-held"

// GlossaryWaits stands for the meaning of a term held back while a
// question is open.
const GlossaryWaits = "(shown once the question on screen is answered)"

// GlossaryFor is the glossary as role may read it at the session's place:
// every term, but while the scene's question is open (its answer's text
// held back, Disclosure.Answer) the terms its course text names under
// GlossaryHeldSection for the story's question read GlossaryWaits for
// their meaning. A nil session
// (the contents with no story open) holds nothing back.
func GlossaryFor(s *Session, role Role) ([]Term, error) {
	terms, err := Glossary()
	if err != nil || s == nil || !s.Text.Has(GlossaryHeldSection) {
		return terms, err
	}
	if s.Disclose(role).Answer {
		return terms, nil
	}
	return holdTerms(terms, GlossaryHeld(s.Scene.Question(s.Text, s.Params, GlossaryHeldSection))), nil
}

// GlossaryHeld are the terms a glossary-held section names.
func GlossaryHeld(section string) []string {
	var out []string
	for _, line := range strings.Split(section, ",") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// holdTerms is terms with the meaning of each named in held replaced by
// GlossaryWaits.
func holdTerms(terms []Term, held []string) []Term {
	out := make([]Term, len(terms))
	for i, t := range terms {
		out[i] = t
		for _, h := range held {
			if strings.EqualFold(t.Word, h) {
				out[i].Meaning, out[i].Held = GlossaryWaits, true
			}
		}
	}
	return out
}
