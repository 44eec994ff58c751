package cli

import "github.com/spf13/cobra"

func newReceiptCmd(g *globals) *cobra.Command {
	return newGroupCmd("receipt", "Show, export and verify signed verify receipts",
		newReceiptShowCmd(g), newReceiptExportCmd(g), newReceiptVerifyCmd(g))
}
