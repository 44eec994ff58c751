package facts

// Files is the "files" namespace that the fs runner fills: one entry per file in
// the request's scope (the requested files, else the repo listing), sorted by path.
type Files struct {
	Files []File `json:"files"`
}

// File describes one file in scope. Lines counts newline-terminated lines plus
// an unterminated last line. A file that does not exist carries only its path,
// name, extension and Exists=false.
type File struct {
	Path   string `json:"path"`   // repo-relative, "/"-separated
	Name   string `json:"name"`   // base name
	Ext    string `json:"ext"`    // extension with the dot, lower case; "" when none
	Exists bool   `json:"exists"` // true only for a regular file
	Kind   string `json:"kind"`   // "file", "missing", "symlink", "dir" or "other"
	Size   int64  `json:"size"`
	Lines  int64  `json:"lines"`
	Binary bool   `json:"binary"` // NUL byte in, or invalid UTF-8 across, the first 8 KiB (Python source: NUL only)
	SHA256 string `json:"sha256,omitempty"`
	// Linguist is "generated" or "vendored" when .gitattributes marks the
	// file linguist-generated or linguist-vendored (generated when both),
	// as git check-attr reads it; "" (absent) otherwise and outside git.
	Linguist string `json:"linguist,omitempty"`
}

// Request is the "request" namespace: what was asked, as the engine resolved it.
type Request struct {
	Trigger      string   `json:"trigger"`
	Task         string   `json:"task"`
	Requester    string   `json:"requester"`
	Files        []string `json:"files"`    // the requested files, repo-relative, sorted; empty unless Explicit
	Explicit     bool     `json:"explicit"` // the request named its files; otherwise scoped gates judge the whole repo
	Outside      []string `json:"outside"`  // requested paths that resolve outside the project (never judged by scoped gates)
	ChangedSince string   `json:"changed_since,omitempty"`
	// Time is when the evaluation was asked, RFC 3339 UTC: policies compare
	// it with recorded times (a verify run's age) instead of reading a clock.
	Time string `json:"time"`
	// Bypass lists gates the requester explicitly waived (e.g. "changelog"
	// for --no-changelog); a gate that honours a bypass passes, and the
	// decision log records that it was asked for.
	Bypass []string `json:"bypass"`
	// UnknownWrites are writes of the tool call being judged whose target
	// cannot be known before it runs (a path from a variable, eval, inline
	// interpreter code); scope_write refuses them inside a scoped task.
	UnknownWrites []UnknownWrite `json:"unknown_writes,omitempty"`
	// Protected are the written paths (inside the project or not) that lie
	// in tausik's own guard; agent_authority refuses them to an agent.
	Protected []ProtectedTarget `json:"protected,omitempty"`
	// Commands are the simple commands of the shell call being judged, or
	// the command line of a CLI run that changes the guard.
	Commands []ToolCommand `json:"commands,omitempty"`
	// Tasks are the slugs of the tasks active when the request was judged,
	// sorted: a hook decision names the work it was made for.
	Tasks []string `json:"tasks,omitempty"`
}

// UnknownWrite is one write whose target cannot be known statically: the
// part of the command and why.
type UnknownWrite struct {
	Text   string `json:"text"`
	Reason string `json:"reason"`
	// Runs: what this part executes is not known either (eval of a built
	// string, a shell fed its program through a pipe, a git alias running a
	// shell command); agent_authority refuses it to an agent.
	Runs bool `json:"runs,omitempty"`
}

// Plain implements Plainer: the files namespace is the largest one and is
// converted on every evaluation. It yields what a JSON round trip would.
func (f Files) Plain() map[string]any {
	list := make([]any, len(f.Files))
	for i, x := range f.Files {
		m := map[string]any{
			"path": jsonText(x.Path), "name": jsonText(x.Name), "ext": jsonText(x.Ext), "exists": x.Exists, "kind": jsonText(x.Kind),
			"size": x.Size, "lines": x.Lines, "binary": x.Binary,
		}
		if x.SHA256 != "" {
			m["sha256"] = jsonText(x.SHA256)
		}
		if x.Linguist != "" {
			m["linguist"] = jsonText(x.Linguist)
		}
		list[i] = m
	}
	return map[string]any{"files": list}
}
