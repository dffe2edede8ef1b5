package classroom

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"
	"locksim/web"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"
)

// TestClassInChromium drives a real headless Chromium through the page:
// it loads /c/CODE of a class an instructor opened over SSH, types a
// name, follows, presses a prediction, and the instructor's poll counts
// it; a screenshot of the page at 1280x800 shows the terminal drawn (many
// pixels off the background, in more than two colours) and is kept as an
// artefact. The projector link, in a second tab, draws the scene; the
// instructor's class view, in a third (their SSH session through a page
// of the test's), draws the poll and the roster; no tab was sent the
// too-small notice, even as a first frame (issue 53). It skips, with a
// line, where no chromium is installed.
func TestClassInChromium(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH (Debian's chromium package; .ci/run installs it for the slow tier): the page is not driven in a real browser here")
	}
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class: New(hub, "ssh -p 2222 CODE@localhost", t.Logf)})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.ServeWeb(l, "", "") }()
	base := "http://" + l.Addr().String()

	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.DisableGPU,
		chromedp.WindowSize(1280, 800), chromedp.UserDataDir(t.TempDir()))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 4*hang)
	defer cancelTime()

	// the terminal's text as xterm.js's DOM renderer lays it out
	shows := func(text string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](`(document.querySelector(".xterm-rows") || {textContent: ""}).textContent.replace(/\u00a0/g, " ").includes(` + jsString(text) + `)`)
	}
	// Enter as a key down and up (xterm.js sends it on its keydown); text
	// as the text area's input, as a keyboard's IME gives it: xterm.js
	// types some letters on keydown, others on the char event after, and
	// a synthesized key types some twice
	typeKeys := func(keys string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := chromedp.Focus(chromedp.CSS(".xterm-helper-textarea"))(ctx, tg); err != nil {
				return err
			}
			for _, r := range keys {
				if r != '\r' {
					if _, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: string(r)}); err != nil {
						return err
					}
					continue
				}
				for _, k := range kb.Encode(r) {
					if k.Type == kb.KeyChar {
						continue
					}
					if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, *k); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	screen := func() string {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(".xterm-rows") || {innerText: "(no terminal)"}).innerText`))
		return text
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		recordFrames(),
		chromedp.Navigate(base+"/c/"+code),
		shows("Your name, as the class will see it"),
		typeKeys("chromium"+kb.Enter),
		shows("F follows"),
		typeKeys("F"),
		shows("following the instructor"),
		// the page links the scene on screen, to its question and no further
		chromedp.Poll[chromedp.Void](`document.getElementById("transcript").getAttribute("href") === "/plain/ask/gc-pause"`),
	); err != nil {
		t.Fatalf("driving the page: %v; the terminal shows:\n%s", err, screen())
	}
	teacher.Send("...")
	teacher.WaitFor(" 3/", "Ask the room before the server answers")
	if err := chromedp.Do(ctx,
		shows("1-3 your prediction"),
		typeKeys("2"),
		shows("You predicted"),
	); err != nil {
		t.Fatalf("driving the page: %v; the terminal shows:\n%s", err, screen())
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	teacher.Send("l")
	desk := teacher.WaitFor("1 of 1 answered", "chromium", "predicted 2", "projector tab: ")
	link := regexp.MustCompile(`(?m)^\s*projector tab: (\S+/p/[a-z2-9]+)\s*$`).FindStringSubmatch(desk)
	if link == nil {
		t.Fatalf("the class view has no row of the projector link:\n%s", desk)
	}

	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
		t.Errorf("the screenshot is %dx%d, want 1280x800", b.Dx(), b.Dy())
	}
	lit, colours := drawn(img)
	dir := filepath.Join(os.TempDir(), "locksim-artefacts")
	if err := os.MkdirAll(dir, 0o755); err == nil {
		out := filepath.Join(dir, "web-class-1280x800.png")
		if err := os.WriteFile(out, shot, 0o644); err == nil {
			t.Logf("the screenshot is kept at %s", out)
		}
	}
	// a drawn course screen lights a few percent of its pixels in several
	// colours; a blank or failed page lights none
	if lit < 5000 || colours < 3 {
		t.Fatalf("the page looks blank: %d pixels off the background, %d colours", lit, colours)
	}

	// the projector link, in a second tab of the same browser: the scene
	// the instructor leads, drawn at the tab's size
	pctx, cancelTab := chromedp.NewContext(ctx)
	defer cancelTab()
	projector := func() string {
		text, _ := chromedp.Run(pctx, chromedp.Evaluate[string](`(document.querySelector(".xterm-rows") || {innerText: "(no terminal)"}).innerText`))
		return text
	}
	if err := chromedp.Do(pctx,
		chromedp.EmulateViewport(1280, 800),
		recordFrames(),
		chromedp.Navigate(link[1]),
		shows("projector: following the instructor"),
		shows("Frozen while holding the lock"),
		shows("1) (nil): A's key is still there"),
	); err != nil {
		t.Fatalf("the projector tab: %v; it shows:\n%s", err, projector())
	}
	if text := projector(); strings.Contains(text, "0x0") || strings.Contains(text, "needs a terminal") {
		t.Fatalf("the projector tab says its terminal is too small:\n%s", text)
	}
	keepShot(t, pctx, dir, "web-projector-1280x800.png", "the projector tab")

	// the instructor's class view (l), in a third tab: their SSH session
	// through a page of the test's that serves the course's own page and
	// xterm.js and carries the tab's bytes and size over SSH (a web SSH
	// client, as an instructor without a terminal would use); the
	// projector goes on showing the scene
	ictx, cancelDesk := chromedp.NewContext(ctx)
	defer cancelDesk()
	deskTab := func() string {
		text, _ := chromedp.Run(ictx, chromedp.Evaluate[string](`(document.querySelector(".xterm-rows") || {innerText: "(no terminal)"}).innerText`))
		return text
	}
	if err := chromedp.Do(ictx,
		chromedp.EmulateViewport(1280, 800),
		recordFrames(),
		chromedp.Navigate(sshTab(t, addr, "prof", teacherKey)+"/desk"),
		shows("Ask the room before the server answers"),
		typeKeys("l"),
		shows("1 of 1 answered"),
		shows("predicted 2"),
		shows("projector tab: "+link[1]),
	); err != nil {
		t.Fatalf("the class view's tab: %v; it shows:\n%s", err, deskTab())
	}
	if text := deskTab(); strings.Contains(text, "0x0") || strings.Contains(text, "needs a terminal") {
		t.Fatalf("the class view's tab says its terminal is too small:\n%s", text)
	}
	keepShot(t, ictx, dir, "web-desk-1280x800.png", "the class view's tab")
	if text := projector(); !strings.Contains(text, "Frozen while holding the lock") || strings.Contains(text, "predicted 2") {
		t.Errorf("with the class view open, the projector shows:\n%s", text)
	}

	// no tab was ever sent the too-small notice (the course's view before
	// its size arrived), not even as a first frame painted over at once
	for name, c := range map[string]context.Context{"the student's": ctx, "the projector's": pctx, "the class view's": ictx} {
		sent, err := chromedp.Run(c, chromedp.Evaluate[string](`window.locksimFrames.join("")`))
		if err != nil {
			t.Fatalf("%s frames: %v", name, err)
		}
		if strings.Contains(sent, "this one is") || strings.Contains(sent, "needs a terminal") {
			t.Errorf("%s tab was sent the too-small notice:\n%q", name, sent[:min(len(sent), 400)])
		}
	}
}

// recordFrames makes the tab's page keep every frame its WebSocket gets,
// as text, in window.locksimFrames: the bytes xterm.js was given, first
// frame and all, whatever a screenshot catches.
func recordFrames() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(function () {
  var Real = window.WebSocket, decoder = new TextDecoder();
  window.locksimFrames = [];
  function Recorded(url, protocols) {
    var ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
    ws.addEventListener("message", function (e) {
      if (typeof e.data !== "string") window.locksimFrames.push(decoder.decode(e.data, { stream: true }));
    });
    return ws;
  }
  Recorded.prototype = Real.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { Recorded[k] = Real[k]; });
  window.WebSocket = Recorded;
})();`})
		return err
	})
}

