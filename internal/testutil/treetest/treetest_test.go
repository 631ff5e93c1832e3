package treetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder keeps what AssertSame reports instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestAssertSameSeesEachKindOfChange(t *testing.T) {
	cases := []struct {
		name   string
		level  Level
		change func(dir string) error
		want   string // "" means AssertSame must stay silent
	}{
		{"nothing", Exact, func(string) error { return nil }, ""},
		{"same bytes, new inode", Exact, func(d string) error { return rewrite(d, "a", "one") }, "rewritten, not put back"},
		{"same bytes, new inode, content level", Content, func(d string) error { return rewrite(d, "a", "one") }, ""},
		{"other bytes", Content, func(d string) error { return rewrite(d, "a", "two") }, "other content"},
		{"other bytes, shape level", Shape, func(d string) error { return rewrite(d, "a", "two") }, ""},
		{"link retargeted", Content, func(d string) error {
			return relink(filepath.Join(d, "l"), "b")
		}, "other content"},
		{"mode", Shape, func(d string) error { return os.Chmod(filepath.Join(d, "a"), 0o600) }, "has mode"},
		{"missing", Shape, func(d string) error { return os.Remove(filepath.Join(d, "a")) }, "a is missing"},
		{"extra", Shape, func(d string) error { return os.WriteFile(filepath.Join(d, "c"), nil, 0o644) }, "c is extra"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a"), []byte("one"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("a", filepath.Join(dir, "l")); err != nil {
				t.Fatal(err)
			}
			before := Snapshot(t, dir, tc.level)
			if err := tc.change(dir); err != nil {
				t.Fatal(err)
			}
			r := &recorder{TB: t}
			AssertSame(r, "the trees", before, Snapshot(t, dir, tc.level))
			got := strings.Join(r.errs, "\n")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("AssertSame reported %q, want %q", got, tc.want)
			}
		})
	}
}

// rewrite replaces name with a new file holding data, as a careless undo would.
func rewrite(dir, name, data string) error {
	tmp := filepath.Join(dir, name+".new")
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, name))
}

func relink(link, target string) error {
	if err := os.Remove(link); err != nil {
		return err
	}
	return os.Symlink(target, link)
}
