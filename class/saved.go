package class

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ReadSaved is class code as a -serve-dir server saved it in dir (its
// classes directory, <code>.json; see OpenDir), and its rows by name,
// read without touching the file: a server may be serving the class while
// its report is written. Its error is ErrNoClass for a code with no file,
// else one line.
func ReadSaved(dir, code string) (Info, []Member, error) {
	if !ValidCode(code) {
		return Info{}, nil, ErrNoClass
	}
	data, err := os.ReadFile(filepath.Join(dir, code+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return Info{}, nil, ErrNoClass
	}
	if err != nil {
		return Info{}, nil, fmt.Errorf("classes: %w", err)
	}
	var st stored
	if err := json.Unmarshal(data, &st); err != nil || st.Info.Code != code {
		return Info{}, nil, fmt.Errorf("classes: %s does not read as a class", filepath.Join(dir, code+".json"))
	}
	ms := make([]Member, 0, len(st.Members))
	for _, m := range st.Members {
		migrate(&m)
		m.Online = false // a saved row's presence is the server's, not the file's
		ms = append(ms, m)
	}
	withMatches(ms, st.Matches)
	sortRoster(ms)
	return st.Info, ms, nil
}