// keepShot takes the tab's screenshot at 1280x800, keeps it in dir as
// name, and fails the test when it looks blank.
func keepShot(t *testing.T, ctx context.Context, dir, name, what string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("%s's screenshot: %v", what, err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("%s's screenshot: %v", what, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err == nil {
		t.Logf("%s's screenshot is kept at %s", what, filepath.Join(dir, name))
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
		t.Errorf("%s's screenshot is %dx%d, want 1280x800", what, b.Dx(), b.Dy())
	}
	if lit, colours := drawn(img); lit < 5000 || colours < 3 {
		t.Fatalf("%s looks blank: %d pixels off the background, %d colours", what, lit, colours)
	}
}

// sshTab serves the course's own page (web.Static: index.html, app.js,
// xterm.js) on an address of the test's, whose WebSocket is an SSH
// session to addr as user with key: the tab's first text frame gives
// the pty's size, later ones window changes, binary frames go both
// ways. It returns the page's base URL; any path under it opens a tab.
func sshTab(t *testing.T, addr, user string, key gossh.Signer) string {
	t.Helper()
	static := web.Static()
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /ws/", func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer conn.CloseNow()
		ctx := r.Context()
		typ, data, err := conn.Read(ctx)
		var size struct{ Cols, Rows int }
		if err != nil || typ != websocket.MessageText || json.Unmarshal(data, &size) != nil {
			return
		}
		c, err := termtest.DialFrom("", addr, user, key)
		if err != nil {
			t.Errorf("the tab's SSH client: %v", err)
			return
		}
		defer c.Close()
		sess, err := c.NewSession()
		if err != nil {
			return
		}
		defer sess.Close()
		in, _ := sess.StdinPipe()
		out, _ := sess.StdoutPipe()
		if sess.RequestPty("xterm-256color", size.Rows, size.Cols, gossh.TerminalModes{}) != nil || sess.Shell() != nil {
			return
		}
		go func() {
			defer conn.CloseNow()
			buf := make([]byte, 32<<10)
			for {
				n, err := out.Read(buf)
				if n > 0 && conn.Write(ctx, websocket.MessageBinary, buf[:n]) != nil {
					return
				}
				if err != nil {
					return
				}
			}
		}()
		for {
			typ, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			if typ == websocket.MessageBinary {
				if _, err := in.Write(data); err != nil {
					return
				}
			} else if json.Unmarshal(data, &size) == nil && size.Cols > 0 && size.Rows > 0 {
				_ = sess.WindowChange(size.Rows, size.Cols)
			}
		}
	})
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, static, "index.html")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// drawn counts the pixels that differ from the top-left one (the page's
// background) and the distinct colours among them, up to 100.
func drawn(img image.Image) (lit, colours int) {
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	br, bgg, bb, _ := bg.RGBA()
	seen := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r == br && g == bgg && bl == bb {
				continue
			}
			lit++
			if len(seen) < 100 {
				seen[[3]uint32{r >> 12, g >> 12, bl >> 12}] = true
			}
		}
	}
	return lit, len(seen)
}

// jsString quotes s as a JavaScript string literal (the texts the test
// waits for have no quote or backslash; this keeps it so).
func jsString(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
