// Package shortroot makes the temporary directories that tests put Unix
// sockets under. A socket's path is limited to 107 bytes (sun_path is 108
// with its NUL), so such a directory is never derived from the checkout's
// path, the working directory or TMPDIR, whose depth is the user's: it is a
// fresh directory directly under /tmp, whatever the checkout's depth.
package shortroot

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// MaxSocketPath is the longest path a Unix socket can be bound to.
const MaxSocketPath = 107

// parent is fixed, not os.TempDir: TMPDIR may be as deep as a checkout.
const parent = "/tmp"

// Dir makes /tmp/<prefix><random> and removes it when the test ends. Each
// of sockets, relative to the directory, is a socket the test will make
// there; one whose full path would be too long fails the test now, naming it.
func Dir(tb testing.TB, prefix string, sockets ...string) string {
	tb.Helper()
	dir := mkdir(tb, prefix, sockets)
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// Keep is Dir for a test that leaves its directory for inspection when it
// fails: removed when the test passed, named in the log when it failed.
func Keep(tb testing.TB, prefix string, sockets ...string) string {
	tb.Helper()
	dir := mkdir(tb, prefix, sockets)
	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("kept %s for inspection", dir)
			return
		}
		os.RemoveAll(dir)
	})
	return dir
}

func mkdir(tb testing.TB, prefix string, sockets []string) string {
	tb.Helper()
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		tb.Fatalf("making a short directory for sockets: %v", err)
	}
	if err := Fits(dir, sockets...); err != nil {
		os.RemoveAll(dir)
		tb.Fatal(err)
	}
	return dir
}

// Fits returns an error naming the first of sockets (relative to dir)
// whose full path a Unix socket cannot be bound to.
func Fits(dir string, sockets ...string) error {
	for _, s := range sockets {
		if p := filepath.Join(dir, s); len(p) > MaxSocketPath {
			return fmt.Errorf("socket path %s is %d bytes, over the %d a Unix socket allows: shorten the prefix %q or the socket's place",
				p, len(p), MaxSocketPath, filepath.Base(dir))
		}
	}
	return nil
}
