package teardown

import (
	"errors"
	"testing"
)

// TestDoneDecides: teardown's own error decides before the usage report's
// failure, which is then a warning, as it is when a signal decides.
func TestDoneDecides(t *testing.T) {
	own, use := errors.New("own"), errors.New("disk full")
	const named = "the usage report (what used the tunnel) failed: disk full"
	for _, tc := range []struct {
		name          string
		done          Done
		fail, warning string
	}{
		{"both succeeded", Done{}, "", ""},
		{"own error only", Done{Err: own}, "own", ""},
		{"usage report only", Done{UsageErr: use}, "the teardown is done, but " + named, ""},
		{"both: own decides", Done{Err: own, UsageErr: use}, "own", named},
		{"signal and usage report", Done{UsageErr: use, Interrupted: true}, "the teardown is done, but " + named, named},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := errText(tc.done.Failure()); got != tc.fail {
				t.Errorf("Failure() = %q, want %q", got, tc.fail)
			}
			if got := errText(tc.done.Warning()); got != tc.warning {
				t.Errorf("Warning() = %q, want %q", got, tc.warning)
			}
		})
	}
	var ue *UsageError
	if err := (Done{UsageErr: use}).Failure(); !errors.As(err, &ue) || !errors.Is(err, use) {
		t.Errorf("Failure() = %v: want a *UsageError wrapping the report's error", err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
