package fs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// tempDir is t.TempDir with symlinks resolved, as the engine resolves roots.
func tempDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t testing.TB, root, rel string, content []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
}

// statOne describes one path, failing the test on error.
func statOne(t *testing.T, root, rel string) facts.File {
	t.Helper()
	files, err := Stat(context.Background(), root, []string{rel})
	if err != nil {
		t.Fatalf("Stat(%s): %v", rel, err)
	}
	return files[0]
}

// model is what the runner must report for a regular file with content,
// computed the obvious way.
func model(rel string, content []byte) facts.File {
	lines := int64(bytes.Count(content, []byte{'\n'}))
	if len(content) > 0 && content[len(content)-1] != '\n' {
		lines++
	}
	head := content[:min(len(content), sniffLen)]
	sum := sha256.Sum256(content)
	return facts.File{
		Path: rel, Name: filepath.Base(rel), Ext: strings.ToLower(filepath.Ext(rel)), Exists: true, Kind: "file",
		Size: int64(len(content)), Lines: lines, Binary: refIsBinary(head, len(content) > sniffLen),
		SHA256: hex.EncodeToString(sum[:]),
	}
}

// TestLines: newline-terminated lines plus an unterminated last line,
// whatever the file size relative to the read buffer.
func TestLines(t *testing.T) {
	const buf = 64 << 10
	unterminated := bytes.Repeat([]byte("0123456789abcde\n"), buf/16*2+3) // 2 buffers and a bit
	unterminated = append(unterminated, "tail"...)
	exactBuf := bytes.Repeat([]byte("0123456789abcde\n"), buf/16) // ends on the buffer edge
	oneOver := append(bytes.Clone(exactBuf), 'x')                 // the last read is one byte
	for _, tc := range []struct {
		name    string
		content []byte
		want    int64
	}{
		{"empty", nil, 0},
		{"one char", []byte("a"), 1},
		{"one line", []byte("a\n"), 1},
		{"unterminated second line", []byte("a\nb"), 2},
		{"two empty lines", []byte("\n\n"), 2},
		{"CRLF", []byte("a\r\nb\r\n"), 2},
		{"CRLF unterminated", []byte("a\r\nb"), 2},
		{"lone CR", []byte("a\rb\r"), 1},
		{"over the buffer, unterminated", unterminated, int64(buf/16*2 + 3 + 1)},
		{"exactly the buffer", exactBuf, buf / 16},
		{"buffer plus one byte", oneOver, buf/16 + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tempDir(t)
			writeFile(t, root, "f.txt", tc.content)
			got := statOne(t, root, "f.txt")
			if got.Lines != tc.want {
				t.Errorf("lines = %d, want %d", got.Lines, tc.want)
			}
			if got != model("f.txt", tc.content) {
				t.Errorf("got  %+v\nwant %+v", got, model("f.txt", tc.content))
			}
		})
	}
}

// TestBinary: a NUL byte in, or invalid UTF-8 across, the first 8 KiB.
func TestBinary(t *testing.T) {
	text := func(n int) []byte { return bytes.Repeat([]byte("a"), n) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	euro := []byte("€")  // 3 bytes
	emoji := []byte("😀") // 4 bytes
	for _, tc := range []struct {
		name    string
		content []byte
		want    bool
	}{
		{"empty", nil, false},
		{"ascii", []byte("hello\n"), false},
		{"utf-8", []byte("héllo wörld €😀\n"), false},
		{"NUL first", []byte("\x00abc"), true},
		{"NUL last of 8 KiB", cat(text(sniffLen-1), []byte{0}, text(10)), true},
		{"NUL just after 8 KiB", cat(text(sniffLen), []byte{0}), false},
		{"latin-1", []byte("caf\xe9\n"), true},
		{"stray continuation", []byte("a\x80b"), true},
		{"invalid only after 8 KiB", cat(text(sniffLen), []byte("\xff\xfe")), false},
		{"2-byte rune cut at 8 KiB", cat(text(sniffLen-1), []byte("é tail")), false},
		{"3-byte rune cut after 1 byte", cat(text(sniffLen-1), euro, text(5)), false},
		{"3-byte rune cut after 2 bytes", cat(text(sniffLen-2), euro, text(5)), false},
		{"4-byte rune cut after 3 bytes", cat(text(sniffLen-3), emoji, text(5)), false},
		{"4-byte rune cut after 1 byte", cat(text(sniffLen-1), emoji), false},
		{"rune ends exactly at 8 KiB", cat(text(sniffLen-3), euro, []byte("\xff")), false},
		{"file ends in a cut rune at 8 KiB", cat(text(sniffLen-1), euro[:1]), true},
		{"short file ends in a cut rune", cat([]byte("abc"), euro[:2]), true},
		{"invalid lead byte at 8 KiB", cat(text(sniffLen-1), []byte("\xffabc")), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tempDir(t)
			writeFile(t, root, "f.dat", tc.content)
			got := statOne(t, root, "f.dat")
			if got.Binary != tc.want {
				t.Errorf("binary = %v, want %v", got.Binary, tc.want)
			}
			if got != model("f.dat", tc.content) {
				t.Errorf("got  %+v\nwant %+v", got, model("f.dat", tc.content))
			}
		})
	}
}

