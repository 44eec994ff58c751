package facts

// Content is the "content" namespace that the content runner fills: the text
// of the files in the request's scope that match the globs the selected
// gates declare (gate.yaml `content:`), sorted by path. A gate sees only the
// files its own globs match.
type Content struct {
	// MaxBytes is the size cap: a larger file is listed with status
	// "too_large" and no lines.
	MaxBytes int64         `json:"max_bytes"`
	Files    []ContentFile `json:"files"`
}

// Content file statuses (ContentFile.Status). Only a "text" file has lines.
const (
	ContentText     = "text"
	ContentBinary   = "binary"    // a NUL byte in, or invalid UTF-8 across, the first 8 KiB (Python source: NUL only)
	ContentTooLarge = "too_large" // over Content.MaxBytes
	ContentMissing  = "missing"   // in scope but not a regular file (deleted, a directory, a symlink)
)

// ContentFile is one file's text. Lines holds every line, 1-based, without
// its "\n" (and without the "\r" of a "\r\n"); an unterminated last line is
// a line, an empty file has none. Bytes that are not UTF-8 read as U+FFFD.
type ContentFile struct {
	Path   string        `json:"path"` // repo-relative, "/"-separated
	Status string        `json:"status"`
	Size   int64         `json:"size"`
	Lines  []ContentLine `json:"lines"` // [] unless Status is "text"
	// Error, on a Python source file Python refuses to read (bytes its
	// encoding cannot decode: no coding cookie and bytes that are not
	// UTF-8), is "LINE: why" in Python's words; its lines are then the
	// bytes read as UTF-8, each invalid byte U+FFFD. Absent otherwise.
	Error string `json:"error,omitempty"`
}

// ContentLine is one line of a text file: its 1-based number, so that a CEL
// or Rego policy filtering lines still knows where each one stands.
type ContentLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Plain implements Plainer: a content namespace can hold every line of
// thousands of files, which a JSON round trip would copy twice.
func (c Content) Plain() map[string]any {
	files := make([]any, len(c.Files))
	for i, f := range c.Files {
		lines := make([]any, len(f.Lines))
		for j, l := range f.Lines {
			lines[j] = map[string]any{"line": int64(l.Line), "text": jsonText(l.Text)}
		}
		file := map[string]any{"path": jsonText(f.Path), "status": jsonText(f.Status), "size": f.Size, "lines": lines}
		if f.Error != "" {
			file["error"] = jsonText(f.Error)
		}
		files[i] = file
	}
	return map[string]any{"max_bytes": c.MaxBytes, "files": files}
}

// FilterPaths implements PathFilter: a text file over limit becomes
// "too_large" for the gate whose cap is lower than the runner's.
func (c Content) FilterPaths(keep func(path string) bool, limit int64) any {
	out := Content{MaxBytes: c.MaxBytes, Files: make([]ContentFile, 0, len(c.Files))}
	if limit > 0 && limit < out.MaxBytes {
		out.MaxBytes = limit
	}
	for _, f := range c.Files {
		if !keep(f.Path) {
			continue
		}
		if f.Size > out.MaxBytes && f.Status == ContentText {
			f.Status, f.Lines = ContentTooLarge, []ContentLine{}
		}
		out.Files = append(out.Files, f)
	}
	return out
}

// PathFilter is implemented by namespace data whose files a gate sees only
// as far as its own globs match them (content, documents): FilterPaths
// returns the data holding only the files keep accepts, a file over limit
// (the gate's own size cap; 0 for none) marked as too large.
type PathFilter interface {
	FilterPaths(keep func(path string) bool, limit int64) any
}
