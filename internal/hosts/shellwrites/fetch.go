package shellwrites

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/getopt"
)

// tarRuns are tar's options that run another command.
var tarRuns = []string{"I", "use-compress-program", "to-command", "checkpoint-action", "info-script", "F", "new-volume-script", "rsh-command"}

// tar: extraction writes inside its directory (-C, --directory, or the
// current one; members with absolute names anywhere); creating, appending,
// updating or deleting writes the archive (-f); --remove-files removes the
// operands. Options that run commands are Unknown.
func (w *walker) tar(args []arg, st *state) {
	rest := args[1:]
	if len(rest) > 0 && rest[0].ok && rest[0].lit != "" && !strings.HasPrefix(rest[0].lit, "-") {
		rest = oldTar(rest) // tar xzf a.tgz: the letters' values follow in order
	}
	opts, ops, bad := getopt.ParseStrict(getopt.Tar, rest)
	switch {
	case bad != "":
		w.unknown(joinRaw(args), reasonOption+bad)
		return
	case getopt.Has(opts, tarRuns...):
		w.unknown(joinRaw(args), "tar runs a command given in its options")
		return
	case getopt.Has(opts, "help", "version", "usage"):
		return
	}
	switch {
	case getopt.Has(opts, "x", "extract", "get"):
		if getopt.Has(opts, "O", "to-stdout") {
			return
		}
		if getopt.Has(opts, "P", "absolute-names") {
			w.unknown(joinRaw(args), reasonArchive)
			return
		}
		dirs := getopt.Values(opts, "C", "directory")
		if len(dirs) == 0 {
			dirs = []arg{{lit: ".", ok: true, raw: "tar"}}
		}
		w.writeAll(dirs, st)
	case getopt.Has(opts, "c", "create", "r", "append", "u", "update", "A", "concatenate", "catenate", "delete"):
		f, ok := getopt.Value(opts, "f", "file")
		if !ok {
			f = arg{lit: "-", ok: true}
		}
		w.write(f, st, "")
		if getopt.Has(opts, "remove-files") {
			w.writeAll(ops, st)
		}
	}
}

// oldTar turns tar's first argument without a dash ("xzf") into options,
// taking each value-taking letter's value from the arguments that follow.
func oldTar(rest []arg) []arg {
	letters, more := rest[0].lit, rest[1:]
	var out []arg
	for i := 0; i < len(letters); i++ {
		c := letters[i]
		out = append(out, arg{lit: "-" + string(c), ok: true, raw: rest[0].raw})
		if getopt.Tar.ShortKind(c) == getopt.Required && len(more) > 0 {
			out, more = append(out, more[0]), more[1:]
		}
	}
	return append(out, more...)
}

// unzip writes inside its -d directory (or the current one) unless it only
// lists, tests or prints the archive.
func (w *walker) unzip(args []arg, st *state) {
	dir := arg{lit: ".", ok: true, raw: "unzip"}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !a.ok || !strings.HasPrefix(a.lit, "-") {
			continue
		}
		if strings.HasPrefix(a.lit, "-d") {
			if a.lit != "-d" {
				dir = arg{lit: a.lit[2:], ok: true, raw: a.raw}
			} else if i+1 < len(args) {
				i++
				dir = args[i]
			}
			continue
		}
		if strings.ContainsAny(a.lit[1:], "ltvpcZz") || a.lit == "--help" {
			return
		}
	}
	w.write(dir, st, "")
}

