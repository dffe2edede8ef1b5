package cli

import "locksim/lab"

// writtenPathsShown refuses, in lab.CheckPath's one line, a file or
// directory c would write (-cast, -history, -notes, -export-dir,
// -serve-dir) named with bytes a terminal obeys (ESC, a right-to-left
// override, a newline): listed later by ls or a file manager, its name
// would act on that screen.
func writtenPathsShown(c config) error {
	for _, p := range []struct{ flag, path string }{
		{"-cast", c.cast}, {"-history", c.history}, {"-notes", c.notes},
		{"-export-dir", c.exportDir}, {"-serve-dir", c.serve.dir},
	} {
		if p.path == "" {
			continue
		}
		if err := lab.CheckPath(p.flag, p.path); err != nil {
			return err
		}
	}
	return nil
}
