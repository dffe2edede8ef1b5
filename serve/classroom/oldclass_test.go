package classroom

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/class"
	"locksim/serve/termtest"
)

// TestOldClassReports: a class an older locksim saved under -serve-dir
// (class/testdata/v1-class.json, written by that version's code) opens on
// this one, and `ssh host report CODE` writes its report, version 2: the
// question columns hold what the older rows kept.
func TestOldClassReports(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "class", "testdata", "v1-class.json"))
	if err != nil {
		t.Fatal(err)
	}
	teacherKey := termtest.NewKey(t)
	sum := sha256.Sum256(teacherKey.PublicKey().Marshal())
	// the class is led by this test's key (the id locksim gives a key)
	data = []byte(strings.ReplaceAll(string(data), `"teacher-key"`, `"`+hex.EncodeToString(sum[:16])+`"`))
	var st struct {
		Info class.Info `json:"info"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	code := st.Info.Code
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, code+".json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	hub, err := class.OpenDir(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	addr := classServer(t, hub, instructorsFile(t, teacherKey))
	out, errOut, status := termtest.Run(t, termtest.Dial(t, addr, "prof", teacherKey), "report "+code)
	if status != 0 {
		t.Fatalf("report: %d, %s", status, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	n := len(class.ReportHeader)
	if len(rows[0]) != n+3+len(class.WatchColumns) || !strings.HasPrefix(rows[0][n], "question gc-pause: ") || !strings.HasPrefix(rows[0][n+1], "question gc-pause, pause 20 s: ") ||
		!strings.HasPrefix(rows[0][n+2], "question gc-pause (settings not kept): ") {
		t.Fatalf("the old class's report header: %q", rows[0])
	}
	got := map[string]string{}
	for _, r := range rows[1:] {
		if r[6] == class.AllScenes {
			got[r[4]] = strings.Join(append([]string{r[n-1]}, r[n:len(r)-len(class.WatchColumns)]...), "|")
		}
	}
	if got["ann"] != class.ReportVersion+"||1|2 right" || got["bob"] != class.ReportVersion+"|1 wrong||" || len(got) != 2 {
		t.Fatalf("the old class's summary rows (version|answers): %q\n%s", got, out)
	}
}
