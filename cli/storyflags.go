package cli

import (
	"errors"
	"flag"
	"fmt"
	"locksim/play"
	"locksim/scenes"
	"locksim/storycode"
	"locksim/transcript"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// checkCast checks -cast FILE and reads -size WxH.
func checkCast(fs *flag.FlagSet, c *config) error {
	size := fs.Lookup("size").Value.String()
	sizeSet := false
	var clash []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "size":
			sizeSet = true
		case "plain", "questions", "trials", "list", "cleanup", "present", "notes", "redis", "redlock", "resource-redis", "scenes":
			clash = append(clash, "-"+f.Name)
		}
	})
	if c.cast == "" {
		if sizeSet {
			return errors.New("-size needs -cast: it is the size of the recorded terminal")
		}
		return nil
	}
	if len(clash) > 0 {
		return fmt.Errorf("-cast records a story on the embedded server into a file: it does not go with %s", strings.Join(clash, ", "))
	}
	if c.cast != "-" {
		if err := writable("-cast", c.cast); err != nil {
			return err
		}
	}
	c.castW, c.castH = 80, 24
	if sizeSet {
		w, h, ok := strings.Cut(size, "x")
		var err1, err2 error
		c.castW, err1 = strconv.Atoi(w)
		c.castH, err2 = strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil {
			return fmt.Errorf("-size must be WxH in columns and rows, e.g. 120x40, got %q", size)
		}
		if c.castW < 80 || c.castH < 24 || c.castW > maxCastW || c.castH > maxCastH {
			return fmt.Errorf("-size must be from 80x24 to %dx%d, got %s", maxCastW, maxCastH, size)
		}
	}
	return nil
}

// writable checks, before any story is played, that flag name's file path can
// be written where it is asked for: its directory exists (locksim makes
// none), the path is not a directory, and a plain file there opens for
// writing. A usage error, as every bad input; a failed write after that
// (a full disk) is not.
func writable(name, path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s: that is a directory; give a file's name", name, path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s %s: directory %s does not exist (locksim makes none)", name, path, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %v", name, path, err)
	case !fi.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", name, path, dir)
	}
	// a directory that exists may still refuse the file (/proc, a
	// read-only mount, no permission): open it as the write will, without
	// truncating one that exists, and remove one made only to ask; a
	// device or a FIFO (/dev/stdout) is left to the write, as opening a
	// FIFO could wait for a reader
	fi, err = os.Stat(path)
	if err == nil && !fi.Mode().IsRegular() {
		return nil
	}
	made := errors.Is(err, os.ErrNotExist)
	var f *os.File
	if made {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	} else {
		f, err = os.OpenFile(path, os.O_WRONLY, 0)
	}
	if err != nil {
		return fmt.Errorf("%s %s: cannot write there: %v", name, path, unwrapPath(err))
	}
	f.Close()
	if made {
		os.Remove(path)
	}
	return nil
}

