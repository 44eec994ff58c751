package runners

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/cache"
)

// OpenFunc opens a file for reading. Source runners pass os.Open wrapped in
// a variable of their own, which their tests replace to simulate I/O errors.
type OpenFunc func(name string) (io.ReadCloser, error)

// CacheConfig is where a source runner keeps what it read between
// evaluations.
type CacheConfig struct {
	// Store keeps the index between evaluations; nil reads every file.
	Store cache.Store
	// Now dates cache entries (see cache.Stamp.Racy); nil is time.Now.
	Now func() time.Time
}

// SourceOption tunes a source runner at construction.
type SourceOption func(*CacheConfig)

// WithCache keeps the facts of every file in st between evaluations (nil: no
// cache): a file whose lstat stamp has not changed is not opened again.
func WithCache(st cache.Store) SourceOption { return func(c *CacheConfig) { c.Store = st } }

// WithClock sets the clock that dates cache entries, so that tests can place
// a read inside or outside a file's racy window without sleeping.
func WithClock(now func() time.Time) SourceOption { return func(c *CacheConfig) { c.Now = now } }

// Sources is how a runner that reads source files (python, go) reads them:
// every repository file with its extension, scanned in parallel, each
// unchanged file answered from the fact cache without being opened.
type Sources[T any] struct {
	// Namespace and Version name the runner's cache index: entries of
	// another version are never read.
	Namespace, Version string
	// Ext is the extension of the files read (".py").
	Ext string
	CacheConfig
	// Open opens a file to read it.
	Open OpenFunc
	// Scanner returns a scan function for one goroutine, so a scanner and
	// its buffers are never shared; the bytes passed to it are reused after
	// it returns.
	Scanner func() func(path string, src []byte) T
	// Encode turns a file's facts into its cache payload; ok false leaves
	// the file out of the cache (it is read every time).
	Encode func(T) (payload string, ok bool)
	// Decode reads a payload back for path, a file of size bytes; ok false
	// (a payload that does not check out) is a miss and the file is read.
	Decode func(path string, size int64, payload string) (T, bool)
}

// SourceRunner is the runner of a namespace that holds the facts of every
// repository file a Sources reads. It is safe for concurrent use.
type SourceRunner[T any] struct {
	src  Sources[T]
	wrap func(files []T) any
}

// NewSourceRunner returns the runner reading src, configured by opts, whose
// namespace data is wrap(files).
func NewSourceRunner[T any](src Sources[T], wrap func(files []T) any, opts ...SourceOption) *SourceRunner[T] {
	for _, o := range opts {
		o(&src.CacheConfig)
	}
	return &SourceRunner[T]{src: src, wrap: wrap}
}

// Namespace implements Runner.
func (r *SourceRunner[T]) Namespace() string { return r.src.Namespace }

// Gather implements Runner. A file that exists but cannot be read makes the
// namespace an error rather than leaving the file out.
func (r *SourceRunner[T]) Gather(ctx context.Context, s *Scope) facts.Namespace {
	files, err := r.src.Gather(ctx, s)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(r.wrap(files))
}

// Gather returns the facts of every file of the repository (Scope.RepoFiles)
// with the extension, whatever files the request names, sorted by path. The
// cache index loads while the listing runs: both mostly wait (on the store,
// on git), and a warm evaluation is little else.
func (c Sources[T]) Gather(ctx context.Context, s *Scope) ([]T, error) {
	files, save, err := c.Start(ctx, s)()
	save()
	return files, err
}

// Start begins Gather by loading the cache index, and returns the rest of it
// (the listing and the scan), to be called once. What the scan recorded in
// the index is written by the save it returns (never nil; a no-op when there
// is nothing to write), which the caller must call once, before the store
// closes: a runner that goes on working on the facts (the surface runner's
// resolution) writes the index on another core meanwhile. The rest lists the
// repository only once the load has begun: the goroutine running git holds
// its core in system calls until the runtime takes the core back (up to ~10
// ms), and a load queued behind it on that core waited as long. A runner
// reading two languages starts both before either lists, so that neither load
// waits behind the other's listing. With no file of the extension in the
// listing, the rest returns without waiting for the load; save waits for it,
// to drop what the index still holds.
func (c Sources[T]) Start(ctx context.Context, s *Scope) func() (files []T, save func(), err error) {
	loaded, began := make(chan *cache.Index, 1), make(chan struct{})
	if c.Store != nil {
		go func() {
			close(began)
			loaded <- cache.LoadIndex(ctx, c.Store, c.Namespace, c.Version, s.Root)
		}()
	} else {
		close(began)
		loaded <- nil
	}
	return func() (files []T, save func(), err error) {
		<-began
		all, err := s.RepoFiles(ctx)
		var paths []string
		for _, p := range all {
			if strings.HasSuffix(p, c.Ext) {
				paths = append(paths, p)
			}
		}
		save = func() {
			if ix := <-loaded; ix != nil {
				ix.Retain(paths)
				_ = ix.Save(ctx) // the facts stand either way; a cache that cannot be written is only slower
			}
		}
		if err == nil {
			err = ctx.Err() // a cancelled gather fails, files or not, as Scan would
		}
		switch {
		case err != nil:
			<-loaded
			return nil, func() {}, err
		case len(paths) == 0:
			return []T{}, save, nil
		}
		ix := <-loaded
		loaded <- ix // for save
		if files, err = c.Scan(ctx, s.Root, paths, ix); err != nil {
			return nil, func() {}, err
		}
		return files, save, nil
	}
}

