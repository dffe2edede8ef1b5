package content

import (
	"maps"
	"regexp"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	txt := Parse("# title\nA lock\n# intro\nline one\nline two\n\nsecond paragraph\n# drift\n1% of the TTL\n")
	if txt.Get("title") != "A lock" {
		t.Errorf("title = %q", txt.Get("title"))
	}
	if got := txt.Get("intro"); got != "line one line two\nsecond paragraph" {
		t.Errorf("intro = %q", got)
	}
	if got := txt.Get("drift"); got != "1% of the TTL" {
		t.Errorf("a percent sign is text, not a verb: drift = %q", got)
	}
	if got := txt.Get("nope"); got != "[no text: nope]" {
		t.Errorf("a missing section should show as a gap, got %q", got)
	}
}

func TestEveryFileHasAnIntro(t *testing.T) {
	entries, err := files.ReadDir("text")
	if err != nil || len(entries) == 0 {
		t.Fatalf("no scene texts embedded: %v", err)
	}
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".txt")
		if sharedFile(e.Name()) || id == Glossary {
			continue // the shared sentences and the glossary, not scenes
		}
		txt, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(txt.Get("intro")) < 80 {
			t.Errorf("%s: the intro is missing or too short: %q", id, txt.Get("intro"))
		}
	}
	if _, err := Load("no-such-scene"); err == nil {
		t.Error("loading a scene with no text should fail")
	}
}

// fmtVerb matches a fmt verb as Sprintf would read it: "%", an optional
// argument index, flags other than a space, width, precision and a verb
// letter, or "%%". A percent sign followed by a space ("1% of the TTL") is
// prose.
var fmtVerb = regexp.MustCompile(`%(%|(\[\d+\])?[-+#0]*(\d+|\*)?(\.(\d+|\*)?)?[vTtbcdoOqxXUeEfFgGspw])`)

// TestNoFmtVerbs: every section is plain or has {name} slots (Fill); a fmt
// verb would reach the screen as written, since nothing formats it.
func TestNoFmtVerbs(t *testing.T) {
	entries, err := files.ReadDir("text")
	if err != nil || len(entries) == 0 {
		t.Fatalf("no scene texts embedded: %v", err)
	}
	for _, e := range entries {
		b, err := files.ReadFile("text/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for name, body := range Parse(string(b)) {
			if verb := fmtVerb.FindString(body); verb != "" {
				t.Errorf("%s, section %q: fmt verb %q; use a {name} slot and Fill", e.Name(), name, verb)
			}
		}
	}
	for _, bad := range []string{"%d", "%s", "%[2]s", "%.1f", "%5d", "%q", "%%"} {
		if !fmtVerb.MatchString("a " + bad + " b") {
			t.Errorf("fmtVerb misses %q", bad)
		}
	}
	if fmtVerb.MatchString("allows 1% of the TTL plus 5% of it") {
		t.Error("fmtVerb reads a percent sign in prose as a verb")
	}
}

func TestFill(t *testing.T) {
	txt := Parse("# granted\n{actor} got OK at {at}; {missing} stays\n")
	got := txt.Fill("granted", map[string]string{"actor": "w1", "at": "+0.000s"})
	if got != "w1 got OK at +0.000s; {missing} stays" {
		t.Errorf("Fill = %q", got)
	}
}

func TestSceneOverridesShared(t *testing.T) {
	txt, err := Load("race")
	if err != nil {
		t.Fatal(err)
	}
	shared, _ := Load(Shared)
	if txt.Get("granted") == shared.Get("granted") || txt.Get("released") != shared.Get("released") {
		t.Errorf("race should override granted and inherit released")
	}
}

