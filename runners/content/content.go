// Package content is the runner for the "content" namespace: the lines of
// the files in scope that the gates being evaluated name by glob (gate.yaml
// `content:`), so that a Rego or CEL policy can match them with regular
// expressions and report file:line. Only those files are read; each is
// kept in the fact cache by its lstat stamp and content hash, as the other
// file facts are (runners.Sources), so an unchanged file is not read again.
package content

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "content"

// Version is the version of the cached per-file facts (2: Python source
// is read as Python reads it, never as binary for bytes that are not UTF-8).
const Version = "2"

// DefaultMaxBytes is the size cap when no gate asks for another: a larger
// file is listed as too large, with no lines.
const DefaultMaxBytes = 1 << 20

// sniffLen is how much of a file decides whether it is binary, as for the
// files namespace.
const sniffLen = 8 << 10

// Runner gathers the "content" namespace. It is safe for concurrent use.
type Runner struct {
	src runners.Sources[facts.ContentFile]
}

// New returns the content runner; runners.WithCache keeps what it read in a
// store.
func New(opts ...runners.SourceOption) *Runner {
	r := &Runner{src: runners.Sources[facts.ContentFile]{
		Namespace: Namespace, Version: Version,
		Open:    func(name string) (io.ReadCloser, error) { return openFile(name) },
		Scanner: func() func(string, []byte) facts.ContentFile { return Scan },
		Encode:  encode, Decode: decode,
	}}
	for _, o := range opts {
		o(&r.src.CacheConfig)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner: every file in scope that a glob of
// s.Globs["content"] matches, in path order. A file in scope that is not a
// regular file (deleted, a directory, a symlink) is listed as missing; one
// that exists but cannot be read makes the namespace an error.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	data, err := r.gather(ctx, s)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(data)
}

func (r *Runner) gather(ctx context.Context, s *runners.Scope) (facts.Content, error) {
	limit := s.MaxBytes[Namespace]
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	out := facts.Content{MaxBytes: limit, Files: []facts.ContentFile{}}
	paths, err := s.GlobbedFiles(ctx, Namespace)
	if err != nil || len(paths) == 0 {
		return out, err
	}
	// Too large a file is not read at all: its size decides.
	var read []string
	pre := map[string]facts.ContentFile{}
	for _, p := range paths {
		info, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || err == nil && !info.Mode().IsRegular():
			pre[p] = facts.ContentFile{Path: p, Status: facts.ContentMissing, Lines: []facts.ContentLine{}}
		case err != nil:
			return out, err
		case info.Size() > limit:
			pre[p] = facts.ContentFile{Path: p, Status: facts.ContentTooLarge, Size: info.Size(), Lines: []facts.ContentLine{}}
		default:
			read = append(read, p)
		}
	}
	ix := runners.LoadCacheIndex(ctx, r.src.CacheConfig, Namespace, Version, s.Root)
	files, err := r.src.Scan(ctx, s.Root, read, ix)
	if err != nil {
		return out, err
	}
	if ix != nil {
		_ = ix.Save(ctx) // the facts stand either way
	}
	got := map[string]facts.ContentFile{}
	for _, f := range files {
		got[f.Path] = f
	}
	for _, p := range paths {
		f, ok := got[p]
		if !ok {
			if f, ok = pre[p]; !ok { // gone between the lstat and the read
				f = facts.ContentFile{Path: p, Status: facts.ContentMissing, Lines: []facts.ContentLine{}}
			}
		}
		out.Files = append(out.Files, f)
	}
	return out, nil
}

// Scan returns the facts of one file from its bytes: its lines when it is
// text, else status binary. Python source is text unless its head holds a
// NUL byte: its lines are the text Python reads (a coding cookie honoured),
// and when Python refuses the file, the bytes read as UTF-8 with Error
// saying where and why.
func Scan(path string, src []byte) facts.ContentFile {
	f := facts.ContentFile{Path: path, Status: facts.ContentText, Size: int64(len(src)), Lines: []facts.ContentLine{}}
	head := src[:min(len(src), sniffLen)]
	if runners.IsPythonSource(path) && bytes.IndexByte(head, 0) < 0 {
		decoded, line, msg := runners.PythonText(src)
		if msg != "" {
			decoded, f.Error = src, fmt.Sprintf("%d: %s", line, msg)
		}
		f.Lines = Lines(decoded)
		return f
	}
	if runners.IsBinary(head, len(src) > len(head)) {
		f.Status = facts.ContentBinary
		return f
	}
	f.Lines = Lines(src)
	return f
}

// Lines splits text into 1-based lines without their "\n" or "\r\n"; an
// unterminated last line counts, an empty text has none. Bytes that are not
// UTF-8 become U+FFFD.
func Lines(src []byte) []facts.ContentLine {
	out := make([]facts.ContentLine, 0, bytes.Count(src, []byte{'\n'})+1)
	for n := 1; len(src) > 0; n++ {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		out = append(out, facts.ContentLine{Line: n, Text: text(line)})
	}
	return out
}

// text is b as a string, each byte that is not UTF-8 read as U+FFFD.
func text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// encode is a file's cache payload: for a text file "t" and its lines,
// each followed by "\n", which Lines splits again faster than any encoding
// of them would decode; for a binary file "b" (its status is all there is).
// A payload that would not give the same lines back (a line ending in "\r")
// is not kept.
func encode(f facts.ContentFile) (string, bool) {
	if f.Status == facts.ContentBinary {
		return "b", true
	}
	if f.Status != facts.ContentText || f.Error != "" {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('t')
	for _, l := range f.Lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	back := Lines([]byte(b.String()[1:]))
	return b.String(), slices.Equal(back, f.Lines)
}

// decode reads a payload back for the file at path of size bytes.
func decode(path string, size int64, payload string) (facts.ContentFile, bool) {
	switch {
	case payload == "b":
		return facts.ContentFile{Path: path, Status: facts.ContentBinary, Size: size, Lines: []facts.ContentLine{}}, true
	case strings.HasPrefix(payload, "t") && utf8.ValidString(payload):
		return facts.ContentFile{Path: path, Status: facts.ContentText, Size: size, Lines: Lines([]byte(payload[1:]))}, true
	}
	return facts.ContentFile{}, false
}

// openFile opens a file for reading; tests replace it to simulate I/O errors.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
