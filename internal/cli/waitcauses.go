package cli

import (
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
)

// helpWidth is how wide --help wraps the paragraphs it builds (wait's causes,
// a list of overlays), as the hand-wrapped text around them.
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
