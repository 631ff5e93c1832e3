package hosttxn

import (
	"io/fs"
	"os/exec"
	"path"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"
)

// Host paths a render or certs run writes (docs/bundle-shape.md), relative
// to the root.
const (
	podRel    = "etc/kubernetes/manifests/konnectivity-server-pod.yaml"
	secretRel = "opt/openshift/manifests/" + hostlayout.AgentSecretFileName
	certDir   = "opt/openshift/tls/konnectivity"
)

// file is one file a test transaction wants on the host.
type file struct {
	rel, placement, data string
	mode                 fs.FileMode
	aside                bool // Change.Aside: a certificate or key replaced
}

// cert is a file of the certificate directory, private when it is a key.
func cert(name, data string) file {
	mode, aside := fs.FileMode(0o644), false
	if path.Ext(name) == ".key" {
		mode = 0o600
	}
	if name != hostlayout.CACertFile && name != hostlayout.CAKeyFile {
		aside = true // certs sets Aside on the leaves it replaces
	}
	return file{rel: certDir + "/" + name, placement: hostlayout.PlacementCertificate, data: data, mode: mode, aside: aside}
}

// bundle is a render's files of generation gen ("v1", "v2"), with the CA
// pair of caGen.
func bundle(gen, caGen string) []file {
	return append(certSet(gen, caGen),
		file{rel: podRel, placement: hostlayout.PlacementStaticPod, data: "pod " + gen, mode: 0o644},
		file{rel: secretRel, placement: hostlayout.PlacementClusterManifest, data: "secret " + gen, mode: 0o644},
		file{rel: hostlayout.StatePath, placement: hostlayout.PlacementState, data: "state " + gen, mode: 0o644},
	)
}

// certSet is a certs run's files: the CA of caGen and leaves of gen.
func certSet(gen, caGen string) []file {
	return []file{
		cert(hostlayout.CACertFile, "ca.crt "+caGen), cert(hostlayout.CAKeyFile, "ca.key "+caGen),
		cert(hostlayout.ServerCertFile, "server.crt "+gen), cert(hostlayout.ServerKeyFile, "server.key "+gen),
	}
}

// scenario is one transaction: the host it starts from (the files of
// base, written by a transaction first) and the files it wants, plus
// what it removes.
type scenario struct {
	name   string
	base   []file
	want   []file
	remove []file
}

// scenarios cover every journal operation: writes into new directories
// with the state chain staged (fresh), backups, asides and the parked
// static pod (update), a removal with the pod parked and put back
// (remove), the pod removed first (disable), and a run that writes no
// state and takes its state chain with it (certs).
var scenarios = []scenario{
	{name: "fresh render", want: bundle("v1", "v1")},
	{name: "update", base: bundle("v1", "v1"), want: bundle("v2", "v1")},
	{name: "remove", base: bundle("v1", "v1"), want: withState(bundle("v1", "v1")[:5], "v2"), remove: []file{bundle("v1", "v1")[5]}},
	{name: "disable", base: bundle("v1", "v1"), want: withState(nil, "v2"), remove: bundle("v1", "v1")[:6]},
	{name: "certs fresh", want: certSet("v1", "v1")},
	{name: "certs refresh", base: certSet("v1", "v1"), want: certSet("v2", "v1")},
}

// withState is files with the state file of generation gen added.
func withState(files []file, gen string) []file {
	out := append([]file(nil), files...)
	return append(out, file{rel: hostlayout.StatePath, placement: hostlayout.PlacementState, data: "state " + gen, mode: 0o644})
}

// plan compares the scenario's files with the host under h, as render and
// certs do, and returns Apply's changes and directories.
func (sc scenario) plan(t *testing.T, h *hostfs.Root) ([]Change, []string) {
	t.Helper()
	var changes []Change
	parents := []string{hostlayout.StateDir}
	for _, f := range sc.want {
		action, old, err := Compare(h, f.rel, []byte(f.data), f.mode)
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, Change{Rel: f.rel, Placement: f.placement, Data: []byte(f.data), Mode: f.mode, Action: action, Old: old, Aside: f.aside})
		parents = append(parents, path.Dir(f.rel))
	}
	for _, f := range sc.remove {
		changes = append(changes, Change{Rel: f.rel, Placement: f.placement, Action: Remove, Old: fileSHA(h, f.rel)})
	}
	dirs, err := MissingDirs(h, parents...)
	if err != nil {
		t.Fatal(err)
	}
	return changes, dirs
}

// applyFiles writes files under a new root with a transaction of their own
// and returns the root ("" files: an empty root).
func applyFiles(t *testing.T, files []file) string {
	t.Helper()
	root := t.TempDir()
	if len(files) == 0 {
		return root
	}
	h := openRoot(t, root)
	changes, dirs := scenario{want: files}.plan(t, h)
	if err := Apply(t.Context(), h, "render", "the bundle", changes, dirs); err != nil {
		t.Fatalf("writing the base: %v", err)
	}
	return root
}

// expected returns the root the scenario starts from and the tree an
// uninterrupted run leaves (treetest.Content).
func (sc scenario) expected(t *testing.T) (base string, after map[string]treetest.Entry) {
	t.Helper()
	base = applyFiles(t, sc.base)
	ref := copyRoot(t, base)
	h := openRoot(t, ref)
	changes, dirs := sc.plan(t, h)
	if err := Apply(t.Context(), h, "render", "the bundle", changes, dirs); err != nil {
		t.Fatalf("an uninterrupted run: %v", err)
	}
	return base, treetest.Snapshot(t, ref, treetest.Content)
}

func openRoot(t *testing.T, root string) *hostfs.Root {
	t.Helper()
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// copyRoot is a new root holding a copy of base, inodes and times kept
// apart from base's own.
func copyRoot(t *testing.T, base string) string {
	t.Helper()
	root := t.TempDir()
	if out, err := exec.Command("cp", "-a", base+"/.", root).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v\n%s", base, err, out)
	}
	return root
}
