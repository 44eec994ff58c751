package getopt

// The Specs below are the options of the programs the shell analysis reads.

// std are the options every GNU tool accepts.
var std = []string{"help", "version"}

// The wrappers, whose command starts at their first operand (su, runuser
// and script take theirs with -c).
var (
	Sudo    = Spec{Short: "u:g:p:C:D:h:r:t:U:T:", Long: []string{"user", "group", "prompt", "close-from", "chdir", "host", "role", "type", "other-user", "command-timeout"}, StopAtOperand: true}
	Env     = Spec{Short: "u:C:S:", Long: []string{"unset", "chdir", "split-string"}, Flags: []string{"ignore-environment", "null", "debug"}, StopAtOperand: true}
	Nice    = Spec{Short: "n:", Long: []string{"adjustment"}, StopAtOperand: true}
	Timeout = Spec{Short: "s:k:", Long: []string{"signal", "kill-after"}, StopAtOperand: true}
	Stdbuf  = Spec{Short: "i:o:e:", Long: []string{"input", "output", "error"}, StopAtOperand: true}
	Ionice  = Spec{Short: "c:n:p:P:u:", Long: []string{"class", "classdata"}, StopAtOperand: true}
	Time    = Spec{Short: "o:f:", Long: []string{"output", "format"}, StopAtOperand: true}
	Xargs   = Spec{Short: "a:d:E:I:L:n:P:s:", Long: []string{"arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}, StopAtOperand: true}
	Exec    = Spec{Short: "a:", StopAtOperand: true}
	Strace  = Spec{Short: "o:e:p:s:a:u:E:P:I:X:b:O:S:U:", Long: []string{"output"}, StopAtOperand: true}
	Flock   = Spec{Short: "w:E:c:", Long: []string{"timeout", "conflict-exit-code", "command"}, StopAtOperand: true}
	Watch   = Spec{Short: "n:d::q:", Long: []string{"interval", "equexit", "errexit"}, StopAtOperand: true}
	Su      = Spec{Short: "c:s:g:G:u:E:I:O:B:T:", Long: []string{"command", "shell", "group", "supp-group", "user", "echo", "log-in", "log-out", "log-io", "log-timing"}}
)

// The programs that write the files their operands or options name, with
// every option they accept (Strict).
var (
	Cp       = Spec{Strict: true, Short: "abdfHilLnPpRrsTuvxZS:t:", Long: []string{"suffix", "target-directory", "no-preserve", "sparse"}, Optional: []string{"backup", "preserve", "reflink", "update", "context"}, Flags: append([]string{"archive", "attributes-only", "copy-contents", "dereference", "force", "interactive", "link", "no-dereference", "no-clobber", "parents", "recursive", "remove-destination", "strip-trailing-slashes", "symbolic-link", "no-target-directory", "verbose", "one-file-system", "debug", "keep-directory-symlink"}, std...)}
	Mv       = Spec{Strict: true, Short: "bfinuvTZS:t:", Long: []string{"suffix", "target-directory"}, Optional: []string{"backup", "update"}, Flags: append([]string{"force", "interactive", "no-clobber", "strip-trailing-slashes", "no-target-directory", "verbose", "exchange", "no-copy", "debug", "context"}, std...)}
	Ln       = Spec{Strict: true, Short: "bdFfinLPrsTvS:t:", Long: []string{"suffix", "target-directory"}, Optional: []string{"backup"}, Flags: append([]string{"directory", "force", "interactive", "logical", "no-dereference", "physical", "relative", "symbolic", "no-target-directory", "verbose"}, std...)}
	Install  = Spec{Strict: true, Short: "bcCdDpsTvZg:m:o:S:t:", Long: []string{"group", "mode", "owner", "strip-program", "suffix", "target-directory"}, Optional: []string{"backup", "context"}, Flags: append([]string{"compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose", "preserve-context", "debug"}, std...)}
	Tee      = Spec{Strict: true, Short: "aip", Optional: []string{"output-error"}, Flags: append([]string{"append", "ignore-interrupts"}, std...)}
	Rm       = Spec{Strict: true, Short: "dfiIrRv", Optional: []string{"interactive", "preserve-root"}, Flags: append([]string{"force", "one-file-system", "no-preserve-root", "recursive", "dir", "verbose"}, std...)}
	Rmdir    = Spec{Strict: true, Short: "pv", Flags: append([]string{"ignore-fail-on-non-empty", "parents", "verbose"}, std...)}
	Unlink   = Spec{Strict: true, Flags: std}
	Shred    = Spec{Strict: true, Short: "fn:s:uvxz", Long: []string{"iterations", "random-source", "size"}, Optional: []string{"remove"}, Flags: append([]string{"force", "verbose", "exact", "zero"}, std...)}
	Touch    = Spec{Strict: true, Short: "acd:fhmr:t:", Long: []string{"date", "reference", "time"}, Flags: append([]string{"no-create", "no-dereference"}, std...)}
	Mkdir    = Spec{Strict: true, Short: "m:pvZ", Long: []string{"mode"}, Optional: []string{"context"}, Flags: append([]string{"parents", "verbose"}, std...)}
	Truncate = Spec{Strict: true, Short: "cor:s:", Long: []string{"reference", "size"}, Flags: append([]string{"no-create", "io-blocks"}, std...)}
	Chmod    = Spec{Strict: true, Short: "cfvR", Long: []string{"reference"}, Flags: append([]string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "recursive"}, std...)}
	Chown    = Spec{Strict: true, Short: "cfhvRHLP", Long: []string{"from", "reference"}, Flags: append([]string{"changes", "dereference", "no-dereference", "silent", "quiet", "verbose", "recursive", "preserve-root", "no-preserve-root"}, std...)}
	Sort     = Spec{Strict: true, Short: "bcCdfghik:mMno:rRsS:t:T:uVz", Long: []string{"batch-size", "compress-program", "files0-from", "key", "output", "random-source", "sort", "buffer-size", "field-separator", "temporary-directory", "parallel"}, Optional: []string{"check"}, Flags: append([]string{"ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort", "merge", "stable", "unique", "zero-terminated", "debug"}, std...)}
	Uniq     = Spec{Strict: true, Short: "cdDf:is:uw:z", Long: []string{"skip-fields", "skip-chars", "check-chars"}, Optional: []string{"all-repeated", "group"}, Flags: append([]string{"count", "repeated", "ignore-case", "unique", "zero-terminated"}, std...)}
	Split    = Spec{Strict: true, Short: "a:b:C:del:n:t:ux", Long: []string{"suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "separator"}, Optional: []string{"numeric-suffixes", "hex-suffixes"}, Flags: append([]string{"elide-empty-files", "unbuffered", "verbose"}, std...)}
	Csplit   = Spec{Strict: true, Short: "b:f:kn:szq", Long: []string{"suffix-format", "prefix", "digits"}, Flags: append([]string{"keep-files", "quiet", "silent", "elide-empty-files", "suppress-matched"}, std...)}
	Mktemp   = Spec{Strict: true, Short: "dp:qtu", Long: []string{"suffix"}, Optional: []string{"tmpdir"}, Flags: append([]string{"directory", "quiet", "dry-run"}, std...)}
	Sed      = Spec{Strict: true, Short: "nrsuzEe:f:l:i::", Long: []string{"expression", "file", "line-length"}, Optional: []string{"in-place"},
		Flags: append([]string{"quiet", "silent", "posix", "regexp-extended", "separate", "sandbox", "debug", "unbuffered", "null-data", "zero-terminated", "follow-symlinks", "binary"}, std...)}
	Patch = Spec{Strict: true, Short: "bcEefhlnNRstTuvZB:d:D:F:g:i:o:p:r:V:Y:z:",
		Long:     []string{"prefix", "directory", "ifdef", "fuzz", "get", "input", "output", "strip", "reject-file", "version-control", "basename-prefix", "suffix", "quoting-style", "read-only", "reject-format"},
		Optional: []string{"merge"},
		Flags: append([]string{"backup", "backup-if-mismatch", "no-backup-if-mismatch", "context", "ed", "remove-empty-files", "forward", "batch", "force", "ignore-whitespace",
			"normal", "dry-run", "silent", "quiet", "reverse", "set-time", "set-utc", "unified", "verbose", "posix", "binary", "follow-symlinks"}, std...)}
	Tar = Spec{Strict: true, Short: "AcdrtuxvzjJaZpkomOPhiSWwMlGf:C:I:T:X:b:g:H:K:L:N:V:F:",
		Long: []string{"file", "directory", "exclude", "strip-components", "owner", "group", "mode", "mtime", "transform", "xform", "files-from",
			"exclude-from", "format", "blocking-factor", "newer", "after-date", "newer-mtime", "listed-incremental", "label", "use-compress-program",
			"to-command", "checkpoint-action", "info-script", "new-volume-script", "rsh-command", "sort", "warning", "exclude-tag", "exclude-tag-all",
			"exclude-tag-under", "record-size", "tape-length", "starting-file", "occurrence", "owner-map", "group-map", "quoting-style", "index-file"},
		Optional: []string{"checkpoint", "backup", "exclude-vcs-ignores"},
		Flags: append([]string{"extract", "get", "create", "list", "append", "update", "concatenate", "catenate", "delete", "diff", "compare", "verbose",
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
)

// The programs that fetch or copy files: only the options that take a value
// are listed (Wget also lists its flags).
var (
	Cpio = Spec{Short: "iopD:F:O:I:H:E:M:R:C:", Long: []string{"directory", "file", "format", "pattern-file", "message", "owner", "io-size", "block-size", "rsh-command", "to-stdout"}}
	Curl = Spec{Short: "A:b:c:C:d:D:e:E:F:H:K:m:o:P:Q:r:t:T:u:U:w:x:X:y:Y:z:", Long: []string{"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl",
		"etag-save", "hsts", "alt-svc", "output-dir", "config", "data", "data-raw", "data-binary", "data-urlencode", "header", "user-agent", "url",
		"request", "user", "proxy", "form", "referer", "cookie", "max-time", "connect-timeout", "retry", "write-out", "range", "upload-file", "cacert",
		"cert", "key", "etag-compare", "time-cond", "json", "trace-config", "variable", "expand-url", "resolve", "connect-to", "interface"}}
	Wget = Spec{Short: "a:A:B:D:e:i:I:l:n:o:O:P:Q:R:t:T:U:w:X:", Long: []string{"append-output", "accept", "base", "domains", "execute", "input-file",
		"include-directories", "level", "output-file", "output-document", "directory-prefix", "quota", "reject", "tries", "timeout", "user-agent", "wait",
		"exclude-directories", "header", "user", "password", "post-data", "post-file", "body-data", "body-file", "method", "referer", "load-cookies",
		"save-cookies", "default-page", "config", "rejected-log", "warc-file", "ca-certificate", "certificate", "private-key", "bind-address",
		"cut-dirs", "limit-rate", "restrict-file-names", "backups", "progress"},
		Flags: []string{"recursive", "mirror", "page-requisites", "content-disposition", "trust-server-names", "force-directories", "no-directories",
			"no-host-directories", "continue", "timestamping", "no-clobber", "quiet", "verbose", "no-verbose", "server-response", "spider", "inet4-only",
			"inet6-only", "no-check-certificate", "convert-links", "adjust-extension", "no-parent", "help", "version", "background"}}
	Rsync = Spec{Short: "e:f:B:T:M:", Long: []string{"rsh", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "rsync-path",
		"log-file", "log-file-format", "backup-dir", "temp-dir", "partial-dir", "link-dest", "compare-dest", "copy-dest", "chmod", "chown", "timeout",
		"port", "password-file", "bwlimit", "block-size", "remote-option", "suffix", "out-format", "info", "debug", "max-size", "min-size", "max-delete",
		"modify-window", "iconv", "protocol", "checksum-choice", "compress-choice", "write-batch", "only-write-batch", "read-batch", "usermap", "groupmap",
		"contimeout", "sockopts", "address", "outbuf", "compress-level", "skip-compress", "stop-after", "stop-at", "copy-as", "mkpath"}}
)

// git's own options (Git) and those of its subcommands that write files.
var (
	Git         = Spec{Short: "C:c:", Long: []string{"git-dir", "work-tree", "namespace", "exec-path", "config-env", "super-prefix", "list-cmds", "attr-source"}, StopAtOperand: true}
	GitRestore  = Spec{Short: "s:", Long: []string{"source", "conflict", "pathspec-from-file", "inter-hunk-context", "unified"}}
	GitCheckout = Spec{Short: "b:B:", Long: []string{"conflict", "pathspec-from-file", "orphan"}}
	GitRm       = Spec{Long: []string{"pathspec-from-file"}}
	GitClean    = Spec{Short: "e:", Long: []string{"exclude"}}
	GitClone    = Spec{Short: "o:b:u:c:j:", Long: []string{"template", "reference", "reference-if-able", "origin", "branch", "upload-pack", "depth", "shallow-since", "shallow-exclude", "separate-git-dir", "config", "jobs", "filter", "bundle-uri", "server-option", "ref-format"}}
	GitWorktree = Spec{Short: "b:B:", Long: []string{"reason", "expire", "orphan"}}
	GitApply    = Spec{Short: "p:C:", Long: []string{"directory", "exclude", "include", "whitespace", "build-fake-ancestor"}}
	GitSwitch   = Spec{Short: "c:C:", Long: []string{"create", "force-create", "orphan", "conflict"}}
	GitInit     = Spec{Short: "b:", Long: []string{"template", "separate-git-dir", "object-format", "ref-format", "initial-branch"}}
)
