package hoststatus

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

// TestLoadFailureHint: a root the user may not read is "needs root", not
// "run render first"; as root, or for a root with nothing rendered, the
// hint stays render's.
func TestLoadFailureHint(t *testing.T) {
	denied := fmt.Errorf("open var/lib/konnectivity-bundle/state.json: %w", fs.ErrPermission)
	missing := fmt.Errorf("open var/lib/konnectivity-bundle/state.json: %w", fs.ErrNotExist)
	for _, tc := range []struct {
		name string
		err  error
		euid int
		want string
	}{
		{"non-root, files there", denied, 1000, "status needs root"},
		{"root, denied anyway", denied, 0, "run konnectivity-bundle render"},
		{"non-root, nothing rendered", missing, 1000, "run konnectivity-bundle render"},
		{"other error", errors.New("state.json is damaged"), 1000, "run konnectivity-bundle render"},
	} {
		r := loadFailure(tc.err, tc.euid)
		if fix := result.Fix(r); !strings.Contains(fix, tc.want) {
			t.Errorf("%s: fix %q, want it to say %q", tc.name, fix, tc.want)
		}
	}
}
