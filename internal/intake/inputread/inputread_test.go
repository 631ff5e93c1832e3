package inputread

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// small is a kind with a cap tests can cross cheaply.
var small = Kind{Name: "a test input", Cap: 1 << 20}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	under := filepath.Join(dir, "under")
	exact := filepath.Join(dir, "exact")
	over := filepath.Join(dir, "over")
	for path, n := range map[string]int64{under: 10, exact: small.Cap, over: small.Cap + 1} {
		if err := os.WriteFile(path, bytes.Repeat([]byte("a"), int(n)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		arg   string
		stdin string
		size  int   // bytes read when accepted
		want  error // nil = accepted
		msg   string
	}{
		{"file under the cap", under, "", 10, nil, ""},
		{"file exactly the cap", exact, "", int(small.Cap), nil, ""},
		{"file over the cap", over, "", 0, ErrTooLarge, over + " is larger than the 1 MiB cap for a test input"},
		{"a directory", dir, "", 0, ErrDirectory, dir + " is a directory; give a file"},
		{"missing file", filepath.Join(dir, "missing"), "", 0, os.ErrNotExist, "no such file"},
		{"stdin under the cap", "-", "hello", 5, nil, ""},
		{"stdin exactly the cap", "-", strings.Repeat("b", int(small.Cap)), int(small.Cap), nil, ""},
		{"stdin over the cap", "-", strings.Repeat("b", int(small.Cap)+1), 0, ErrTooLarge, "stdin is larger than the 1 MiB cap for a test input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := Read(tc.arg, strings.NewReader(tc.stdin), small)
			if tc.want == nil {
				if err != nil || len(data) != tc.size {
					t.Fatalf("got %d bytes, %v; want %d bytes", len(data), err, tc.size)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) || data != nil {
				t.Fatalf("got %d bytes, %v; want %v with %q", len(data), err, tc.want, tc.msg)
			}
		})
	}
}

// countingReader is an endless stream that counts what was taken from it.
type countingReader struct{ n int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// An endless stdin ends with the cap error, having been read no further
// than the cap and one byte.
func TestEndlessStdin(t *testing.T) {
	r := &countingReader{}
	_, err := Reader(r, "stdin", small)
	var tl *tooLargeError
	if !errors.As(err, &tl) || tl.Name != "stdin" || tl.Kind != small {
		t.Fatalf("got %v, want the cap error for stdin", err)
	}
	if r.n > small.Cap+1 {
		t.Fatalf("read %d bytes, more than the cap and one", r.n)
	}
}

// /dev/zero never ends: the read stops at the cap with the cap error, and
// holds no more than the cap in memory.
func TestDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skipf("no /dev/zero here: %v", err)
	}
	k := Kind{Name: "a test input", Cap: MaxYAML}
	var before, after runtimeMem
	before.read()
	_, err := File("/dev/zero", k)
	after.read()
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "/dev/zero is larger than the 8 MiB cap") {
		t.Fatalf("got %v, want the cap error naming /dev/zero", err)
	}
	// io.ReadAll grows its buffer by doubling: everything it allocated,
	// garbage included, stays within a few times the cap.
	if grew := after.total - before.total; grew > 4*uint64(k.Cap) {
		t.Fatalf("reading /dev/zero allocated %d bytes for a cap of %d", grew, k.Cap)
	}
}

// A FIFO is a stream: read to its end under the cap, refused over it.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		size int
		want error
	}{
		{"under the cap", 1000, nil},
		{"over the cap", int(small.Cap) + 4096, ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("cannot make a FIFO here: %v", err)
			}
			done := make(chan error, 1)
			go func() {
				w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					done <- err
					return
				}
				_, err = w.Write(bytes.Repeat([]byte("x"), tc.size))
				w.Close()
				if errors.Is(err, syscall.EPIPE) {
					err = nil // the reader stopped at the cap and closed its end
				}
				done <- err
			}()
			data, err := File(fifo, small)
			if tc.want == nil && (err != nil || len(data) != tc.size) {
				t.Fatalf("got %d bytes, %v; want %d", len(data), err, tc.size)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if err := <-done; err != nil {
				t.Fatalf("writer: %v", err)
			}
		})
	}
}

func TestFormatCap(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 8 << 20: "8 MiB", 1000: "1000 bytes", 3<<20 + 1: "3145729 bytes"} {
		if got := formatCap(n); got != want {
			t.Errorf("FormatCap(%d) = %q, want %q", n, got, want)
		}
	}
}

// runtimeMem is the process's allocation count at one moment.
type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	m.total = s.TotalAlloc
}
