package shellwrites

import (
	"path"
	"strings"
)

// The commands that write the files their operands or options name, with
// every option they accept (strict: an option not listed, or an abbreviation
// of several, is unmodelled and makes the command Unknown).
var (
	std         = []string{"help", "version"}
	cpSpec      = spec{strict: true, short: "abdfHilLnPpRrsTuvxZS:t:", long: []string{"suffix", "target-directory", "no-preserve", "sparse"}, optional: []string{"backup", "preserve", "reflink", "update", "context"}, flags: append([]string{"archive", "attributes-only", "copy-contents", "dereference", "force", "interactive", "link", "no-dereference", "no-clobber", "parents", "recursive", "remove-destination", "strip-trailing-slashes", "symbolic-link", "no-target-directory", "verbose", "one-file-system", "debug", "keep-directory-symlink"}, std...)}
	mvSpec      = spec{strict: true, short: "bfinuvTZS:t:", long: []string{"suffix", "target-directory"}, optional: []string{"backup", "update"}, flags: append([]string{"force", "interactive", "no-clobber", "strip-trailing-slashes", "no-target-directory", "verbose", "exchange", "no-copy", "debug", "context"}, std...)}
	lnSpec      = spec{strict: true, short: "bdFfinLPrsTvS:t:", long: []string{"suffix", "target-directory"}, optional: []string{"backup"}, flags: append([]string{"directory", "force", "interactive", "logical", "no-dereference", "physical", "relative", "symbolic", "no-target-directory", "verbose"}, std...)}
	installSpec = spec{strict: true, short: "bcCdDpsTvZg:m:o:S:t:", long: []string{"group", "mode", "owner", "strip-program", "suffix", "target-directory"}, optional: []string{"backup", "context"}, flags: append([]string{"compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose", "preserve-context", "debug"}, std...)}
	teeSpec     = spec{strict: true, short: "aip", optional: []string{"output-error"}, flags: append([]string{"append", "ignore-interrupts"}, std...)}
	rmSpec      = spec{strict: true, short: "dfiIrRv", optional: []string{"interactive", "preserve-root"}, flags: append([]string{"force", "one-file-system", "no-preserve-root", "recursive", "dir", "verbose"}, std...)}
	rmdirSpec   = spec{strict: true, short: "pv", flags: append([]string{"ignore-fail-on-non-empty", "parents", "verbose"}, std...)}
	plainSpec   = spec{strict: true, flags: std}
	shredSpec   = spec{strict: true, short: "fn:s:uvxz", long: []string{"iterations", "random-source", "size"}, optional: []string{"remove"}, flags: append([]string{"force", "verbose", "exact", "zero"}, std...)}
	touchSpec   = spec{strict: true, short: "acd:fhmr:t:", long: []string{"date", "reference", "time"}, flags: append([]string{"no-create", "no-dereference"}, std...)}
	mkdirSpec   = spec{strict: true, short: "m:pvZ", long: []string{"mode"}, optional: []string{"context"}, flags: append([]string{"parents", "verbose"}, std...)}
	truncSpec   = spec{strict: true, short: "cor:s:", long: []string{"reference", "size"}, flags: append([]string{"no-create", "io-blocks"}, std...)}
	chmodSpec   = spec{strict: true, short: "cfvR", long: []string{"reference"}, flags: append([]string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "recursive"}, std...)}
	chownSpec   = spec{strict: true, short: "cfhvRHLP", long: []string{"from", "reference"}, flags: append([]string{"changes", "dereference", "no-dereference", "silent", "quiet", "verbose", "recursive", "preserve-root", "no-preserve-root"}, std...)}
	sortSpec    = spec{strict: true, short: "bcCdfghik:mMno:rRsS:t:T:uVz", long: []string{"batch-size", "compress-program", "files0-from", "key", "output", "random-source", "sort", "buffer-size", "field-separator", "temporary-directory", "parallel"}, optional: []string{"check"}, flags: append([]string{"ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort", "merge", "stable", "unique", "zero-terminated", "debug"}, std...)}
	uniqSpec    = spec{strict: true, short: "cdDf:is:uw:z", long: []string{"skip-fields", "skip-chars", "check-chars"}, optional: []string{"all-repeated", "group"}, flags: append([]string{"count", "repeated", "ignore-case", "unique", "zero-terminated"}, std...)}
	splitSpec   = spec{strict: true, short: "a:b:C:del:n:t:ux", long: []string{"suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "separator"}, optional: []string{"numeric-suffixes", "hex-suffixes"}, flags: append([]string{"elide-empty-files", "unbuffered", "verbose"}, std...)}
	csplitSpec  = spec{strict: true, short: "b:f:kn:szq", long: []string{"suffix-format", "prefix", "digits"}, flags: append([]string{"keep-files", "quiet", "silent", "elide-empty-files", "suppress-matched"}, std...)}
	mktempSpec  = spec{strict: true, short: "dp:qtu", long: []string{"suffix"}, optional: []string{"tmpdir"}, flags: append([]string{"directory", "quiet", "dry-run"}, std...)}
)

// fileCommand handles the commands that write the files their arguments name.
func (w *walker) fileCommand(name string, args []arg, st *state) {
	rest := args[1:]
	if s, ok := fileSpecs[name]; ok {
		opts, ops, bad := s.parseStrict(rest)
		if bad != "" {
			w.unknown(joinRaw(args), reasonOption+bad)
			return
		}
		if has(opts, "help", "version") {
			return
		}
		w.fileOps(name, opts, ops, st)
		return
	}
	switch name {
	case "dd":
		for _, a := range rest {
			if !a.ok {
				w.unknown(a.raw, reasonDynamic)
			} else if of, ok := strings.CutPrefix(a.lit, "of="); ok {
				w.write(arg{lit: of, ok: true, raw: a.raw}, st, "")
			}
		}
	case "chmod", "chown", "chgrp":
		w.chmod(name, args, st)
	case "sed", "gsed":
		w.sed(args, st)
	case "patch":
		w.patch(args, st)
	case "tar", "gtar", "bsdtar":
		w.tar(args, st)
	case "unzip":
		w.unzip(args, st)
	case "zip":
		w.zip(args, st)
	case "cpio":
		w.cpio(args, st)
	case "curl":
		w.curl(args, st)
	case "wget":
		w.wget(args, st)
	case "rsync":
		w.rsync(args, st)
	}
}

var fileSpecs = map[string]spec{
	"tee": teeSpec, "cp": cpSpec, "mv": mvSpec, "ln": lnSpec, "install": installSpec, "rm": rmSpec,
	"rmdir": rmdirSpec, "unlink": plainSpec, "shred": shredSpec, "touch": touchSpec, "mkdir": mkdirSpec,
	"truncate": truncSpec, "sort": sortSpec, "uniq": uniqSpec, "split": splitSpec, "csplit": csplitSpec,
	"mktemp": mktempSpec,
}

// fileOps writes what a command of fileSpecs writes, its options parsed.
func (w *walker) fileOps(name string, opts []opt, ops []arg, st *state) {
	switch name {
	case "cp", "mv", "ln":
		w.copyLike(name, opts, ops, st)
		w.backups(name, opts, ops, st)
		if name == "ln" && has(opts, "s", "symbolic") {
			w.linkTargets(opts, ops, st)
		}
	case "install":
		if has(opts, "d", "directory") {
			w.writeAll(ops, st)
			return
		}
		w.copyLike(name, opts, ops, st)
		w.backups(name, opts, ops, st)
	case "sort":
		w.writeAll(values(opts, "o", "output"), st)
	case "uniq":
		if len(ops) > 1 {
			w.write(ops[1], st, "")
		}
	case "split", "csplit":
		prefix := arg{lit: "x", ok: true, raw: name}
		if name == "csplit" {
			prefix.lit = "xx"
			if p, ok := value(opts, "f", "prefix"); ok {
				prefix = p
			}
		} else if len(ops) > 1 {
			prefix = ops[1]
		}
		prefix.lit += "*" // the pieces: PREFIX followed by a suffix
		w.write(prefix, st, "")
	case "mktemp":
		w.mktemp(opts, ops, st)
	default: // tee rm rmdir unlink shred touch mkdir truncate
		w.writeAll(ops, st)
	}
}

// mktemp writes its template (X's included) relative to the directory it
// is given, or to the current one when the template is given without -t;
// in $TMPDIR it writes outside the project.
func (w *walker) mktemp(opts []opt, ops []arg, st *state) {
	if has(opts, "u", "dry-run") {
		return
	}
	tmpl := arg{lit: "tmp.XXXXXXXXXX", ok: true, raw: "mktemp"}
	if len(ops) > 0 {
		tmpl = ops[0]
	}
	dir, withDir := value(opts, "p", "tmpdir")
	switch {
	case withDir && dir.ok && dir.lit == "":
		return // --tmpdir alone: $TMPDIR
	case withDir:
		if !dir.ok || !tmpl.ok {
			w.write(arg{raw: dir.raw + " " + tmpl.raw}, st, "")
			return
		}
		w.write(arg{lit: path.Join(dir.lit, tmpl.lit), ok: true, raw: dir.raw}, st, "")
	case has(opts, "t") || len(ops) == 0:
		return
	default:
		w.write(tmpl, st, "")
	}
}

// chmod, chown and chgrp change the files they name: writes of each operand
// after the mode or owner (none of which is taken with --reference).
func (w *walker) chmod(name string, args []arg, st *state) {
	s := chownSpec
	var kept, modes []arg
	for _, a := range args[1:] {
		if name == "chmod" && a.ok && len(a.lit) > 1 && a.lit[0] == '-' && strings.Trim(a.lit[1:], "rwxXstugoa,+=-01234567") == "" {
			modes = append(modes, a) // chmod -w f: a mode, not an option
			continue
		}
		kept = append(kept, a)
	}
	if name == "chmod" {
		s = chmodSpec
	}
	opts, ops, bad := s.parseStrict(kept)
	if bad != "" {
		w.unknown(joinRaw(args), reasonOption+bad)
		return
	}
	if !has(opts, "reference") && len(modes) == 0 && len(ops) > 0 {
		ops = ops[1:]
	}
	w.writeAll(ops, st)
}

// backups: with -b, --backup or --suffix, cp, mv, ln and install keep the
// file they replace under its name followed by a suffix (~, .~1~, SUFFIX).
func (w *walker) backups(name string, opts []opt, ops []arg, st *state) {
	if !has(opts, "b", "backup", "S", "suffix") || len(ops) == 0 {
		return
	}
	var dests []arg
	dir, toDir := value(opts, "t", "target-directory")
	switch {
	case toDir:
		dests = ops
	case len(ops) == 1:
		return
	default:
		dir, dests = ops[len(ops)-1], ops[:len(ops)-1]
		if len(dests) == 1 && !strings.HasSuffix(dir.lit, "/") {
			// DEST may be a file (its backup is DEST~) or a directory
			// (DEST/NAME~, written below).
			w.write(arg{lit: dir.lit + "*", ok: dir.ok, raw: dir.raw}, st, "")
		}
	}
	for _, s := range dests {
		w.write(arg{lit: path.Join(dir.lit, path.Base(s.lit)) + "*", ok: dir.ok && s.ok, raw: dir.raw}, st, "")
	}
}

// linkTargets: a symbolic link is a write of what it points to, since every
// later write through it lands there (ln -s ../tausik src/l, then a write
// of src/l/gates.json). A relative target is read from the link's
// directory (from the current one with -r); when the destination may be a
// directory (one source, no -T) both readings are writes.
func (w *walker) linkTargets(opts []opt, ops []arg, st *state) {
	dir, toDir := value(opts, "t", "target-directory")
	srcs := ops
	switch {
	case toDir:
	case len(ops) == 1:
		dir, toDir = arg{lit: ".", ok: true, raw: "."}, true
	case len(ops) > 1:
		dir, srcs = ops[len(ops)-1], ops[:len(ops)-1]
		toDir = len(srcs) > 1 || strings.HasSuffix(dir.lit, "/")
	default:
		return
	}
	for _, s := range srcs {
		switch {
		case !s.ok || path.IsAbs(s.lit) || has(opts, "r", "relative"):
			w.write(s, st, "")
		case !dir.ok:
			w.write(arg{raw: dir.raw + " " + s.raw}, st, "")
		case toDir:
			w.write(arg{lit: path.Join(dir.lit, s.lit), ok: true, raw: s.raw}, st, "")
		default: // DEST is the link, or a directory the link goes into
			w.write(arg{lit: path.Join(path.Dir(dir.lit), s.lit), ok: true, raw: s.raw}, st, "")
			if !has(opts, "T", "no-target-directory") {
				w.write(arg{lit: path.Join(dir.lit, s.lit), ok: true, raw: s.raw}, st, "")
			}
		}
	}
}
