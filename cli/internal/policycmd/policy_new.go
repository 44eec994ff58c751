package policycmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/policies"
)

type newOptions struct {
	name string
	lang string
	from string
}

func newPolicyNewCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &newOptions{}
	cmd := &cobra.Command{
		Use:   "new NAME --lang rego|cel | --from content|documents|imports|tool|files [--lang rego|cel]",
		Short: "Scaffold a team gate in tausik/policies/NAME with passing fixtures",
		Long: "Scaffolds a working team gate in tausik/policies/NAME, with FAILED and PASSED fixtures\n" +
			"that pass `policy test` and `policy mutate --min-score 1` as written. --from picks the\n" +
			"example: files (a file-size limit, rego or cel; the default), content (lines of files\n" +
			"named by glob matched by a regular expression, cel), documents (parsed workflow YAML,\n" +
			"rego), imports (banned Python and Go imports, rego) or tool (an agent's shell call runs\n" +
			"no denied program, rego; trigger pre-write, judged by the host's hook).\n" +
			"Exit codes: 0 created, 2 usage (bad name, unknown kind or language, gate exists).",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runPolicyNew(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.lang, "lang", "", "policy language: rego or cel (with --from: the example's own by default)")
	cmd.Flags().StringVar(&opts.from, "from", "", "the example to start from: content, documents, imports, tool or files")
	return cmd
}

func runPolicyNew(g *cmdbase.Globals, opts *newOptions) error {
	if opts.from == "" && opts.lang == "" {
		return cmdbase.UsageErr(errors.New(`required flag(s) "lang" not set`))
	}
	kind := opts.from
	if kind == "" {
		kind = gate.KindFiles
	}
	root, err := g.ProjectRoot()
	if err != nil {
		return err
	}
	files, err := gate.ScaffoldFrom(root, opts.name, kind, opts.lang, policies.FS)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintf(g.Stdout, "created %s\n", f)
	}
	fmt.Fprintf(g.Stdout, "next: edit the policy, then run `tausik policy test --gate %s`\n", opts.name)
	return nil
}
