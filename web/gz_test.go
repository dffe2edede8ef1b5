package web

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestStaticInflates: xterm.js, stored gzipped, reads and is served as the
// script itself (a browser gets JavaScript, whole, of the size a listing
// gives), and no listing or path names the .gz.
func TestStaticInflates(t *testing.T) {
	st := Static()
	const name = "vendor/xterm/xterm.js"
	data, err := fs.ReadFile(st, name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("Terminal")) || bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Fatalf("%s reads as %d bytes that are not the script", name, len(data))
	}
	info, err := fs.Stat(st, name)
	if err != nil || info.Size() != int64(len(data)) || info.Name() != "xterm.js" {
		t.Fatalf("stat of %s: %v, %v", name, info, err)
	}
	if _, err := st.Open(name + ".gz"); err == nil {
		t.Errorf("%s.gz opens: the stored form shows", name)
	}
	es, err := fs.ReadDir(st, "vendor/xterm")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".gz") {
			t.Errorf("the listing names %s", e.Name())
		}
		if e.Name() == "xterm.js" {
			found = true
			if i, err := e.Info(); err != nil || i.Size() != int64(len(data)) {
				t.Errorf("the listing's xterm.js: %v, %v", i, err)
			}
		}
	}
	if !found {
		t.Error("the listing has no xterm.js")
	}

	srv := httptest.NewServer(http.FileServerFS(st))
	defer srv.Close()
	for path, want := range map[string]int{"/" + name: http.StatusOK, "/" + name + ".gz": http.StatusNotFound} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: %s, want %d", path, resp.Status, want)
			continue
		}
		if want == http.StatusOK {
			if !bytes.Equal(body, data) || !strings.Contains(resp.Header.Get("Content-Type"), "javascript") {
				t.Errorf("%s: %d bytes of %s, want the script's %d", path, len(body), resp.Header.Get("Content-Type"), len(data))
			}
		}
	}
	resp, err := http.Get(srv.URL + "/vendor/xterm/")
	if err != nil {
		t.Fatal(err)
	}
	listing, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(listing), "xterm.js") || strings.Contains(string(listing), ".gz") {
		t.Errorf("the served listing:\n%s", listing)
	}
}
