// Package fifotest makes FIFOs for tests of readers that must open a path
// once: a FIFO opened a second time waits for a writer that has gone.
package fifotest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Once makes a FIFO whose writer writes doc once, when a reader opens it,
// and closes it. When the test ends, a writer nobody read and a reader
// left waiting in a second open are both let go, so a reader that opens
// twice hangs only until the test's timeout names it.
func Once(t *testing.T, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bundle.yaml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			_, _ = f.WriteString(doc)
			f.Close()
		}
	}()
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close() // frees the writer if nobody read
		}
		<-wrote
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close() // frees a reader blocked in a second open
		}
	})
	return path
}
