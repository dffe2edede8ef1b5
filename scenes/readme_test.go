package scenes_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
)

// TestReadmeAnswersNoQuestion: the README's table of scenes, which a
// learner reads before playing, says what each scene shows and asks, never
// a reply that answers one of its questions. For every question of every
// story of a scene, each choice's reply (before its ":", "(integer) "
// left off: "1", "(nil)", "a's token") may not follow a verb of replying
// in the scene's row ("which answers a's own token"); nor may the row say
// that a command answers a number, OK or nil ("answers 0"), or whose lock
// a command deletes ("deletes B's lock"): questions ask both. Listing
// a command's possible replies narrows the choices as much as naming the
// right one, so every choice's reply counts, not only the right one's.
// The instructors' answer keys (docs/classroom.md) are meant to hold
// answers and are not read here.
func TestReadmeAnswersNoQuestion(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(string(readme), "\n") {
		if m := sceneRow.FindStringSubmatch(l); m != nil {
			rows[m[1]] = strings.ToLower(strings.ReplaceAll(l, "`", ""))
		}
	}
	for _, sc := range scenes.All() {
		row, ok := rows[sc.ID]
		if !ok {
			t.Errorf("the README's table of scenes has no row for %s", sc.ID)
			continue
		}
		if sc.Predict == nil {
			continue
		}
		text, err := content.Load(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		// "own" says nothing a choice does not ("A's own token")
		said := strings.ReplaceAll(row, " own ", " ")
		if m := replyStated.FindString(said); m != "" {
			t.Errorf("the README's row for %s says what a command answers (%q), which its questions ask:\n%s", sc.ID, m, row)
		}
		if m := deletesWhose.FindString(said); m != "" {
			t.Errorf("the README's row for %s says whose lock is deleted (%q), which a question asks:\n%s", sc.ID, m, row)
		}
		told := map[string]bool{} // a reply several stories offer, said once
		for _, p := range sc.Stories() {
			for _, c := range strings.Split(sc.Question(text, p, "choices"), "\n") {
				reply, _, _ := strings.Cut(strings.ToLower(c), ":")
				reply = strings.TrimSpace(strings.TrimPrefix(reply, "(integer) "))
				if reply == "" || told[reply] {
					continue
				}
				re := regexp.MustCompile(`\b(answers?|answering|replies|returns?|gets)\b[^.;|]*?(^|[\s(,])` + regexp.QuoteMeta(reply) + `($|[\s),])`)
				if m := re.FindString(said); m != "" {
					told[reply] = true
					t.Errorf("the README's row for %s says a reply a question of its (%s) offers, %q: %q\n%s", sc.ID, sc.Describe(p), reply, m, row)
				}
			}
		}
	}
}

// sceneRow is a row of the README's table of scenes: its id first.
var sceneRow = regexp.MustCompile("^\\| `([a-z-]+)` \\|")

// replyStated is a sentence that a command answers a reply: a number,
// OK or nil (a scene's questions ask what a command answers).
var replyStated = regexp.MustCompile(`\b(answers?|returns?|replies)\s+(\(integer\)\s+)?(-?\d+\b|ok\b|\(nil\)|nil\b)`)

// deletesWhose is a sentence that a command deletes someone's lock.
var deletesWhose = regexp.MustCompile(`\bdelet(es|ed|ing)\s+(a|b|c|w\d|another client|the other client|the holder)'s\s+lock`)

// TestDocsSayNoWhoseLockIsDeleted: the docs a learner may read (all but
// docs/classroom.md, the instructors' answer keys) never say whose lock a
// command deletes, which the release and lost-reply scenes and the lab's
// break stories ask ("the retry deletes B's lock" did).
func TestDocsSayNoWhoseLockIsDeleted(t *testing.T) {
	t.Parallel()
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	for _, d := range docs {
		if filepath.Base(d) == "classroom.md" {
			continue
		}
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(string(b), "`", "")), " "))
		for _, m := range deletesWhose.FindAllString(text, -1) {
			t.Errorf("%s says whose lock is deleted (%q), which a question asks", d, m)
		}
	}
}