// TestSharedFiles: the shared sentences are read from every shared file
// (ledger.txt and ledger-<kind>.txt, nothing else), each section named in
// one of them only (a second would silently win), and a scene's text holds
// every one of them it does not override.
func TestSharedFiles(t *testing.T) {
	for name, want := range map[string]bool{"ledger.txt": true, "ledger-why.txt": true, "ledgers.txt": false, "ledger": false, "race.txt": false, "ledger-x.md": false} {
		if sharedFile(name) != want {
			t.Errorf("sharedFile(%q) = %v, want %v", name, !want, want)
		}
	}
	entries, err := files.ReadDir("text")
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]string{} // section → the shared file that names it
	for _, e := range entries {
		if !sharedFile(e.Name()) {
			continue
		}
		b, err := files.ReadFile("text/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for name := range ParseForm(string(b), Raw) {
			if f, ok := in[name]; ok {
				t.Errorf("section %q is in both %s and %s", name, f, e.Name())
			}
			in[name] = e.Name()
		}
	}
	holding := map[string]bool{}
	for _, f := range in {
		holding[f] = true
	}
	if len(holding) < 2 {
		t.Fatalf("the shared sentences are in %d files: %v", len(holding), holding)
	}
	shared, err := Load(Shared)
	if err != nil {
		t.Fatal(err)
	}
	race, err := Load("race")
	if err != nil {
		t.Fatal(err)
	}
	own, err := LoadOwn("race")
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range in {
		if !shared.Has(name) {
			t.Errorf("%s's section %q is not in the shared sentences", f, name)
		}
		if !own.Has(name) && race.Get(name) != shared.Get(name) {
			t.Errorf("race's text lacks %s's section %q", f, name)
		}
	}
	if len(shared) != len(in) {
		t.Errorf("the shared sentences have %d sections, their files %d", len(shared), len(in))
	}
}

// TestMarkersBalanced: every [[ closes with ]] in the same paragraph of
// the same section, no span nests, and no span holds two "|".
func TestMarkersBalanced(t *testing.T) {
	entries, err := files.ReadDir("text")
	if err != nil || len(entries) == 0 {
		t.Fatalf("no scene texts embedded: %v", err)
	}
	spans := 0
	for _, e := range entries {
		b, err := files.ReadFile("text/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for name, body := range ParseForm(string(b), Raw) {
			if err := CheckMarkers(body); err != nil {
				t.Errorf("%s, section %q: %v", e.Name(), name, err)
			}
			spans += strings.Count(body, "[[")
		}
	}
	if spans == 0 {
		t.Error("no [[...]] span in the course text: the screen's keys are unmarked")
	}
	for _, bad := range []string{"a [[b", "a ]] b", "[[a [[b]] c]]", "[[a|b|c]]", "[[a\nb]]"} {
		if CheckMarkers(bad) == nil {
			t.Errorf("CheckMarkers(%q) = nil, want an error", bad)
		}
	}
}

// TestForms: the screen keeps a span's text without its brackets; the
// handout drops it with the space around it, or puts its "|" wording in.
func TestForms(t *testing.T) {
	for _, c := range []struct{ src, screen, handout string }{
		{"A takes the lock. [[Step with → or n; g and t change the pause.]]",
			"A takes the lock. Step with → or n; g and t change the pause.", "A takes the lock."},
		{"The stories [[(k)]] show where that breaks.",
			"The stories (k) show where that breaks.", "The stories show where that breaks."},
		{"Now A releases (with the method [[m shows|of this story]]). Whose lock goes?",
			"Now A releases (with the method m shows). Whose lock goes?",
			"Now A releases (with the method of this story). Whose lock goes?"},
		{"What a client does next is its policy[[, and m switches it]]. It waits.",
			"What a client does next is its policy, and m switches it. It waits.",
			"What a client does next is its policy. It waits."},
		{"[[Select a worker (1-4): enter steps it.]] Then w1 waits.",
			"Select a worker (1-4): enter steps it. Then w1 waits.", "Then w1 waits."},
		{"w1 crashes holding its job [[(f: it freezes instead)]]. B pauses.",
			"w1 crashes holding its job (f: it freezes instead). B pauses.", "w1 crashes holding its job. B pauses."},
		{"Node (C) stays, and so does (k).", "Node (C) stays, and so does (k).", "Node (C) stays, and so does (k)."},
		{"first\n\n[[only keys here]]\n\nlast", "first\nonly keys here\nlast", "first\nlast"},
	} {
		src := "# s\n" + c.src + "\n"
		if got := Parse(src).Get("s"); got != c.screen {
			t.Errorf("screen form of %q = %q, want %q", c.src, got, c.screen)
		}
		if got := ParseHandout(src).Get("s"); got != c.handout {
			t.Errorf("handout form of %q = %q, want %q", c.src, got, c.handout)
		}
	}
}

