package renderedroot

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// excerptBytes is how much of a file an error about it shows.
const excerptBytes = 16

// fileError reports a file render listed that does not parse as render
// writes it. The parser's own message can quote the whole document
// (kyaml's "node contents:"), and the file may be a hard link to any file
// on the host, so the message keeps the parser's first line without that
// quote, and a short escaped excerpt of the file: enough to recognise it,
// never its contents.
func fileError(abs string, data []byte, err error) error {
	why, _, _ := strings.Cut(err.Error(), "\n")
	why = strings.TrimSuffix(strings.TrimSuffix(why, ":"), ": node contents")
	return fmt.Errorf("%s is not what render wrote (%s; the file begins `%s`): run render again to restore it",
		abs, textsafe.Excerpt(why, 160), textsafe.Excerpt(string(data), excerptBytes))
}