// TestScanReaders: the facts do not depend on how the reader splits the file.
func TestScanReaders(t *testing.T) {
	contents := [][]byte{
		nil, []byte("a"), []byte("a\nb"), []byte("\x00"),
		append(bytes.Repeat([]byte("ab\n"), sniffLen/3), "é"...),
		append(bytes.Repeat([]byte("x"), sniffLen-1), "€ and more"...),
	}
	readers := map[string]func(io.Reader) io.Reader{
		"plain":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
		"data+EOF": iotest.DataErrReader,
	}
	for i, c := range contents {
		for name, wrap := range readers {
			var f facts.File
			if err := scan(wrap(bytes.NewReader(c)), make([]byte, 64<<10), nil, &f); err != nil {
				t.Fatalf("content %d, %s: %v", i, name, err)
			}
			want := model("x", c)
			if f.Size != want.Size || f.Lines != want.Lines || f.Binary != want.Binary || f.SHA256 != want.SHA256 {
				t.Errorf("content %d, %s: got %+v, want %+v", i, name, f, want)
			}
		}
	}
	var f facts.File
	boom := errors.New("boom")
	if err := scan(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), make([]byte, 16), nil, &f); !errors.Is(err, boom) {
		t.Errorf("scan over a failing reader: err = %v, want %v", err, boom)
	}
}

// TestKinds: only a regular file exists and is read; everything else is
// described by its kind alone.
func TestKinds(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "src/a.py", []byte("print(1)\n"))
	for _, link := range []struct{ target, name string }{{"src/a.py", "link.py"}, {"nowhere", "dangling.py"}, {"src", "dirlink"}} {
		if err := os.Symlink(link.target, filepath.Join(root, link.name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, kind string
		exists     bool
	}{
		{"src/a.py", "file", true},
		{"gone.py", "missing", false},
		{"src/a.py/below", "missing", false}, // a path through a file
		{"link.py", "symlink", false},
		{"dangling.py", "symlink", false},
		{"dirlink", "symlink", false},
		{"src", "dir", false},
		{"pipe", "other", false},
	} {
		got := statOne(t, root, tc.path)
		if got.Kind != tc.kind || got.Exists != tc.exists {
			t.Errorf("%s: kind %q exists %v, want %q %v", tc.path, got.Kind, got.Exists, tc.kind, tc.exists)
		}
		if !tc.exists && (got.Size != 0 || got.Lines != 0 || got.SHA256 != "" || got.Binary) {
			t.Errorf("%s: a %s carries content facts: %+v", tc.path, tc.kind, got)
		}
	}
}

// TestNameAndExt: the base name, and the extension lower-cased.
func TestNameAndExt(t *testing.T) {
	root := tempDir(t)
	for _, tc := range []struct{ path, name, ext string }{
		{"Makefile", "Makefile", ""},
		{"a/b/Main.PY", "Main.PY", ".py"},
		{"dist/app.tar.GZ", "app.tar.GZ", ".gz"},
		{"ünï/файл.Txt", "файл.Txt", ".txt"},
		{"with space/x y.md", "x y.md", ".md"},
	} {
		writeFile(t, root, tc.path, []byte("x\n"))
		got := statOne(t, root, tc.path)
		if got.Path != tc.path || got.Name != tc.name || got.Ext != tc.ext {
			t.Errorf("%s: path %q name %q ext %q, want %q %q", tc.path, got.Path, got.Name, got.Ext, tc.name, tc.ext)
		}
	}
}

// TestSHA256 matches crypto/sha256 over the whole content, past the buffer.
func TestSHA256(t *testing.T) {
	root := tempDir(t)
	content := make([]byte, 200<<10+7)
	for i := range content {
		content[i] = byte(i * 7)
	}
	writeFile(t, root, "blob.bin", content)
	sum := sha256.Sum256(content)
	if got := statOne(t, root, "blob.bin").SHA256; got != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256 = %s, want %x", got, sum)
	}
	if got := statOne(t, root, "gone").SHA256; got != "" {
		t.Errorf("missing file sha256 = %q, want empty", got)
	}
}

