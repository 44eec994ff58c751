// Package fs is the runner for the "files" namespace: size, line count, binary
// flag and sha256 of every file in the request's scope, and whether
// .gitattributes marks it linguist-generated or linguist-vendored.
//
// With a store (WithCache), a file whose lstat stamp is what it was when the
// runner last read it is not opened again: its hash and facts come from the
// cache (see runners/cache). Opening and reading are what a warm evaluation
// would otherwise spend its fs time on.
package fs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "files"

// sniffLen is how much of a file's head decides whether it is binary.
const sniffLen = 8 << 10

// Version is the version of the facts the runner derives from a file's
// bytes. Cached facts of another version are rebuilt: bump it whenever what a
// file's lines or binary flag mean changes.
const Version = "2" // 2: Python source is binary only for a NUL byte

// Runner gathers the "files" namespace. It is safe for concurrent use.
type Runner struct {
	st  cache.Store
	now func() time.Time
}

// Option tunes a Runner at construction.
type Option func(*Runner)

// WithCache keeps file facts in st between evaluations (nil: no cache).
func WithCache(st cache.Store) Option { return func(r *Runner) { r.st = st } }

// WithClock sets the clock that dates cache entries, so that tests can place
// a read inside or outside a file's racy window without sleeping.
func WithClock(now func() time.Time) Option { return func(r *Runner) { r.now = now } }

// New returns the fs runner.
func New(opts ...Option) *Runner {
	r := &Runner{now: time.Now}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. Any file that exists but cannot be read
// turns the whole namespace into an error: a partial listing would let a
// gate pass over the file it could not see.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	paths, err := s.ScopedFiles(ctx)
	if err != nil {
		return facts.Error(err.Error())
	}
	var ix *cache.Index
	if r.st != nil {
		ix = cache.LoadIndexOf(ctx, r.st, Namespace, Version, s.Root, paths)
	}
	files, err := stat(ctx, s.Root, paths, ix, r.now)
	if err != nil {
		return facts.Error(err.Error())
	}
	if err := overlay(files, s.After); err != nil {
		return facts.Error(err.Error())
	}
	if err := linguist(ctx, s.Root, files); err != nil {
		return facts.Error(err.Error())
	}
	if ix != nil {
		_ = ix.Save(ctx) // the facts stand either way; a cache that cannot be written is only slower
	}
	return facts.OK(facts.Files{Files: files})
}

// overlay describes each file a tool call writes as it would be after the
// call (a pre-write hook judges the text the call would leave): its text
// from after, or, when that text cannot be known, an error naming why, so
// the gates reading files fail closed rather than judge the old text.
func overlay(files []facts.File, after map[string]runners.AfterText) error {
	if len(after) == 0 {
		return nil
	}
	buf, head := make([]byte, 64<<10), make([]byte, 0, sniffLen)
	for i, f := range files {
		a, ok := after[f.Path]
		if !ok {
			continue
		}
		if a.Err != "" {
			return fmt.Errorf("%s after this tool call: %s", f.Path, a.Err)
		}
		n := facts.File{Path: f.Path, Name: f.Name, Ext: f.Ext, Kind: "file", Exists: true}
		if err := scan(strings.NewReader(a.Text), buf, head, &n); err != nil {
			return fmt.Errorf("%s after this tool call: %w", f.Path, err)
		}
		files[i] = n
	}
	return nil
}

// Stat describes each repo-relative path under root, in parallel, keeping the
// order of paths.
func Stat(ctx context.Context, root string, paths []string) ([]facts.File, error) {
	return stat(ctx, root, paths, nil, time.Now)
}

// stat is Stat, answering from ix what it can and recording in it what it read.
func stat(ctx context.Context, root string, paths []string, ix *cache.Index, now func() time.Time) ([]facts.File, error) {
	out := make([]facts.File, len(paths))
	errs := make([]error, len(paths))
	err := runners.Parallel(ctx, len(paths), runtime.GOMAXPROCS(0)*2, func() func(int) {
		buf, head := make([]byte, 64<<10), make([]byte, 0, sniffLen)
		return func(i int) { out[i], errs[i] = describe(root, paths[i], buf, head, ix, now) }
	})
	if err != nil {
		return nil, err
	}
	return out, errors.Join(errs...)
}