// Scan reads the repo-relative, "/"-separated paths under root on GOMAXPROCS
// goroutines and returns their facts sorted by path, answering from ix (nil:
// none) what it can and recording there what it read. Paths that do not
// exist, symlinks and anything but regular files are left out (a symlink's
// target is scanned under its own path if it is in the repository). Any
// other failure to read a file is an error naming the file ("scan PATH:
// ..."), as is a cancelled ctx: never a short list.
func (c Sources[T]) Scan(ctx context.Context, root string, paths []string, ix *cache.Index) ([]T, error) {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	out := make([]T, len(paths))
	keep := make([]bool, len(paths))
	errs := make([]error, len(paths))
	now := c.Now
	if now == nil {
		now = time.Now
	}
	err := Parallel(ctx, len(paths), runtime.GOMAXPROCS(0), func() func(int) {
		scan := c.Scanner()
		var buf []byte
		return func(i int) {
			out[i], buf, keep[i], errs[i] = c.file(scan, root, paths[i], buf, ix, now)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("scan %s: %w", paths[i], errs[i])
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if err := errors.Join(firstErrors(errs, 5)...); err != nil {
		return nil, err
	}
	files := out[:0]
	for i := range out {
		if keep[i] {
			files = append(files, out[i])
		}
	}
	return files, nil
}

// file returns the facts of the file at rel under root: from ix when its
// stamp is the one recorded there, else read into buf (grown as needed),
// scanned and recorded in ix. ok is false, with no error, when the file does
// not exist, is a symlink or is not a regular file.
func (c Sources[T]) file(scan func(string, []byte) T, root, rel string, buf []byte, ix *cache.Index, now func() time.Time) (f T, scratch []byte, ok bool, err error) {
	name := filepath.Join(root, filepath.FromSlash(rel))
	seen := now() // before the lstat: the stamp is no newer than this
	info, err := os.Lstat(name)
	if ix != nil && (err != nil || !info.Mode().IsRegular()) {
		ix.Forget(rel)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return f, buf, false, nil
	case err != nil:
		return f, buf, false, err
	case !info.Mode().IsRegular():
		return f, buf, false, nil
	}
	stamp, stamped := cache.StampOf(info)
	if ix != nil && stamped {
		if hit, ok := ix.Lookup(rel, stamp); ok {
			if f, ok := c.Decode(rel, stamp.Size, hit.Payload); ok {
				return f, buf, true, nil
			}
		}
	}
	src, buf, err := readFile(c.Open, name, info.Size(), buf)
	if err != nil {
		return f, buf, false, err
	}
	f = scan(rel, src)
	if ix != nil && stamped && int64(len(src)) == stamp.Size {
		if payload, ok := c.Encode(f); ok {
			sum := sha256.Sum256(src)
			ix.Record(rel, stamp, seen, cache.Hit{SHA256: hex.EncodeToString(sum[:]), Payload: payload})
		}
	}
	return f, buf, true, nil
}

// readFile reads the file at name, size bytes long when it was stamped, into
// buf (grown as needed; the file may have grown since).
func readFile(open OpenFunc, name string, size int64, buf []byte) (src, scratch []byte, err error) {
	f, err := open(name)
	if err != nil {
		return nil, buf, err
	}
	defer f.Close()
	if want := int(size) + 1; cap(buf) < want {
		buf = make([]byte, want+want/4)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		if n == len(buf) { // the file grew since Lstat
			buf = append(buf, 0)[:n]
			buf = buf[:cap(buf)]
		}
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF {
			return buf[:n], buf, nil
		}
		if err != nil {
			return nil, buf, err
		}
	}
}

// firstErrors returns up to limit non-nil errors of errs, then a note of how
// many more there were.
func firstErrors(errs []error, limit int) []error {
	var out []error
	more := 0
	for _, e := range errs {
		if e == nil {
			continue
		}
		if len(out) < limit {
			out = append(out, e)
		} else {
			more++
		}
	}
	if more > 0 {
		out = append(out, fmt.Errorf("and %d more unreadable files", more))
	}
	return out
}
