package shellwrites

import (
	"net/url"
	"path"
	"strings"
)

var (
	tarSpec = spec{strict: true, short: "AcdrtuxvzjJaZpkomOPhiSWwMlGf:C:I:T:X:b:g:H:K:L:N:V:F:",
		long: []string{"file", "directory", "exclude", "strip-components", "owner", "group", "mode", "mtime", "transform", "xform", "files-from",
			"exclude-from", "format", "blocking-factor", "newer", "after-date", "newer-mtime", "listed-incremental", "label", "use-compress-program",
			"to-command", "checkpoint-action", "info-script", "new-volume-script", "rsh-command", "sort", "warning", "exclude-tag", "exclude-tag-all",
			"exclude-tag-under", "record-size", "tape-length", "starting-file", "occurrence", "owner-map", "group-map", "quoting-style", "index-file"},
		optional: []string{"checkpoint", "backup", "exclude-vcs-ignores"},
		flags: append([]string{"extract", "get", "create", "list", "append", "update", "concatenate", "catenate", "delete", "diff", "compare", "verbose",
			"gzip", "gunzip", "ungzip", "bzip2", "xz", "lzma", "lzip", "lzop", "zstd", "compress", "uncompress", "auto-compress", "no-auto-compress",
			"keep-old-files", "skip-old-files", "overwrite", "overwrite-dir", "keep-newer-files", "no-overwrite-dir", "unlink-first", "recursive-unlink",
			"remove-files", "preserve-permissions", "same-permissions", "no-same-permissions", "same-owner", "no-same-owner", "numeric-owner",
			"absolute-names", "dereference", "hard-dereference", "one-file-system", "null", "no-null", "wildcards", "no-wildcards", "anchored",
			"no-anchored", "recursion", "no-recursion", "totals", "to-stdout", "touch", "exclude-vcs", "exclude-caches", "exclude-caches-all",
			"exclude-backups", "ignore-zeros", "sparse", "verify", "show-transformed-names", "show-stored-names", "utc", "full-time", "interactive",
			"confirmation", "force-local", "check-links", "delay-directory-restore", "no-delay-directory-restore", "ignore-failed-read",
			"preserve-order", "same-order", "multi-volume", "ignore-case", "no-ignore-case", "wildcards-match-slash", "no-wildcards-match-slash",
			"unquote", "no-unquote", "seek", "no-seek", "posix", "usage", "restrict", "block-number", "show-omitted-dirs", "no-xattrs", "xattrs",
			"acls", "no-acls", "selinux", "no-selinux", "keep-directory-symlink"}, std...)}
	// tarRuns are tar's options that run another command.
	tarRuns = []string{"I", "use-compress-program", "to-command", "checkpoint-action", "info-script", "F", "new-volume-script", "rsh-command"}
)