// TestStatKeepsOrder: the output is in the order of the input paths, not
// sorted and not in the order the workers finish.
func TestStatKeepsOrder(t *testing.T) {
	root := tempDir(t)
	var paths []string
	for i := range 600 {
		p := fmt.Sprintf("d%d/f%03d.txt", i%7, i)
		writeFile(t, root, p, bytes.Repeat([]byte("line\n"), i%50))
		paths = append(paths, p)
	}
	paths = append(paths, "missing.txt", paths[3]) // a duplicate is described twice
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	got, err := Stat(context.Background(), root, paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(paths) {
		t.Fatalf("%d results for %d paths", len(got), len(paths))
	}
	for i, f := range got {
		if f.Path != paths[i] {
			t.Fatalf("result %d is %s, want %s", i, f.Path, paths[i])
		}
	}
	if got, err := Stat(context.Background(), root, nil); err != nil || len(got) != 0 {
		t.Errorf("Stat(no paths) = %v, %v", got, err)
	}
}

// TestStatCanceled: a cancelled context is an error, not a partial listing.
func TestStatCanceled(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "a.txt", []byte("a\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := Stat(ctx, root, []string{"a.txt", "a.txt", "a.txt"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Stat(cancelled) = %v, %v; want context.Canceled", got, err)
	}
}

// TestStatUnreadable: a file that exists but cannot be read is an error.
func TestStatUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: chmod 000 does not stop root from reading the file (TestReadError covers the read error path)")
	}
	root := tempDir(t)
	writeFile(t, root, "secret.txt", []byte("x\n"))
	if err := os.Chmod(filepath.Join(root, "secret.txt"), 0o000); err != nil {
		t.Fatal(err)
	}
	if _, err := Stat(context.Background(), root, []string{"secret.txt"}); err == nil || !strings.Contains(err.Error(), "secret.txt") {
		t.Errorf("Stat(unreadable) err = %v, want one naming secret.txt", err)
	}
	ns := gather(t, root, "secret.txt")
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "permission denied") {
		t.Errorf("namespace = %+v, want status error naming the cause", ns)
	}
}

// TestReadError: a regular file whose read fails, even as root: reading
// /proc/self/mem at offset 0 fails with EIO. The whole namespace is then an
// error; a partial listing would let a gate pass over the file it missed.
func TestReadError(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc/self/mem")
	}
	if info, err := os.Stat("/proc/self/mem"); err != nil || !info.Mode().IsRegular() {
		t.Skipf("/proc/self/mem is not a readable regular file here: %v", err)
	}
	if _, err := Stat(context.Background(), "/proc/self", []string{"mem"}); err == nil || !strings.Contains(err.Error(), "read mem") {
		t.Fatalf("Stat(/proc/self/mem) err = %v, want a read error", err)
	}
	ns := gather(t, "/proc/self", "cmdline", "mem")
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "read mem") || ns.Data != nil {
		t.Errorf("namespace = %+v, want status error with no data", ns)
	}
}

// TestGather: the namespace lists the scoped files, or the repo's.
func TestGather(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "b.txt", []byte("b\n"))
	writeFile(t, root, "a/c.txt", []byte("c"))
	ns := gather(t, root, "b.txt", "nope.txt")
	files := ns.Data.(facts.Files).Files
	if ns.Status != facts.StatusOK || len(files) != 2 || files[0].Path != "b.txt" || files[1].Kind != "missing" {
		t.Errorf("explicit scope: %+v", ns)
	}
	ns = New().Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	files = ns.Data.(facts.Files).Files
	if ns.Status != facts.StatusOK || len(files) != 2 || files[0] != model("a/c.txt", []byte("c")) || files[1].Path != "b.txt" {
		t.Errorf("repo scope: %+v", ns)
	}
	if New().Namespace() != "files" {
		t.Errorf("namespace %q", New().Namespace())
	}
}

