//go:build e2e

package e2e

import (
	"fmt"
	"time"
)

// eventually calls f every interval until it returns nil or the deadline
// passes; it returns how long it took and the last error.
func eventually(timeout, interval time.Duration, f func() error) (time.Duration, error) {
	start := time.Now()
	deadline := start.Add(timeout)
	for {
		err := f()
		if err == nil {
			return time.Since(start), nil
		}
		if time.Now().After(deadline) {
			return time.Since(start), fmt.Errorf("still failing after %v: %w", timeout, err)
		}
		time.Sleep(interval)
	}
}