// tar: extraction writes inside its directory (-C, --directory, or the
// current one; members with absolute names anywhere); creating, appending,
// updating or deleting writes the archive (-f); --remove-files removes the
// operands. Options that run commands are Unknown.
func (w *walker) tar(args []arg, st *state) {
	rest := args[1:]
	if len(rest) > 0 && rest[0].ok && rest[0].lit != "" && !strings.HasPrefix(rest[0].lit, "-") {
		rest = oldTar(rest) // tar xzf a.tgz: the letters' values follow in order
	}
	opts, ops, bad := tarSpec.parseStrict(rest)
	switch {
	case bad != "":
		w.unknown(joinRaw(args), reasonOption+bad)
		return
	case has(opts, tarRuns...):
		w.unknown(joinRaw(args), "tar runs a command given in its options")
		return
	case has(opts, "help", "version", "usage"):
		return
	}
	switch {
	case has(opts, "x", "extract", "get"):
		if has(opts, "O", "to-stdout") {
			return
		}
		if has(opts, "P", "absolute-names") {
			w.unknown(joinRaw(args), reasonArchive)
			return
		}
		dirs := values(opts, "C", "directory")
		if len(dirs) == 0 {
			dirs = []arg{{lit: ".", ok: true, raw: "tar"}}
		}
		w.writeAll(dirs, st)
	case has(opts, "c", "create", "r", "append", "u", "update", "A", "concatenate", "catenate", "delete"):
		f, ok := value(opts, "f", "file")
		if !ok {
			f = arg{lit: "-", ok: true}
		}
		w.write(f, st, "")
		if has(opts, "remove-files") {
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
		if tarSpec.shortKind(c) == 1 && len(more) > 0 {
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
	s := spec{short: "iopD:F:O:I:H:E:M:R:C:", long: []string{"directory", "file", "format", "pattern-file", "message", "owner", "io-size", "block-size", "rsh-command", "to-stdout"}}
	opts, ops := s.parse(args[1:])
	switch {
	case has(opts, "i", "extract"):
		d, ok := value(opts, "D", "directory")
		if !ok {
			d = arg{lit: ".", ok: true, raw: "cpio"}
		}
		w.write(d, st, "")
	case has(opts, "o", "create"):
		w.writeAll(values(opts, "O", "F", "file"), st)
	case has(opts, "p", "pass-through"):
		w.writeAll(ops, st)
	}
}

// curlWrites are curl's options that name a file it writes.
var curlWrites = []string{"o", "output", "D", "dump-header", "c", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc", "trace-config"}

// curl writes its -o files, the URLs' base names with -O (in --output-dir
// when given) and its dump, cookie-jar and trace files; -J (a name the
// server chooses) and -K (options read from a file) are Unknown.
func (w *walker) curl(args []arg, st *state) {
	s := spec{short: "A:b:c:C:d:D:e:E:F:H:K:m:o:P:Q:r:t:T:u:U:w:x:X:y:Y:z:", long: []string{"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl",
		"etag-save", "hsts", "alt-svc", "output-dir", "config", "data", "data-raw", "data-binary", "data-urlencode", "header", "user-agent", "url",
		"request", "user", "proxy", "form", "referer", "cookie", "max-time", "connect-timeout", "retry", "write-out", "range", "upload-file", "cacert",
		"cert", "key", "etag-compare", "time-cond", "json", "trace-config", "variable", "expand-url", "resolve", "connect-to", "interface"}}
	opts, ops := s.parse(args[1:])
	if has(opts, "J", "remote-header-name", "K", "config") {
		w.unknown(joinRaw(args), "curl writes a file named by the server or by options read from a file")
		return
	}
	w.writeAll(values(opts, curlWrites...), st)
	dir, inDir := value(opts, "output-dir")
	remote := 0
	for _, o := range opts {
		if o.name == "O" || o.name == "remote-name" {
			remote++
		}
	}
	if has(opts, "remote-name-all") {
		remote = len(ops)
	}
	for _, u := range append(values(opts, "url"), ops...) {
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

var wgetSpec = spec{short: "a:A:B:D:e:i:I:l:n:o:O:P:Q:R:t:T:U:w:X:", long: []string{"append-output", "accept", "base", "domains", "execute", "input-file",
	"include-directories", "level", "output-file", "output-document", "directory-prefix", "quota", "reject", "tries", "timeout", "user-agent", "wait",
	"exclude-directories", "header", "user", "password", "post-data", "post-file", "body-data", "body-file", "method", "referer", "load-cookies",
	"save-cookies", "default-page", "config", "rejected-log", "warc-file", "ca-certificate", "certificate", "private-key", "bind-address",
	"cut-dirs", "limit-rate", "restrict-file-names", "backups", "progress"},
	flags: []string{"recursive", "mirror", "page-requisites", "content-disposition", "trust-server-names", "force-directories", "no-directories",
		"no-host-directories", "continue", "timestamping", "no-clobber", "quiet", "verbose", "no-verbose", "server-response", "spider", "inet4-only",
		"inet6-only", "no-check-certificate", "convert-links", "adjust-extension", "no-parent", "help", "version", "background"}}

// wget writes its -O document, or each URL's base name in its -P directory
// (the current one by default), a whole tree there with -r, -m or -p, and
// its -o / -a log and cookie and WARC files; URLs read from a file, names
// the server chooses and -e commands are Unknown.
func (w *walker) wget(args []arg, st *state) {
	opts, ops, _ := wgetSpec.parseStrict(args[1:])
	for _, o := range opts {
		if !contains(wgetSpec.long, o.name) && !contains(wgetSpec.flags, o.name) && len(o.name) > 1 {
			w.unknown(joinRaw(args), reasonOption+"--"+o.name)
			return
		}
	}
	if has(opts, "i", "input-file", "e", "execute", "content-disposition", "trust-server-names", "config", "B", "base") {
		w.unknown(joinRaw(args), "wget writes files named in its input or options")
		return
	}
	if has(opts, "help", "version", "spider") {
		return
	}
	w.writeAll(values(opts, "o", "output-file", "a", "append-output", "save-cookies", "rejected-log", "warc-file"), st)
	if doc, ok := value(opts, "O", "output-document"); ok {
		w.write(doc, st, "")
		return
	}
	dir, ok := value(opts, "P", "directory-prefix")
	if !ok {
		dir = arg{lit: ".", ok: true, raw: "wget"}
	}
	if has(opts, "r", "recursive", "m", "mirror", "p", "page-requisites", "x", "force-directories") {
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
	s := spec{short: "e:f:B:T:M:", long: []string{"rsh", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "rsync-path",
		"log-file", "log-file-format", "backup-dir", "temp-dir", "partial-dir", "link-dest", "compare-dest", "copy-dest", "chmod", "chown", "timeout",
		"port", "password-file", "bwlimit", "block-size", "remote-option", "suffix", "out-format", "info", "debug", "max-size", "min-size", "max-delete",
		"modify-window", "iconv", "protocol", "checksum-choice", "compress-choice", "write-batch", "only-write-batch", "read-batch", "usermap", "groupmap",
		"contimeout", "sockopts", "address", "outbuf", "compress-level", "skip-compress", "stop-after", "stop-at", "copy-as", "mkpath"}}
	opts, ops := s.parse(args[1:])
	w.writeAll(values(opts, "log-file", "write-batch", "only-write-batch", "backup-dir", "partial-dir", "T", "temp-dir"), st)
	if has(opts, "read-batch") {
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
	if has(opts, "remove-source-files", "remove-sent-files") {
		for _, src := range ops[:len(ops)-1] {
			if local(src) {
				w.write(src, st, "")
			}
		}
	}
}