func gather(t *testing.T, root string, files ...string) facts.Namespace {
	t.Helper()
	return New().Gather(context.Background(), runners.NewScope(root, facts.Request{Explicit: true, Files: files}))
}

func TestIsBinary(t *testing.T) {
	for _, tc := range []struct {
		head      string
		truncated bool
		want      bool
	}{
		{"", false, false},
		{"", true, false},
		{"plain text\n", false, false},
		{"a\x00b", false, true},
		{"\x00", true, true},
		{"caf\xc3\xa9", false, false},
		{"caf\xc3", false, true},  // the file ends mid-rune
		{"caf\xc3", true, false},  // the head ends mid-rune; the file goes on
		{"\xe2\x82", true, false}, // 2 of 3 bytes
		{"\xe2\x82", false, true},
		{"\xf0\x9f\x98", true, false}, // 3 of 4 bytes
		{"\xf0", true, false},
		{"\xff", true, true},             // never a lead byte
		{"\x80", true, true},             // a continuation byte alone
		{"\xe2\x82\xac\x80", true, true}, // a complete rune, then a stray continuation
		{"\xe0\x80", true, true},         // overlong: no valid rune starts E0 80
		{"\xed\xa0", true, true},         // a surrogate half
		{"\xc3\xa9\xc3", true, false},
		{"\xc3x", true, true}, // cut, but not at the end
	} {
		if got := runners.IsBinary([]byte(tc.head), tc.truncated); got != tc.want {
			t.Errorf("runners.IsBinary(%q, %v) = %v, want %v", tc.head, tc.truncated, got, tc.want)
		}
		if ref := refIsBinary([]byte(tc.head), tc.truncated); ref != tc.want {
			t.Errorf("refIsBinary(%q, %v) = %v, want %v (the reference is wrong)", tc.head, tc.truncated, ref, tc.want)
		}
	}
}

// FuzzIsBinary compares IsBinary with refIsBinary.
func FuzzIsBinary(f *testing.F) {
	for _, s := range []string{"", "a", "\x00", "caf\xc3\xa9", "caf\xc3", "\xe2\x82", "\xf0\x9f\x98\x80", "\xff", "\x80\x80\x80\x80", "\xed\xa0\x80"} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, head []byte, truncated bool) {
		if got, want := runners.IsBinary(head, truncated), refIsBinary(head, truncated); got != want {
			t.Errorf("runners.IsBinary(%q, %v) = %v, reference says %v", head, truncated, got, want)
		}
	})
}

// refIsBinary is IsBinary written the slow, obvious way: binary when a NUL
// byte occurs or some byte sequence does not decode, except that a truncated
// head may end in a proper prefix of a valid encoding.
func refIsBinary(head []byte, truncated bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for i := 0; i < len(head); {
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 {
			return !truncated || !validPrefixes()[string(head[i:])]
		}
		i += size
	}
	return false
}

// validPrefixes holds every proper prefix of the UTF-8 encoding of every
// rune, found by encoding them all.
var validPrefixes = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	buf := make([]byte, utf8.UTFMax)
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		n := utf8.EncodeRune(buf, r)
		for k := 1; k < n; k++ {
			out[string(buf[:k])] = true
		}
	}
	return out
})

// BenchmarkStat describes 2,000 source-like files of mixed sizes.
func BenchmarkStat(b *testing.B) {
	root := tempDir(b)
	paths := make([]string, 2000)
	var total int64
	for i := range paths {
		paths[i] = fmt.Sprintf("pkg%02d/file%04d.go", i%40, i)
		content := bytes.Repeat([]byte("\tx := compute(a, b) // a line of code\n"), 20+i%400)
		total += int64(len(content))
		writeFile(b, root, paths[i], content)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Stat(context.Background(), root, paths); err != nil {
			b.Fatal(err)
		}
	}
}

func TestExt(t *testing.T) {
	for in, want := range map[string]string{
		"a/b.PY": ".py", ".bashrc": "", "dir/.eslintrc.json": ".json", "Makefile": "", "x.tar.gz": ".gz", "a.b/c": "", "...": "",
	} {
		if got := Ext(in); got != want {
			t.Errorf("Ext(%q) = %q, want %q", in, got, want)
		}
	}
}
