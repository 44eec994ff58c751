package cli_test

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tausik/tausik/internal/app/report"
)

// chromium finds Debian's chromium. Under CI a missing browser fails the
// test; elsewhere it skips saying how to install it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: apt-get install -y chromium")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium); the browser test needs it")
	return ""
}

// headless runs chromium headless on the page with args and returns stdout.
func headless(t *testing.T, bin, page string, args ...string) []byte {
	t.Helper()
	profile := t.TempDir()
	cmd := exec.Command(bin, append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--force-color-profile=srgb",
		"--hide-scrollbars", "--user-data-dir=" + profile, "--no-first-run"}, append(args, "file://"+page)...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.Bytes()
}

// colourPixels counts the pixels of the screenshot at path whose colour is
// each of hexes ("#rrggbb").
func colourPixels(t *testing.T, path string, hexes ...string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	want := map[[3]uint32]string{}
	for _, h := range hexes {
		var c [3]uint32
		for i := range c {
			v, err := strconv.ParseUint(h[1+2*i:3+2*i], 16, 8)
			if err != nil {
				t.Fatalf("colour %s: %v", h, err)
			}
			c[i] = uint32(v)
		}
		want[c] = h
	}
	counts := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if h, ok := want[[3]uint32{r >> 8, g >> 8, bl >> 8}]; ok {
				counts[h]++
			}
		}
	}
	return counts
}

// TestLogReportInBrowser renders the report in a real headless chromium:
// at 1280 and 420 px wide the charts are drawn (pixels of the passed and
// the blocked colour are on the screenshot), and the numbers of the page
// chromium parsed are the counts log list returns. The screenshots are kept
// in the directory the test prints (and copied to $TAUSIK_ARTIFACTS).
func TestLogReportInBrowser(t *testing.T) {
	bin := chromium(t)
	root, cp := reportLog(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if code, _, errOut := tausik(t, root, "", "log", "report", "--checkpoint", cp, "--out", page); code != 0 {
		t.Fatalf("log report: exit %d: %s", code, errOut)
	}
	t.Logf("report and screenshots in %s", dir)
	artifacts := os.Getenv("TAUSIK_ARTIFACTS")
	// The minimum pixel counts are well above what the legends' swatches
	// alone cover, so a chart without its bars fails.
	for _, size := range []struct {
		name, window    string
		passed, blocked int
	}{{"wide", "1280,1400", 5000, 2000}, {"narrow", "420,1400", 1500, 400}} {
		shot := filepath.Join(dir, "report-"+size.name+".png")
		headless(t, bin, page, "--screenshot="+shot, "--window-size="+size.window)
		counts := colourPixels(t, shot, report.ColorPassed, report.ColorBlocked)
		t.Logf("%s: %d passed-colour and %d blocked-colour pixels", size.name, counts[report.ColorPassed], counts[report.ColorBlocked])
		if counts[report.ColorPassed] < size.passed || counts[report.ColorBlocked] < size.blocked {
			t.Errorf("%s screenshot: the charts are not drawn (%d passed-colour, %d blocked-colour pixels)", size.name, counts[report.ColorPassed], counts[report.ColorBlocked])
		}
		if artifacts != "" {
			data, err := os.ReadFile(shot)
			if err == nil {
				err = os.MkdirAll(artifacts, 0o755)
			}
			if err == nil {
				err = os.WriteFile(filepath.Join(artifacts, filepath.Base(shot)), data, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	dom := string(headless(t, bin, page, "--dump-dom"))
	if n := checkNumbers(t, root, dom); n < 40 {
		t.Fatalf("the DOM chromium parsed holds only %d linked counts", n)
	}
	if bytes.Contains([]byte(dom), []byte("<script")) {
		t.Error("the DOM holds a script element: markup from the log became markup")
	}
}
