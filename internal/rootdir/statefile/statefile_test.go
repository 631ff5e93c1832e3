package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// TestWriteFault: when the new state cannot be written or flushed,
// Write reports that failure and keeps the old state file; it never
// renames a temporary file it could not write or sync into place.
func TestWriteFault(t *testing.T) {
	for _, op := range []hostfs.Op{hostfs.OpWrite, hostfs.OpSync} {
		t.Run(string(op), func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, hostlayout.StateDir), 0o755); err != nil {
				t.Fatal(err)
			}
			h, err := hostfs.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if err := Write(h, &hostlayout.State{Version: hostlayout.StateVersion, Namespace: "old"}); err != nil {
				t.Fatal(err)
			}
			injected := errors.New("injected fault")
			h.Fault = func(o hostfs.Op, rel string) error {
				if o == op && strings.Contains(rel, ".kb-tmp-") {
					return injected
				}
				return nil
			}
			err = Write(h, &hostlayout.State{Version: hostlayout.StateVersion, Namespace: "new"})
			if !errors.Is(err, injected) || !strings.Contains(err.Error(), "write state file") {
				t.Fatalf("Write with a %s fault = %v, want the injected fault wrapped as a state-file write", op, err)
			}
			st, err := Read(h)
			if err != nil {
				t.Fatal(err)
			}
			if st.Namespace != "old" {
				t.Errorf("state namespace = %q after a failed write, want the old state kept", st.Namespace)
			}
			entries, err := os.ReadDir(filepath.Join(root, hostlayout.StateDir))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if hostlayout.IsScratch(e.Name()) {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

// openRoot is a fresh root with the state directory made.
func openRoot(t *testing.T) (string, *hostfs.Root) {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, hostlayout.StateDir), 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return root, h
}

// TestStateRoundTrip: what Write writes, Read reads back equal,
// and writing it again gives the same bytes (no timestamps, sorted files).
func TestStateRoundTrip(t *testing.T) {
	root, h := openRoot(t)
	want := &hostlayout.State{
		Version: hostlayout.StateVersion,
		Files: []hostlayout.StateFile{
			{Path: "opt/openshift/manifests/" + hostlayout.DaemonSetFileName, SHA256: "ab", Placement: hostlayout.PlacementClusterManifest, Mode: "0644"},
			{Path: "etc/kubernetes/manifests/konnectivity-server-pod.yaml", SHA256: "cd", Placement: hostlayout.PlacementStaticPod, Mode: "0644"},
			{Path: "opt/openshift/tls/konnectivity/ca.key", SHA256: "ef", Placement: hostlayout.PlacementCertificate, Mode: "0600"},
			{Path: hostlayout.StatePath, Placement: hostlayout.PlacementState, Mode: "0644"},
		},
		Dirs:           []string{"opt/openshift/tls", "opt/openshift/tls/konnectivity"},
		Namespace:      "openshift-bootstrap-konnectivity",
		ClusterObjects: []hostlayout.ObjectRef{{APIVersion: "v1", Kind: "Namespace", Name: "openshift-bootstrap-konnectivity"}},
		Inputs:         "fingerprint",
		Owner:          "0123",
	}
	if err := Write(h, want); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(filepath.Join(root, hostlayout.StatePath))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(h)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, want %+v", got, want)
	}
	again, err := got.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(first) {
		t.Errorf("re-encoding changed the bytes:\n%s\nwant\n%s", again, first)
	}
}

// TestReadRefusesHostileStates: a state render could not have written
// is refused with the state file named and a fix, since render and teardown
// act on the paths it lists; a missing state is ErrNotRendered.
func TestReadRefusesHostileStates(t *testing.T) {
	entry := func(path, placement string) string {
		return `{"version":1,"files":[{"path":"` + path + `","sha256":"","placement":"` + placement + `","mode":"0644"}]}`
	}
	for _, tc := range []struct{ name, state, want string }{
		{"not JSON", "{not json", "is damaged"},
		{"duplicate key", `{"version":1,"version":1,"files":[]}`, "is damaged"},
		{"unknown field", `{"version":1,"files":[],"extra":true}`, "is damaged"},
		{"future version", `{"version":2,"files":[]}`, "has version 2"},
		{"path out of the root", entry("../outside/victim", hostlayout.PlacementKASConfigOverride), "is not a clean path"},
		{"absolute path", entry("/etc/passwd", hostlayout.PlacementKASConfigOverride), "is absolute"},
		{"unknown placement", entry("etc/shadow", "anything"), "unknown placement"},
		{"foreign certificate name", entry("opt/tls/id_rsa", hostlayout.PlacementCertificate), "allows only ca.crt"},
		{"foreign cluster manifest", entry("opt/openshift/manifests/99-other.yaml", hostlayout.PlacementClusterManifest), "allows only " + hostlayout.NamespaceFileName},
		{"scratch name", entry("etc/.x.yaml.kb-tmp-1", hostlayout.PlacementKASConfigOverride), "scratch names"},
		{"staged name", entry("etc/.x.yaml"+hostlayout.StagedMark+"1", hostlayout.PlacementKASConfigOverride), "scratch names"},
		{"file in the state directory", entry(hostlayout.StateDir+"/x.yaml", hostlayout.PlacementKASConfigOverride), "state directory"},
		{"state elsewhere", entry("etc/state.json", hostlayout.PlacementState), "must be " + hostlayout.StatePath},
		{"directory out of the root", `{"version":1,"files":[],"dirs":["../up"]}`, "directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, h := openRoot(t)
			p := filepath.Join(root, hostlayout.StatePath)
			if err := os.WriteFile(p, []byte(tc.state), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Read(h)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("Read = %v, want an error naming %s and saying %q", err, p, tc.want)
			}
		})
	}
	_, h := openRoot(t)
	if _, err := Read(h); !errors.Is(err, ErrNotRendered) || !strings.Contains(err.Error(), "konnectivity-bundle render --root "+h.Dir()) {
		t.Errorf("missing state: %v, want ErrNotRendered with the fix", err)
	}
}
