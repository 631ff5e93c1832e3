package bundlesource

import (
	"fmt"
	"io"
)

// TerminalNote is what a command says before it reads a bundle typed on
// the terminal (- with stdin a terminal), so it never waits silently.
type TerminalNote struct {
	// Command names the command that reads.
	Command string
}

// WriteText says where the bundle is read from and how to end it.
func (n TerminalNote) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s: reading a bundle from the terminal; end it with Ctrl-D\n", n.Command)
	return err
}
