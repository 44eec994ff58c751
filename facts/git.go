package facts

// Git is the "git" namespace that the git runner fills. Paths are relative to
// the project root, "/"-separated, never quoted; entries outside the project
// root (when the root is a subdirectory of the work tree) are left out.
type Git struct {
	// Head is the full object name of HEAD; "" before the first commit, which
	// is a state to judge, not an error.
	Head string `json:"head"`
	// Unborn is true while the current branch has no commit yet.
	Unborn bool `json:"unborn"`
	// Branch is the checked-out branch's short name; "" when Detached.
	Branch   string `json:"branch"`
	Detached bool   `json:"detached"`
	// Changes are the entries `git status --porcelain=v1 --untracked-files=all`
	// prints: every changed, staged, unmerged or untracked (not ignored) path,
	// sorted.
	Changes []GitStatusEntry `json:"changes"`
	// Staged is the numstat of the index against HEAD (what a commit would
	// record), renames detected, sorted by path.
	Staged []GitNumstat `json:"staged"`
	// Since holds the changes since a point (a ref or a time), present only
	// when the runner was given one.
	Since *GitSince `json:"since"`
}

// GitStatusEntry is one line of porcelain v1 status. Index and Worktree are
// git's X and Y letters (" " unchanged, M, T, A, D, R, C, U, "?") so a policy
// can tell staged from unstaged work.
type GitStatusEntry struct {
	Path      string `json:"path"`
	OrigPath  string `json:"orig_path,omitempty"` // source of a rename or copy
	Index     string `json:"index"`
	Worktree  string `json:"worktree"`
	Untracked bool   `json:"untracked"`
	Unmerged  bool   `json:"unmerged"` // a merge conflict is recorded for the path
}

// GitNumstat counts the lines one file gained and lost. Binary files carry
// Binary=true and zero counts, since git cannot count their lines.
type GitNumstat struct {
	Path     string `json:"path"`
	OrigPath string `json:"orig_path,omitempty"`
	Added    int64  `json:"added"`
	Removed  int64  `json:"removed"`
	Binary   bool   `json:"binary"`
}

// GitSince describes everything that changed since a point: commits made after
// it, staged and unstaged edits, and untracked files. It exists so a policy can
// ask "did CHANGELOG.md gain a non-blank line since the task started" without
// knowing how git computes that.
type GitSince struct {
	// Spec is the point as given: a ref, an RFC 3339 time or a duration ago.
	Spec string `json:"spec"`
	// Kind is "ref" or "time".
	Kind string `json:"kind"`
	// Time is the point in RFC 3339 (UTC) when Kind is "time".
	Time string `json:"time,omitempty"`
	// Base is the commit the comparison starts from: the merge base of a ref
	// and HEAD, or for a time the last first-parent commit of HEAD made at or
	// before it. "" means no such commit: every file counts as added.
	Base string `json:"base"`
	// Files lists every changed path, sorted, with its added lines.
	Files []GitChange `json:"files"`
}

// GitChange is one file changed since a point. AddedNonBlank counts added lines
// holding any non-whitespace character; Lines keeps the text of the first added
// lines (see the runner for the caps), so a policy can quote them.
type GitChange struct {
	Path          string   `json:"path"`
	OrigPath      string   `json:"orig_path,omitempty"`
	Untracked     bool     `json:"untracked"`
	Deleted       bool     `json:"deleted"` // the path no longer exists in the work tree
	Binary        bool     `json:"binary"`
	Added         int64    `json:"added"`
	Removed       int64    `json:"removed"`
	AddedNonBlank int64    `json:"added_non_blank"`
	Lines         []string `json:"lines"`
	LinesTrunc    bool     `json:"lines_truncated"` // Lines holds fewer lines, or shorter ones, than were added
}