// TestHandoutFormIsTidy: dropping spans leaves no double space, no space
// before a stop or comma, no empty brackets and no marker in any paragraph
// that held a span, in either form.
func TestHandoutFormIsTidy(t *testing.T) {
	entries, err := files.ReadDir("text")
	if err != nil {
		t.Fatal(err)
	}
	untidy := regexp.MustCompile(`  | [.,;:)](\s|$)| \(\s*\)|\[\[|\]\]|^ | $`)
	checked := 0
	for _, e := range entries {
		b, err := files.ReadFile("text/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for name, raw := range ParseForm(string(b), Raw) {
			for _, para := range strings.Split(raw, "\n") {
				if !strings.Contains(para, "[[") {
					continue
				}
				checked++
				for _, f := range []Form{Screen, Handout} {
					got := ParseForm("# s\n"+para+"\n", f).Get("s")
					if m := untidy.FindString(got); m != "" {
						t.Errorf("%s, section %q, form %d: %q in %q", e.Name(), name, f, m, got)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no paragraph with a span was checked")
	}
}

// TestQuestionsHaveAnswerSections: a scene that asks a question keeps what
// answers it out of the sections shown before the learner answers. Its
// intro and notes stop at the question; the outcome lives in intro-answer
// and notes-answer, which are shown only once the question is answered.
// Its title stays short enough for the contents page.
func TestQuestionsHaveAnswerSections(t *testing.T) {
	entries, err := files.ReadDir("text")
	if err != nil || len(entries) == 0 {
		t.Fatalf("no scene texts embedded: %v", err)
	}
	asking := 0
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".txt")
		b, err := files.ReadFile("text/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		own := Parse(string(b)) // the file alone, not the shared sentences
		if !own.Has("predict") || id == Shared {
			continue
		}
		asking++
		for _, f := range []Form{Screen, Handout} {
			txt := ParseForm(string(b), f)
			for _, name := range []string{"intro", "intro-answer", "notes", "notes-answer", "title", "summary"} {
				if strings.TrimSpace(txt[name]) == "" {
					t.Errorf("%s, form %d: section %q is missing or empty", id, f, name)
				}
			}
		}
		if n := len([]rune(own["title"])); n > 40 {
			t.Errorf("%s: the title is %d characters, more than the contents page's 40: %q", id, n, own["title"])
		}
	}
	if asking == 0 {
		t.Error("no scene file has a predict section")
	}
}

// TestLoadParsesOnceAndHandsOutCopies: a second load of a scene's text is
// what parsing it afresh gives, in each form, and a caller that changes its
// copy changes no one else's.
func TestLoadParsesOnceAndHandsOutCopies(t *testing.T) {
	for _, f := range []Form{Screen, Handout, Raw} {
		first, err := LoadForm("race", f)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := loadForm("race", f)
		if err != nil {
			t.Fatal(err)
		}
		first["title"] = "changed by a caller"
		delete(first, "intro")
		again, err := LoadForm("race", f)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(again, fresh) {
			t.Errorf("form %d: a second load differs from a fresh parse (a caller's change reached it?)", f)
		}
		if again["title"] == "changed by a caller" || !again.Has("intro") {
			t.Errorf("form %d: a caller's change to its copy reached the next load", f)
		}
	}
	if _, err := LoadForm("no-such-scene", Screen); err == nil {
		t.Error("a missing scene's text loaded")
	}
}

// BenchmarkLoad is a scene's text loaded again, as each story a play
// opens loads it (cached), beside parsing it afresh, which every load cost
// before texts were parsed once (parsed).
func BenchmarkLoad(b *testing.B) {
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load("race"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parsed", func(b *testing.B) {
		for b.Loop() {
			if _, err := loadForm("race", Screen); err != nil {
				b.Fatal(err)
			}
		}
	})
}
