package inputread

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileWithin: a FIFO without a writer, and one whose writer never
// ends, are refused when the context ends, naming the path and wrapping
// ErrNoEnd; a FIFO that ends and a regular file read as with File.
func TestFileWithin(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		fifo   bool
		writer func(t *testing.T, path string) // feeds the FIFO, in the background
		want   error
		says   string
	}{
		{"no writer", true, nil, ErrNoEnd, "is a FIFO no writer opened before the deadline passed"},
		{"a writer that never ends", true, func(t *testing.T, p string) {
			if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
				t.Cleanup(func() { w.Close() })
			}
		}, ErrNoEnd, "had not ended when the deadline passed"},
		{"a writer that ends", true, func(_ *testing.T, p string) {
			if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
				_, _ = w.WriteString("data")
				w.Close()
			}
		}, nil, ""},
		{"a regular file", false, nil, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := regular
			if tc.fifo {
				path = filepath.Join(t.TempDir(), "fifo")
				if err := syscall.Mkfifo(path, 0o600); err != nil {
					t.Skipf("cannot make a FIFO here: %v", err)
				}
				t.Cleanup(func() { // frees an open still waiting for its other end
					if f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
						f.Close()
					}
				})
			}
			if tc.writer != nil {
				go tc.writer(t, path)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			data, err := FileWithin(ctx, path, small)
			if tc.want == nil {
				if err != nil || string(data) != "data" {
					t.Fatalf("got %q, %v; want the data", data, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), path+" ") || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %v; want %v naming %s and saying %q", err, tc.want, path, tc.says)
			}
		})
	}
}
