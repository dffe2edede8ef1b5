package classroom

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net"
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

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestClassInChromium drives a real headless Chromium through the page:
// it loads /c/CODE of a class an instructor opened over SSH, types a
// name, follows, presses a prediction, and the instructor's poll counts
// it; a screenshot of the page at 1280x800 shows the terminal drawn (many
// pixels off the background, in more than two colours) and is kept as an
// artefact. It skips, with a line, where no chromium is installed.
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
	teacher.WaitFor("Frozen while holding the lock", "0/10")
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
	teacher.WaitFor("3/10", "Ask the room before the server answers")
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
		chromedp.Navigate(link[1]),
		shows("projector: following the instructor"),
		shows("Frozen while holding the lock"),
	); err != nil {
		t.Fatalf("the projector tab: %v; it shows:\n%s", err, projector())
	}
	if text := projector(); strings.Contains(text, "0x0") || strings.Contains(text, "needs a terminal") {
		t.Fatalf("the projector tab says its terminal is too small:\n%s", text)
	}
	shot, err = chromedp.Run(pctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("the projector's screenshot: %v", err)
	}
	img, err = png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the projector's screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "web-projector-1280x800.png"), shot, 0o644); err == nil {
		t.Logf("the projector's screenshot is kept at %s", filepath.Join(dir, "web-projector-1280x800.png"))
	}
	if lit, colours := drawn(img); lit < 5000 || colours < 3 {
		t.Fatalf("the projector tab looks blank: %d pixels off the background, %d colours", lit, colours)
	}
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
