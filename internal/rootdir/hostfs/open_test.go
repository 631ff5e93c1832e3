package hostfs

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/planttest"
)

// TestReadersNeverFollowOrBlock: each reader of the layer, given a link to
// a valid file (or listening socket) outside the root, a FIFO or a dangling
// link at the path it opens, returns an UnsafeError naming that path and
// what is there, without blocking and without opening what is outside.
func TestReadersNeverFollowOrBlock(t *testing.T) {
	readers := []struct {
		name   string
		socket bool
		read   func(r *Root, rel string) error
	}{
		{"ReadFile", false, func(r *Root, rel string) error { _, err := r.ReadFile(rel); return err }},
		{"ReadDirNames", false, func(r *Root, rel string) error { _, err := r.ReadDirNames(rel); return err }},
		{"DialUnix", true, func(r *Root, rel string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c, err := r.DialUnix(ctx, rel)
			if err == nil {
				c.Close()
			}
			return err
		}},
	}
	want := map[planttest.Kind]string{
		planttest.LinkOutside:  "is a symbolic link",
		planttest.DanglingLink: "is a symbolic link",
		planttest.FIFO:         "is a FIFO (named pipe), not a",
	}
	for _, rd := range readers {
		for _, kind := range planttest.Kinds {
			t.Run(rd.name+"/"+string(kind), func(t *testing.T) {
				root := t.TempDir()
				rel := "etc/kubernetes/x"
				path := filepath.Join(root, rel)
				var out *planttest.Outside
				if rd.socket {
					out = planttest.PlantSocket(t, path, kind)
				} else {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte("inside\n"), 0o644); err != nil {
						t.Fatal(err)
					}
					out = planttest.Plant(t, path, kind)
				}
				r, err := Open(root)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				planttest.NoHang(t, rd.name, time.Minute, func() { err = rd.read(r, rel) })
				var ue *UnsafeError
				if !errors.As(err, &ue) || ue.Path != path || !strings.Contains(err.Error(), want[kind]) {
					t.Errorf("got %v, want an UnsafeError naming %s: %q", err, path, want[kind])
				}
				if out.Touched(t) {
					t.Errorf("%s opened %s outside the root", rd.name, out.Path)
				}
			})
		}
	}
}

// TestReadersOpenWhatIsThere: the same readers succeed on the real thing,
// through the ostree top-level link (opt -> var/opt) resolve allows, and a
// missing path is fs.ErrNotExist (for a socket, the dial error the
// kube-apiserver logs).
func TestReadersOpenWhatIsThere(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "var/opt/d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("var/opt", filepath.Join(root, "opt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if data, err := r.ReadFile("opt/d/f"); err != nil || string(data) != "inside\n" {
		t.Errorf("ReadFile = %q, %v", data, err)
	}
	if names, err := r.ReadDirNames("opt/d"); err != nil || len(names) != 2 {
		t.Errorf("ReadDirNames = %q, %v", names, err)
	}
	c, err := r.DialUnix(context.Background(), "opt/d/s")
	if err != nil {
		t.Fatalf("DialUnix: %v", err)
	}
	c.Close()
	if _, err := r.ReadFile("opt/d/none"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	_, err = r.DialUnix(context.Background(), "opt/d/none")
	if want := "dial unix " + filepath.Join(root, "opt/d/none") + ": connect: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("missing socket: %v, want %s", err, want)
	}
	if _, err := r.DialUnix(context.Background(), "opt/d/f"); err == nil || !strings.Contains(err.Error(), "is a regular file, not a socket") {
		t.Errorf("regular file at a socket's path: %v", err)
	}
}
