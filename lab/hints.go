package lab

import (
	"embed"
	"io/fs"
	"strconv"
	"strings"

	"locksim/content"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Hints are the staged hints of level id in mode m, in the order they are
// shown: a nudge first, then the idea, then (to fix) the command or the
// comparison to use, never the code (content's lab/<id>.txt, sections
// break-N or fix-N). None for a level with no text.
func Hints(id string, m Mode) []string {
	txt, err := content.LabLevel(id)
	if err != nil {
		return nil
	}
	prefix := "fix-"
	if m == BreakIt {
		prefix = "break-"
	}
	var out []string
	for i := 1; txt.Has(prefix + strconv.Itoa(i)); i++ {
		out = append(out, txt[prefix+strconv.Itoa(i)])
	}
	return out
}

// fixes are the levels' reference fixes, one directory per level holding
// its parts as lab.Load reads them. They are the ones the levels' test
// grades (each must pass its level), so what the lab shows after a level
// is solved is a fix known to pass.
//
//go:embed testdata/fixes
var fixes embed.FS

// Reference is level id's reference fix: the level's lock with the parts
// its fix directory holds in place of the flawed ones (its policy the
// level's). False for a level with no fix.
func Reference(id string) (Lock, bool) {
	lv, ok := FindLevel(id)
	if !ok {
		return Lock{}, false
	}
	dir := "testdata/fixes/" + id
	if _, err := fs.Stat(fixes, dir); err != nil {
		return Lock{}, false
	}
	l := lv.Lock
	for _, part := range []*Part{&l.Acquire, &l.Release, &l.Extend} {
		for _, lang := range []Lang{Lua, Commands} {
			name := part.Name
			if name == "" {
				name = PartExtend
			}
			src, err := fixes.ReadFile(dir + "/" + name + lang.Ext())
			if err == nil {
				*part = Part{Name: name, Lang: lang, Src: string(src)}
			}
		}
	}
	return l, true
}

// ReferenceDiff is the learner's lock l against level id's reference fix,
// as unified diffs, one per part that differs ("--- yours/release.lua",
// "+++ reference/release.lua", then its hunks); "" when the parts are the
// same or the level has no fix. A part that differs only in its quotes,
// its comments or its spacing (in Lua, its line breaks too) is the same, and the reference's strings
// are quoted as the learner's are, so the diff shows what the code does
// differently. The policy is not compared: a level pins it.
func ReferenceDiff(id string, l *Lock) string {
	ref, ok := Reference(id)
	if !ok {
		return ""
	}
	var out strings.Builder
	mine, theirs := lockPartsOf(l), lockPartsOf(&ref)
	for i := range mine {
		a, b := mine[i], theirs[i]
		if a.Empty() && b.Empty() || a.Lang == b.Lang && sameCode(a.Lang, a.Src, b.Src) {
			continue
		}
		b.Src = quotedAs(a.Src, b.Src)
		name := a.Name
		if name == "" {
			name = b.Name
		}
		fa, fb := "yours/"+name+a.Lang.Ext(), "reference/"+name+b.Lang.Ext()
		if a.Empty() {
			fa = "yours/(no " + name + ")"
		}
		if b.Empty() {
			fb = "reference/(no " + name + ")"
		}
		out.WriteString(udiff.Unified(fa, fb, withNewline(a.Src), withNewline(b.Src)))
	}
	return out.String()
}

// lockPartsOf is l's parts in the editor's order, extend included when
// empty.
func lockPartsOf(l *Lock) [3]Part { return [3]Part{l.Acquire, l.Release, l.Extend} }

// withNewline is src ending in one line break, so a missing last one is
// no difference ("" stays "").
func withNewline(src string) string {
	src = strings.TrimRight(src, "\n")
	if src == "" {
		return ""
	}
	return src + "\n"
}

// FocusPart is the part level id is about, the one its page opens on
// (content's lab/<id>.txt, section part): PartAcquire, PartRelease or
// PartExtend; PartRelease for a level with no text, where most flaws are.
func FocusPart(id string) string {
	txt, err := content.LabLevel(id)
	if err == nil {
		switch p := strings.TrimSpace(txt["part"]); p {
		case PartAcquire, PartRelease, PartExtend:
			return p
		}
	}
	return PartRelease
}

// sameCode reports whether a and b are the same code in lang but for the
// quotes around strings, comment lines, indentation and blank lines, and
// in Lua where its lines break too (a .redis part is one command a line,
// so there a line break is a difference).
func sameCode(lang Lang, a, b string) bool {
	ca, cb := codeLines(a), codeLines(b)
	if lang == Lua {
		return strings.Join(strings.Fields(ca), " ") == strings.Join(strings.Fields(cb), " ")
	}
	return ca == cb
}

func codeLines(src string) string {
	var out []string
	for _, line := range strings.Split(strings.ReplaceAll(src, `"`, "'"), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "--") && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// quotedAs is ref with its double quotes made single when mine quotes
// its strings with single ones only, and ref has none of its own.
func quotedAs(mine, ref string) string {
	if strings.Contains(mine, "'") && !strings.Contains(mine, `"`) && !strings.Contains(ref, "'") {
		return strings.ReplaceAll(ref, `"`, "'")
	}
	return ref
}
