package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
)

// TestWriteStateFault: when the new state cannot be written or flushed,
// WriteState reports that failure and keeps the old state file; it never
// renames a temporary file it could not write or sync into place.
func TestWriteStateFault(t *testing.T) {
	for _, op := range []hostfs.Op{hostfs.OpWrite, hostfs.OpSync} {
		t.Run(string(op), func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, stateDir), 0o755); err != nil {
				t.Fatal(err)
			}
			h, err := hostfs.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if err := WriteState(h, &State{Version: stateVersion, Namespace: "old"}); err != nil {
				t.Fatal(err)
			}
			injected := errors.New("injected fault")
			h.Fault = func(o hostfs.Op, rel string) error {
				if o == op && strings.Contains(rel, ".kb-tmp-") {
					return injected
				}
				return nil
			}
			err = WriteState(h, &State{Version: stateVersion, Namespace: "new"})
			if !errors.Is(err, injected) || !strings.Contains(err.Error(), "write state file") {
				t.Fatalf("WriteState with a %s fault = %v, want the injected fault wrapped as a state-file write", op, err)
			}
			st, err := ReadState(root)
			if err != nil {
				t.Fatal(err)
			}
			if st.Namespace != "old" {
				t.Errorf("state namespace = %q after a failed write, want the old state kept", st.Namespace)
			}
			entries, err := os.ReadDir(filepath.Join(root, stateDir))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if hostfs.IsScratch(e.Name()) {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}
