package facts

// PushFacts is the "push" namespace, filled at the hook's pre-write trigger
// from git and the project's store: where HEAD is, and the newest push
// ticket a person issued (`tausik push-ok`). Whether the ticket allows the
// call's push (same commit, unused, young enough, the remote and branch it
// names) is git_push_gate's call.
type PushFacts struct {
	// Head is the full commit hash HEAD points at.
	Head string `json:"head"`
	// Branch is the branch HEAD is on, "" when it is detached.
	Branch string `json:"branch"`
	// Now is when the facts were gathered, in Unix seconds.
	Now int64 `json:"now"`
	// Ticket is the newest ticket ever issued, null when there is none.
	Ticket *PushTicket `json:"ticket"`
	// PushURL is where a push to the ticket's remote goes now, read only
	// when the ticket recorded where it went ("" otherwise).
	PushURL string `json:"push_url"`
	// OtherDirs are the directories a shell call's commands start in that
	// are not in the project's repository (each with why); a directory
	// known only at run time is "".
	OtherDirs []PushDir `json:"other_dirs"`
	// Config is what the project's git configuration makes a push send
	// when the command line does not say.
	Config PushConfig `json:"config"`
}

// PushDir is one directory a push may run from outside the project's
// repository.
type PushDir struct {
	Dir string `json:"dir"`
	Why string `json:"why"`
}

// PushConfig is the project's git configuration that decides what a push
// sends, read for the branch HEAD is on.
type PushConfig struct {
	// Default is push.default ("simple" when unset).
	Default string `json:"default"`
	// Remote is where a push naming no remote goes: branch.B.pushRemote,
	// remote.pushDefault, branch.B.remote, else origin.
	Remote string `json:"remote"`
	// FetchRemote is branch.B.remote (origin when unset), Upstream the
	// branch branch.B.merge names there ("" when unset).
	FetchRemote string `json:"fetch_remote"`
	Upstream    string `json:"upstream"`
	// Refspecs are each remote's remote.R.push values, Mirror the remotes
	// with remote.R.mirror true.
	Refspecs map[string][]string `json:"refspecs"`
	Mirror   []string            `json:"mirror"`
	// FollowTags is push.followTags; RecurseSubmodules push.recurseSubmodules
	// ("on-demand" when only submodule.recurse is true, "" when unset).
	FollowTags        bool   `json:"follow_tags"`
	RecurseSubmodules string `json:"recurse_submodules"`
}

// PushTicket is one push ticket as the push namespace shows it.
type PushTicket struct {
	ID     string `json:"id"`
	Commit string `json:"commit"`
	// Remote and Branch are "" when the ticket does not bind them; a
	// Branch "+NAME" also allows a forced update of NAME.
	Remote string `json:"remote"`
	Branch string `json:"branch"`
	// PushURL is where a push to Remote went when the ticket was issued
	// ("" when none was recorded).
	PushURL string `json:"push_url"`
	// IssuedAt is when the person issued it, in Unix seconds.
	IssuedAt int64 `json:"issued_at"`
	// Used is true once a push used it.
	Used bool `json:"used"`
}
