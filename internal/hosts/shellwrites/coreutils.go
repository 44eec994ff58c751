package shellwrites

import (
	"path"
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/getopt"
)

// fileCommand handles the commands that write the files their arguments name.
func (w *walker) fileCommand(name string, args []arg, st *state) {
	rest := args[1:]
	if s, ok := fileSpecs[name]; ok {
		opts, ops, bad := getopt.ParseStrict(s, rest)
		if bad != "" {
			w.unknown(joinRaw(args), reasonOption+bad)
			return
		}
		if getopt.Has(opts, "help", "version") {
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

// fileSpecs are the commands that write the files their operands or options
// name, with every option they accept (strict: an option not listed, or an
// abbreviation of several, is unmodelled and makes the command Unknown).
var fileSpecs = map[string]getopt.Spec{
	"tee": getopt.Tee, "cp": getopt.Cp, "mv": getopt.Mv, "ln": getopt.Ln, "install": getopt.Install, "rm": getopt.Rm,
	"rmdir": getopt.Rmdir, "unlink": getopt.Unlink, "shred": getopt.Shred, "touch": getopt.Touch, "mkdir": getopt.Mkdir,
	"truncate": getopt.Truncate, "sort": getopt.Sort, "uniq": getopt.Uniq, "split": getopt.Split, "csplit": getopt.Csplit,
	"mktemp": getopt.Mktemp,
}

// fileOps writes what a command of fileSpecs writes, its options parsed.
func (w *walker) fileOps(name string, opts []opt, ops []arg, st *state) {
	switch name {
	case "cp", "mv", "ln":
		w.copyLike(name, opts, ops, st)
		w.backups(name, opts, ops, st)
		if name == "ln" && getopt.Has(opts, "s", "symbolic") {
			w.linkTargets(opts, ops, st)
		}
	case "install":
		if getopt.Has(opts, "d", "directory") {
			w.writeAll(ops, st)
			return
		}
		w.copyLike(name, opts, ops, st)
		w.backups(name, opts, ops, st)
	case "sort":
		w.writeAll(getopt.Values(opts, "o", "output"), st)
	case "uniq":
		if len(ops) > 1 {
			w.write(ops[1], st, "")
		}
	case "split", "csplit":
		prefix := arg{lit: "x", ok: true, raw: name}
		if name == "csplit" {
			prefix.lit = "xx"
			if p, ok := getopt.Value(opts, "f", "prefix"); ok {
				prefix = p
			}
		} else if len(ops) > 1 {
			prefix = ops[1]
		}
		prefix.lit += "*" // the pieces: PREFIX followed by a suffix
		w.write(prefix, st, "")
	case "mktemp":
		w.mktemp(opts, ops, st)
	case "rm", "rmdir", "unlink":
		w.removeAll(ops, st)
	default: // tee shred touch mkdir truncate
		w.writeAll(ops, st)
	}
}

// mktemp writes its template (X's included) relative to the directory it
// is given, or to the current one when the template is given without -t;
// in $TMPDIR it writes outside the project.
func (w *walker) mktemp(opts []opt, ops []arg, st *state) {
	if getopt.Has(opts, "u", "dry-run") {
		return
	}
	tmpl := arg{lit: "tmp.XXXXXXXXXX", ok: true, raw: "mktemp"}
	if len(ops) > 0 {
		tmpl = ops[0]
	}
	dir, withDir := getopt.Value(opts, "p", "tmpdir")
	switch {
	case withDir && dir.ok && dir.lit == "":
		return // --tmpdir alone: $TMPDIR
	case withDir:
		if !dir.ok || !tmpl.ok {
			w.write(arg{raw: dir.raw + " " + tmpl.raw}, st, "")
			return
		}
		w.write(arg{lit: path.Join(dir.lit, tmpl.lit), ok: true, raw: dir.raw}, st, "")
	case getopt.Has(opts, "t") || len(ops) == 0:
		return
	default:
		w.write(tmpl, st, "")
	}
}

// chmod, chown and chgrp change the files they name: writes of each operand
// after the mode or owner (none of which is taken with --reference).
func (w *walker) chmod(name string, args []arg, st *state) {
	s := getopt.Chown
	var kept, modes []arg
	for _, a := range args[1:] {
		if name == "chmod" && a.ok && len(a.lit) > 1 && a.lit[0] == '-' && strings.Trim(a.lit[1:], "rwxXstugoa,+=-01234567") == "" {
			modes = append(modes, a) // chmod -w f: a mode, not an option
			continue
		}
		kept = append(kept, a)
	}
	if name == "chmod" {
		s = getopt.Chmod
	}
	opts, ops, bad := getopt.ParseStrict(s, kept)
	if bad != "" {
		w.unknown(joinRaw(args), reasonOption+bad)
		return
	}
	if !getopt.Has(opts, "reference") && len(modes) == 0 && len(ops) > 0 {
		ops = ops[1:]
	}
	w.writeAll(ops, st)
}

// backups: with -b, --backup or --suffix, cp, mv, ln and install keep the
// file they replace under its name followed by a suffix (~, .~1~, SUFFIX).
func (w *walker) backups(name string, opts []opt, ops []arg, st *state) {
	if !getopt.Has(opts, "b", "backup", "S", "suffix") || len(ops) == 0 {
		return
	}
	var dests []arg
	dir, toDir := getopt.Value(opts, "t", "target-directory")
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
	dir, toDir := getopt.Value(opts, "t", "target-directory")
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
		case !s.ok || path.IsAbs(s.lit) || getopt.Has(opts, "r", "relative"):
			w.write(s, st, "")
		case !dir.ok:
			w.write(arg{raw: dir.raw + " " + s.raw}, st, "")
		case toDir:
			w.write(arg{lit: path.Join(dir.lit, s.lit), ok: true, raw: s.raw}, st, "")
		default: // DEST is the link, or a directory the link goes into
			w.write(arg{lit: path.Join(path.Dir(dir.lit), s.lit), ok: true, raw: s.raw}, st, "")
			if !getopt.Has(opts, "T", "no-target-directory") {
				w.write(arg{lit: path.Join(dir.lit, s.lit), ok: true, raw: s.raw}, st, "")
			}
		}
	}
}
