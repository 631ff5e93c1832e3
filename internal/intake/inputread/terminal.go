package inputread

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IsTerminal says r is a terminal: a command that would read its input from
// stdin says what it expects instead of waiting silently for typing. A pipe,
// a file, /dev/null or a test's reader is not one.
func IsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
