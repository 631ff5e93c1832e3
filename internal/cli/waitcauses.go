package cli

import (
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/gate"
)

// helpWidth is how wide wait --help's generated paragraph wraps, as the
// hand-wrapped text around it.
const helpWidth = 75

// waitCauses is wait --help's list of causes, read from the gate's table of
// causes, so a cause added there is in the help too.
func waitCauses() string {
	var items []string
	for _, c := range gate.Causes() {
		items = append(items, c.Help())
	}
	last := len(items) - 1
	return wrap(strings.Join(items[:last], ", ")+", and "+items[last]+".", helpWidth)
}

// wrap breaks text into lines of at most width characters at spaces; a
// word longer than width gets a line of its own.
func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for _, word := range strings.Fields(text) {
		switch {
		case line == 0:
		case line+1+len(word) > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += len(word)
	}
	return b.String()
}
