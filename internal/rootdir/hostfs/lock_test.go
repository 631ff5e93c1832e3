package hostfs

import (
	"strings"
	"testing"
	"time"
)

// TestLockedErrorSaysTheWaitRounded: a lock wait cut short by a command's
// --timeout (teardown's clampLockWait: what the deadline left) is a
// duration of nanoseconds; the message says it as a person reads it.
func TestLockedErrorSaysTheWaitRounded(t *testing.T) {
	for _, tc := range []struct {
		wait time.Duration
		says string
	}{
		{30 * time.Second, "still held after waiting 30s;"},
		{1999799079 * time.Nanosecond, "still held after waiting 2s;"},
		{14530000000 * time.Nanosecond, "still held after waiting 14.5s;"},
		{0, "still held after waiting 0s;"},
	} {
		e := &LockedError{Root: "/r", Holder: "pid 1 (x)", Timeout: tc.wait, Flag: "--timeout"}
		if got := e.Error(); !strings.Contains(got, tc.says) {
			t.Errorf("waited %v: %q, want it to say %q", tc.wait, got, tc.says)
		}
	}
}
