// Package gather writes the files a command leaves in its --gather
// directory for the log bundle openshift-install gather bootstrap collects
// (docs/troubleshooting.md): status, wait and teardown write there, each
// file whole, through a temporary file and a rename, never through a link.
package gather

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// The files a gather directory holds, and who writes them.
const (
	StatusFile  = "status.json" // status: the --output json report
	MetricsFile = "metrics.txt" // status: the server's /metrics as read
	UsageFile   = "usage.json"  // status and teardown: what used the tunnel
	WaitFile    = "wait.json"   // wait: the --output json verdict
)

// Files are what a command writes into the directory: name to contents.
type Files map[string][]byte

// AddJSON adds name holding v as --output json writes it.
func (f Files) AddJSON(name string, v any) error {
	var b bytes.Buffer
	if err := output.Write(&b, output.JSON, v); err != nil {
		return err
	}
	f[name] = b.Bytes()
	return nil
}

// Dir is a --gather directory that exists.
type Dir struct{ path string }

// Open creates the directory path, and its parents, when missing: wait
// opens it before it starts, so a bad one is refused at once.
func Open(path string) (Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return Dir{}, fmt.Errorf("--gather: %w", err)
	}
	return Dir{path: path}, nil
}

// Write puts each file into the directory through a temporary file and a
// rename, so a log collection running at the same time copies a whole
// file or the previous one.
func (d Dir) Write(files Files) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := writeAtomic(d.path, name, files[name]); err != nil {
			return fmt.Errorf("--gather: %w", err)
		}
	}
	return nil
}

// writeAtomic puts data at name in dir through a hidden temporary file and
// a rename, with render's file layer: no link in dir is followed.
func writeAtomic(dir, name string, data []byte) error {
	h, err := hostfs.Open(dir)
	if err != nil {
		return err
	}
	defer h.Close()
	tmp := hostlayout.TempName(name)
	if err := h.WriteNew(tmp, data, 0o644); err != nil {
		return err
	}
	if err := h.Rename(tmp, name); err != nil {
		_ = h.Remove(tmp)
		return err
	}
	return nil
}