// zip writes its archive (.zip added when it has no extension); -m removes
// the files it adds.
func (w *walker) zip(args []arg, st *state) {
	var ops []arg
	move := false
	for _, a := range args[1:] {
		switch {
		case a.ok && strings.HasPrefix(a.lit, "-") && a.lit != "-":
			move = move || (!strings.HasPrefix(a.lit, "--") && strings.Contains(a.lit, "m")) || a.lit == "--move"
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return
	}
	z := ops[0]
	if z.ok && path.Ext(z.lit) == "" {
		z.lit += ".zip"
	}
	w.write(z, st, "")
	if move {
		w.writeAll(ops[1:], st)
	}
}

// cpio -i writes inside its -D directory (or the current one), -o its -O or
// -F archive, -p its destination directory.
func (w *walker) cpio(args []arg, st *state) {
	opts, ops := getopt.Parse(getopt.Cpio, args[1:])
	switch {
	case getopt.Has(opts, "i", "extract"):
		d, ok := getopt.Value(opts, "D", "directory")
		if !ok {
			d = arg{lit: ".", ok: true, raw: "cpio"}
		}
		w.write(d, st, "")
	case getopt.Has(opts, "o", "create"):
		w.writeAll(getopt.Values(opts, "O", "F", "file"), st)
	case getopt.Has(opts, "p", "pass-through"):
		w.writeAll(ops, st)
	}
}

// curlWrites are curl's options that name a file it writes.
var curlWrites = []string{"o", "output", "D", "dump-header", "c", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc", "trace-config"}

// curl writes its -o files, the URLs' base names with -O (in --output-dir
// when given) and its dump, cookie-jar and trace files; -J (a name the
// server chooses) and -K (options read from a file) are Unknown.
func (w *walker) curl(args []arg, st *state) {
	opts, ops := getopt.Parse(getopt.Curl, args[1:])
	if getopt.Has(opts, "J", "remote-header-name", "K", "config") {
		w.unknown(joinRaw(args), "curl writes a file named by the server or by options read from a file")
		return
	}
	w.writeAll(getopt.Values(opts, curlWrites...), st)
	dir, inDir := getopt.Value(opts, "output-dir")
	remote := 0
	for _, o := range opts {
		if o.Name == "O" || o.Name == "remote-name" {
			remote++
		}
	}
	if getopt.Has(opts, "remote-name-all") {
		remote = len(ops)
	}
	for _, u := range append(getopt.Values(opts, "url"), ops...) {
		if remote == 0 {
			break
		}
		remote--
		name := urlBase(u)
		if inDir {
			name = arg{lit: path.Join(dir.lit, name.lit), ok: name.ok && dir.ok, raw: dir.raw + " " + name.raw}
		}
		w.write(name, st, "")
	}
}

// urlBase is the name curl -O and wget give a download: the last part of
// the URL's path ("index.html" when it has none).
func urlBase(u arg) arg {
	if !u.ok {
		return u
	}
	p := u.lit
	if parsed, err := url.Parse(u.lit); err == nil && parsed.Path != "" {
		p = parsed.Path
	} else if err == nil {
		p = ""
	}
	b := path.Base(p)
	if p == "" || strings.HasSuffix(p, "/") || b == "/" || b == "." {
		b = "index.html"
	}
	return arg{lit: b, ok: true, raw: u.raw}
}

// wget writes its -O document, or each URL's base name in its -P directory
// (the current one by default), a whole tree there with -r, -m or -p, and
// its -o / -a log and cookie and WARC files; URLs read from a file, names
// the server chooses and -e commands are Unknown.
func (w *walker) wget(args []arg, st *state) {
	opts, ops := getopt.Parse(getopt.Wget, args[1:])
	for _, o := range opts {
		if !slices.Contains(getopt.Wget.Long, o.Name) && !slices.Contains(getopt.Wget.Flags, o.Name) && len(o.Name) > 1 {
			w.unknown(joinRaw(args), reasonOption+"--"+o.Name)
			return
		}
	}
	if getopt.Has(opts, "i", "input-file", "e", "execute", "content-disposition", "trust-server-names", "config", "B", "base") {
		w.unknown(joinRaw(args), "wget writes files named in its input or options")
		return
	}
	if getopt.Has(opts, "help", "version", "spider") {
		return
	}
	w.writeAll(getopt.Values(opts, "o", "output-file", "a", "append-output", "save-cookies", "rejected-log", "warc-file"), st)
	if doc, ok := getopt.Value(opts, "O", "output-document"); ok {
		w.write(doc, st, "")
		return
	}
	dir, ok := getopt.Value(opts, "P", "directory-prefix")
	if !ok {
		dir = arg{lit: ".", ok: true, raw: "wget"}
	}
	if getopt.Has(opts, "r", "recursive", "m", "mirror", "p", "page-requisites", "x", "force-directories") {
		w.write(dir, st, "")
		return
	}
	for _, u := range ops {
		b := urlBase(u)
		w.write(arg{lit: path.Join(dir.lit, b.lit), ok: dir.ok && b.ok, raw: dir.raw + " " + u.raw}, st, "")
	}
}

// rsync writes its destination (the last operand) when it is local, the
// sources with --remove-source-files, and its log, batch and backup
// directories.
func (w *walker) rsync(args []arg, st *state) {
	opts, ops := getopt.Parse(getopt.Rsync, args[1:])
	w.writeAll(getopt.Values(opts, "log-file", "write-batch", "only-write-batch", "backup-dir", "partial-dir", "T", "temp-dir"), st)
	if getopt.Has(opts, "read-batch") {
		w.unknown(joinRaw(args), reasonFromFile)
		return
	}
	if len(ops) < 2 {
		return
	}
	local := func(a arg) bool { // host:path and rsync:// are remote
		i := strings.IndexByte(a.lit, ':')
		return !a.ok || i < 0 || strings.Contains(a.lit[:i], "/")
	}
	if dst := ops[len(ops)-1]; local(dst) {
		w.write(dst, st, "")
	}
	if getopt.Has(opts, "remove-source-files", "remove-sent-files") {
		for _, src := range ops[:len(ops)-1] {
			if local(src) {
				w.write(src, st, "")
			}
		}
	}
}
