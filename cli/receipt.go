package cli

import "github.com/spf13/cobra"

func newReceiptCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "receipt",
		Short: "Show, export and verify signed verify receipts",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newReceiptShowCmd(g), newReceiptExportCmd(g), newReceiptVerifyCmd(g))
	return cmd
}
