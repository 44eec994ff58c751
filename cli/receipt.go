package cli

import (
	"github.com/spf13/cobra"
	"github.com/tausik/tausik/cli/internal/cmdbase"
)

func newReceiptCmd(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("receipt", "Show, export and verify signed verify receipts",
		newReceiptShowCmd(g), newReceiptExportCmd(g), newReceiptVerifyCmd(g))
}