// writableDir checks, as writable does for a file, that flag name's
// directory can be written: it, or the nearest of its parents that exists
// (the directories after it are made), is a directory a file can be
// created in. Nothing is left behind.
func writableDir(name, dir string) error {
	at := dir
	for {
		fi, err := os.Stat(at)
		if err == nil && !fi.IsDir() {
			return fmt.Errorf("%s %s: %s is not a directory", name, dir, at)
		}
		if err == nil {
			break
		}
		// missing, or under a file (ENOTDIR): the parent says which
		parent := filepath.Dir(at)
		if parent == at {
			break
		}
		at = parent
	}
	f, err := os.CreateTemp(at, ".locksim-probe-*")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write there: %v", name, dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPath is err without the path a *PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// maxCastW and maxCastH bound -size: a wall of a lecture hall.
const maxCastW, maxCastH = 400, 200

// readStory reads -story CODE into c.position; the flags a code carries
// itself, or that make no sense with one position, are refused.
func readStory(fs *flag.FlagSet, c *config) error {
	if c.story == "" {
		return nil
	}
	var clash []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "scene", "step", "set", "seed", "scenes", "trials", "questions", "list", "cleanup":
			clash = append(clash, "-"+f.Name)
		}
	})
	if len(clash) > 0 {
		return fmt.Errorf("-story carries its own scene, settings, seed and step: it does not go with %s", strings.Join(clash, ", "))
	}
	// a story of the lab's short pointer (y writes its code to a file
	// where exports go), or that file's path
	code := c.story
	if storycode.IsPointer(code) || strings.ContainsAny(code, `/\`) || strings.HasSuffix(code, ".code") {
		dir, err := scenes.Export{Dir: c.exportDir}.Where()
		if err != nil {
			return err
		}
		if code, err = storycode.Resolve(code, dir); err != nil {
			return err
		}
	}
	pos, err := storycode.Decode(code)
	if errors.Is(err, storycode.ErrNotCode) {
		// the usage's own words (-story CODE) pasted whole, or a scene's id
		// alone: say what a code looks like and where one comes from
		msg := fmt.Sprintf("-story %q: a story code reads <scene>.<letters and digits>, e.g. gc-pause.26hj7g6cp5w0…, as y shows it in a scene and a transcript prints it", c.story)
		if f := strings.Fields(c.story); len(f) > 0 && strings.HasPrefix(f[0], "-") {
			msg += "; give the code alone after -story"
		}
		return errors.New(msg)
	}
	if err != nil {
		return err
	}
	if pos.Quiz != nil && c.plain {
		return fmt.Errorf("-story: the code is a place in the quiz %s, which has no story to print; open it without -plain", pos.Scene)
	}
	if pos.Quiz != nil && c.history != "" {
		return fmt.Errorf("-history: the code is a place in the quiz %s, which sends no command: it has no history", pos.Scene)
	}
	c.position = &pos
	c.seed, c.seedSet = pos.Seed, true
	return nil
}

// checkAnswer checks -answer N: with -story CODE -plain, a choice of the
// question the code stands at or before, which it answers for the reader
// (the disclosure rule holds it open for them: play.Disclose).
func checkAnswer(fs *flag.FlagSet, c config) error {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "answer" })
	switch {
	case !set:
		return nil
	case c.position == nil || !c.plain:
		return errors.New("-answer N needs -story CODE and -plain: it answers the question a code's transcript stops at, and plays on")
	case c.answer < 1:
		return fmt.Errorf("-answer must be a choice's number, 1 or more, got %d", c.answer)
	}
	if r := transcript.AnswerRefusal(*c.position, play.Transcript, c.answer); r != "" {
		return errors.New("-answer: " + r)
	}
	return nil
}

// checkHistory checks -history: one scene's story, written as a file and
// nothing else (a story code's own checks are -story's).
func checkHistory(_ *flag.FlagSet, c *config) error {
	switch {
	case c.history == "":
		return nil
	case c.cast != "":
		return errors.New("-history and -cast each write one file: give one of them")
	case c.trialsSet || c.plain || c.questions || c.list || c.cleanup || c.notes != "":
		return errors.New("-history writes a file and exits: it does not go with -trials, -plain, -questions, -list, -cleanup or -notes")
	case !strings.HasSuffix(strings.ToLower(c.history), ".html"):
		return fmt.Errorf("-history %s: the file is a web page, give it a name ending in .html", c.history)
	case writable("-history", c.history) != nil:
		return writable("-history", c.history)
	case c.story != "":
		return nil // the code's scene is -story's to read
	case c.scene == "":
		return errors.New("-history needs -scene or -story: it writes the history of one scene's story")
	case !scenes.Find(c.scene).Sends():
		return fmt.Errorf("-history: scene %s is a quiz, which sends no command: it has no history", c.scene)
	}
	return nil
}

// historyPlace is the place -history writes: -scene's story at -step (to
// its end without -step), or the code's place (-story).
func historyPlace(c config) (pos play.Position, toEnd bool) {
	if c.position != nil {
		return *c.position, false
	}
	return play.Position{Version: play.PositionVersion, Scene: c.scene, Settings: map[string]int(c.settings), Seed: c.seed, Step: c.step}, !c.stepSet
}

// The verbs' own flags, each defined by its verb's entry in the table.
