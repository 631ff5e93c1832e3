package gather

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

// TestWrite: Open creates the directory; each file lands whole with its
// bytes, JSON as --output json writes it; a link at a file's name is
// replaced, never followed; no temporary file is left behind.
func TestWrite(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, dir string) // what the directory holds before
		files func(t *testing.T) Files
	}{
		{"new nested directory", nil, func(t *testing.T) Files {
			return Files{MetricsFile: []byte("a 1\n")}
		}},
		{"json beside text", nil, func(t *testing.T) Files {
			f := Files{MetricsFile: []byte("a 1\n")}
			if err := f.AddJSON(StatusFile, map[string]string{"url": "http://a/?b=1&c=<d>"}); err != nil {
				t.Fatal(err)
			}
			return f
		}},
		{"previous file replaced", func(t *testing.T, dir string) {
			mustWrite(t, filepath.Join(dir, WaitFile), "old")
		}, func(t *testing.T) Files { return Files{WaitFile: []byte("new\n")} }},
		{"link at the name replaced, not followed", func(t *testing.T, dir string) {
			if err := os.Symlink(outside, filepath.Join(dir, UsageFile)); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T) Files { return Files{UsageFile: []byte("null\n")} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "a", "b")
			if tc.plant != nil {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				tc.plant(t, dir)
			}
			files := tc.files(t)
			d, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Write(files); err != nil {
				t.Fatal(err)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != len(files) {
				t.Errorf("the directory holds %d entries, want %d (no temporary file left): %v", len(entries), len(files), entries)
			}
			for name, want := range files {
				p := filepath.Join(dir, name)
				if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
					t.Errorf("%s: %v, want a regular file", name, err)
					continue
				}
				if got, _ := os.ReadFile(p); !bytes.Equal(got, want) {
					t.Errorf("%s holds %q, want %q", name, got, want)
				}
			}
			if got, _ := os.ReadFile(outside); string(got) != "keep" {
				t.Errorf("the file a link pointed to now holds %q", got)
			}
		})
	}
}

// TestAddJSON: a gathered JSON file holds what --output json writes.
func TestAddJSON(t *testing.T) {
	for _, v := range []any{nil, []int{}, map[string]string{"a": "<&>"}} {
		f := Files{}
		if err := f.AddJSON(StatusFile, v); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := output.Write(&want, output.JSON, v); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f[StatusFile], want.Bytes()) {
			t.Errorf("%v: gathered %q, --output json %q", v, f[StatusFile], want.Bytes())
		}
	}
}

// TestOpenRefuses: a directory that cannot be made is refused naming
// --gather, before anything is written.
func TestOpenRefuses(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	mustWrite(t, file, "x")
	for _, path := range []string{file, filepath.Join(file, "sub")} {
		if _, err := Open(path); err == nil || !strings.HasPrefix(err.Error(), "--gather: ") {
			t.Errorf("Open(%s): %v, want an error naming --gather", path, err)
		}
	}
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
