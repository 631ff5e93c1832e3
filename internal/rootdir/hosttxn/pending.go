package hosttxn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// RecoverPending finishes or undoes a render an interrupted run left
// under root, and the scratch files a killed run left, so a diagnosis
// (status) reports a host render can explain; it says how (the session's
// Recovered, "" for nothing to do). With neither it changes nothing and
// takes no lock. It waits for the lock at most wait, which lockFlag names
// (status's --timeout): the wait of a diagnosis is bounded, and a run
// holding the lock finishes or undoes its own journal anyway. A root that
// is no host root is left to the diagnosis to report.
func RecoverPending(root string, wait time.Duration, lockFlag string) (string, error) {
	// The lock wait is the caller's own bound (LockTimeout), so it ends
	// as "locked", not as a deadline's "timed out".
	s, err := Begin(context.Background(), root, SessionOptions{
		OnlyIfPending: true, LockTimeout: wait, LockFlag: lockFlag,
	})
	var bad *RootError
	var locked *hostfs.LockedError
	switch {
	case errors.As(err, &bad):
		return "", nil
	case errors.As(err, &locked):
		return "", fmt.Errorf("an interrupted run waits to be recovered, and %w", locked)
	case err != nil:
		return "", err
	}
	defer s.Close()
	return s.Recovered, nil
}