func describe(root, rel string, buf, head []byte, ix *cache.Index, now func() time.Time) (facts.File, error) {
	f := facts.File{Path: rel, Name: path.Base(rel), Ext: Ext(rel)}
	full := filepath.Join(root, filepath.FromSlash(rel))
	seen := now() // before the lstat: the stamp is no newer than this
	info, err := os.Lstat(full)
	if ix != nil && (err != nil || !info.Mode().IsRegular()) {
		ix.Forget(rel)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		f.Kind = "missing"
		return f, nil
	case err != nil:
		return f, fmt.Errorf("stat %s: %w", rel, err)
	case info.Mode()&fs.ModeSymlink != 0:
		f.Kind = "symlink"
		return f, nil
	case info.IsDir():
		f.Kind = "dir"
		return f, nil
	case !info.Mode().IsRegular():
		f.Kind = "other"
		return f, nil
	}
	stamp, stamped := cache.StampOf(info)
	if ix != nil && stamped {
		if hit, ok := ix.Lookup(rel, stamp); ok {
			if lines, binary, ok := parseToken(hit.Token, stamp.Size); ok {
				f.Kind, f.Exists, f.Size, f.Lines, f.Binary, f.SHA256 = "file", true, stamp.Size, lines, binary, hit.SHA256
				return f, nil
			}
		}
	}
	fh, err := os.Open(full)
	if err != nil {
		return f, fmt.Errorf("open %s: %w", rel, err)
	}
	defer fh.Close()
	f.Kind, f.Exists = "file", true
	if err := scan(fh, buf, head, &f); err != nil {
		return f, fmt.Errorf("read %s: %w", rel, err)
	}
	if ix != nil && stamped && f.Size == stamp.Size {
		ix.Record(rel, stamp, seen, cache.Hit{SHA256: f.SHA256, Token: token(f.Lines, f.Binary)})
	}
	return f, nil
}

// token is what the cache keeps of a file beside its hash: the facts that
// need its bytes, as "lines:binary" ("41:0").
func token(lines int64, binary bool) string {
	b := "0"
	if binary {
		b = "1"
	}
	return strconv.FormatInt(lines, 10) + ":" + b
}

// parseToken reads a token back; ok is false for one that is malformed or
// cannot describe a file of size bytes (a damaged or foreign entry), and the
// file is then read instead.
func parseToken(tok string, size int64) (lines int64, binary, ok bool) {
	n, b, found := strings.Cut(tok, ":")
	lines, err := strconv.ParseInt(n, 10, 64)
	if !found || err != nil || (b != "0" && b != "1") || lines < 0 || lines > size || (lines == 0) != (size == 0) {
		return 0, false, false
	}
	return lines, b == "1", true
}

// scan reads r once through buf, filling size, line count, binary flag and
// sha256. head is scratch for the file's first sniffLen bytes; with that
// capacity, scanning many files copies each one's head without allocating.
func scan(r io.Reader, buf, head []byte, f *facts.File) error {
	h := sha256.New()
	head = head[:0]
	var last byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			h.Write(chunk)
			f.Size += int64(n)
			f.Lines += int64(bytes.Count(chunk, []byte{'\n'}))
			last = chunk[n-1]
			if len(head) < sniffLen {
				head = append(head, chunk[:min(n, sniffLen-len(head))]...)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if f.Size > 0 && last != '\n' {
		f.Lines++
	}
	f.Binary = runners.IsBinary(head, f.Size > int64(len(head)))
	if runners.IsPythonSource(f.Path) {
		// Python source is text whatever its encoding (a coding cookie
		// may name Latin-1): only a NUL byte makes it binary.
		f.Binary = bytes.IndexByte(head, 0) >= 0
	}
	f.SHA256 = hex.EncodeToString(h.Sum(nil))
	return nil
}

// Ext returns the lower-case extension of p with its dot, or "" when there is
// none. A dotfile's leading dot does not start an extension (".bashrc" has
// none, ".eslintrc.json" has ".json").
func Ext(p string) string {
	name := strings.TrimLeft(path.Base(p), ".")
	return strings.ToLower(path.Ext(name))
}
