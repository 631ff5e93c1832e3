package teardown

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/statetest"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

const staticPod = "etc/kubernetes/manifests/konnectivity-server-pod.yaml"

// rendered returns a root with the default bundle rendered into it.
func rendered(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	_, err := render.Run(context.Background(), render.Options{
		Overlay: "ipv4", Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"),
		Image: "quay.io/openshift/origin-apiserver-network-proxy:4.20", Getenv: func(string) string { return "" },
	})
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return root
}

func entries(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if p != root {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTeardownRemovesEverythingRenderWrote(t *testing.T) {
	root := rendered(t)
	rep, err := Run(context.Background(), Options{Root: root, Cluster: fakeCluster(t)})
	if err != nil {
		t.Fatal(err)
	}
	if left := entries(t, root); len(left) != 0 {
		t.Errorf("left on the host: %v", left)
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("warnings: %v", rep.Warnings)
	}
}

func TestTeardownRemovesStaticPodFirstAndStateLast(t *testing.T) {
	root := rendered(t)
	rep, err := Run(context.Background(), Options{Root: root, Cluster: fakeCluster(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Removed) == 0 || rep.Removed[0] != filepath.Join(root, staticPod) {
		t.Fatalf("first removal %v, want the static pod manifest", rep.Removed)
	}
	var lastFile string
	for _, p := range rep.Removed {
		if !strings.HasSuffix(p, "/") {
			lastFile = p
		}
	}
	if lastFile != filepath.Join(root, hostlayout.StatePath) {
		t.Errorf("last file removed %s, want the state file", lastFile)
	}
}

func TestTeardownIsIdempotent(t *testing.T) {
	root := rendered(t)
	cluster := fakeCluster(t)
	if _, err := Run(context.Background(), Options{Root: root, Cluster: cluster}); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Root: root, Cluster: cluster})
	if err != nil {
		t.Fatalf("second teardown: %v", err)
	}
	if len(rep.Removed)+len(rep.Deleted) != 0 {
		t.Errorf("second teardown did something: %+v", rep)
	}
	// issue 10.8: a root with nothing recorded says so instead of a silent "0 removed"
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "nothing was removed") {
		t.Errorf("second teardown warnings = %q, want one saying nothing was recorded", rep.Warnings)
	}
}

func TestTeardownKeepsForeignFiles(t *testing.T) {
	root := rendered(t)
	foreign := filepath.Join(root, "opt/openshift/tls/konnectivity/notes.txt")
	if err := os.WriteFile(foreign, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("foreign file removed: %v", err)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "kept "+filepath.Dir(foreign)) {
		t.Errorf("no warning about the kept directory: %v", rep.Warnings)
	}
}

func TestTeardownFileRemovalIsIdempotentWhenPartlyGone(t *testing.T) {
	root := rendered(t)
	if err := os.Remove(filepath.Join(root, staticPod)); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Root: root, Cluster: fakeCluster(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.AlreadyGone) != 1 || rep.AlreadyGone[0] != filepath.Join(root, staticPod) {
		t.Errorf("already gone: %v", rep.AlreadyGone)
	}
	if left := entries(t, root); len(left) != 0 {
		t.Errorf("left on the host: %v", left)
	}
}

func TestTeardownWithoutKubeconfigKeepsClusterObjectsRecorded(t *testing.T) {
	root := rendered(t)
	rep, err := Run(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	st, err := statetest.Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Files) != 0 || len(st.ClusterObjects) != 3 || len(rep.Pending) != 3 {
		t.Errorf("state after teardown without kubeconfig: %+v", st)
	}
	// A later teardown with a kubeconfig finishes the job.
	if _, err := Run(context.Background(), Options{Root: root, Cluster: fakeCluster(t)}); err != nil {
		t.Fatal(err)
	}
	if left := entries(t, root); len(left) != 0 {
		t.Errorf("left on the host: %v", left)
	}
}

// --- the API part, against client-go's fake dynamic client ---

var (
	gvrNamespace = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	gvrSecret    = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	gvrDaemonSet = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "daemonsets"}
)

type fakeAPI struct {
	*Cluster
	client *dynamicfake.FakeDynamicClient
}

func fakeCluster(t *testing.T, objs ...runtime.Object) *Cluster {
	return newFakeAPI(t, objs...).Cluster
}

func newFakeAPI(t *testing.T, objs ...runtime.Object) *fakeAPI {
	t.Helper()
	lists := map[schema.GroupVersionResource]string{gvrNamespace: "NamespaceList", gvrSecret: "SecretList", gvrDaemonSet: "DaemonSetList"}
	c := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), lists, objs...)
	r, err := kuberead.FromDynamic(c, kuberead.Within(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return &fakeAPI{Cluster: ClusterOver(r), client: c}
}

func obj(apiVersion, kind, ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

func TestTeardownDeletesClusterObjectsInBackgroundNamespaceLast(t *testing.T) {
	const ns = "openshift-bootstrap-konnectivity"
	root := rendered(t)
	owner := stateOwner(t, root)
	api := newFakeAPI(t,
		marked(obj("v1", "Namespace", "", ns), owner),
		marked(obj("v1", "Secret", ns, "konnectivity-agent-certs"), owner),
		marked(obj("apps/v1", "DaemonSet", ns, "konnectivity-agent"), owner),
	)
	rep, err := Run(context.Background(), Options{Root: root, Cluster: api.Cluster})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Deleted) != 3 {
		t.Errorf("deleted %v", rep.Deleted)
	}
	// One read of each object (its owner marker), then its delete: nothing
	// waits or polls.
	var deletes []k8stesting.DeleteActionImpl
	gets := 0
	for _, a := range api.client.Actions() {
		switch a := a.(type) {
		case k8stesting.DeleteActionImpl:
			deletes = append(deletes, a)
		case k8stesting.GetActionImpl:
			gets++
		default:
			t.Errorf("unexpected %s %s: teardown must read each object once and delete it, never wait or poll", a.GetVerb(), a.GetResource())
		}
	}
	if gets != 3 || len(deletes) != 3 || deletes[2].GetResource() != gvrNamespace {
		t.Fatalf("%d gets, deletes %+v; want three of each with the namespace last", gets, deletes)
	}
	for _, d := range deletes {
		if p := d.DeleteOptions.PropagationPolicy; p == nil || *p != metav1.DeletePropagationBackground {
			t.Errorf("%s %s: propagation %v, want Background", d.GetResource().Resource, d.Name, p)
		}
		if pre := d.DeleteOptions.Preconditions; pre == nil || pre.UID == nil {
			t.Errorf("%s %s: delete without a UID precondition", d.GetResource().Resource, d.Name)
		}
	}
	// Run again: everything is NotFound now, which is success.
	root2 := rendered(t)
	rep, err = Run(context.Background(), Options{Root: root2, Cluster: api.Cluster})
	if err != nil {
		t.Fatalf("NotFound must be success: %v", err)
	}
	if len(rep.NotFound) != 3 || len(rep.Deleted) != 0 {
		t.Errorf("second run: deleted %v, not found %v", rep.Deleted, rep.NotFound)
	}
}

// unreachableCluster points the command's reader at a closed port.
func unreachableCluster(t *testing.T) *Cluster {
	t.Helper()
	kc := fakekas.Kubeconfig(t, "", "https://127.0.0.1:1")
	r, err := kuberead.Open(context.Background(), kuberead.Find(kuberead.Lookup{Flag: kc, FlagGiven: true}), kuberead.Within(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return ClusterOver(r)
}

func TestTeardownUnreachableAPIServerIsAWarning(t *testing.T) {
	root := rendered(t)
	rep, err := Run(context.Background(), Options{Root: root, Cluster: unreachableCluster(t)})
	if err != nil {
		t.Fatalf("without --strict an unreachable API server is a warning, got %v", err)
	}
	if !rep.Unreachable || len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0], "unreachable") {
		t.Errorf("report: %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(root, staticPod)); !os.IsNotExist(err) {
		t.Errorf("files must be removed even when the API server is down: %v", err)
	}
	st, err := statetest.Read(root)
	if err != nil || len(st.ClusterObjects) != 3 {
		t.Errorf("cluster objects must stay recorded: %+v, %v", st, err)
	}
}

func TestTeardownUnreachableAPIServerFailsWithStrict(t *testing.T) {
	root := rendered(t)
	_, err := Run(context.Background(), Options{Root: root, Cluster: unreachableCluster(t), Strict: true})
	var ue *UnreachableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("want UnreachableError, got %v", err)
	}
}

func TestRecordedKindsMapper(t *testing.T) {
	cases := []struct {
		gk   schema.GroupKind
		want schema.GroupVersionResource
	}{
		{schema.GroupKind{Kind: "Namespace"}, gvrNamespace},
		{schema.GroupKind{Kind: "Secret"}, gvrSecret},
		{schema.GroupKind{Group: "apps", Kind: "DaemonSet"}, gvrDaemonSet},
		{schema.GroupKind{Group: "networking.k8s.io", Kind: "NetworkPolicy"}, schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies"}},
	}
	for _, tc := range cases {
		m, err := recordedKindsMapper{}.RESTMapping(tc.gk, tc.want.Version)
		if err != nil || m.Resource != tc.want {
			t.Errorf("%v: got %v, %v; want %v", tc.gk, m.Resource, err, tc.want)
		}
	}
}

// TestTeardownNeverRemovesOutsideTheRoot: a directory swapped for a link
// after render, or a state entry pointing up and out, never makes teardown
// delete the file outside the root.
func TestTeardownNeverRemovesOutsideTheRoot(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, root, outside string)
	}{
		{"manifests directory swapped for a link", func(t *testing.T, root, outside string) {
			dir := filepath.Join(root, "opt/openshift/manifests")
			if err := os.Rename(dir, dir+".moved"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, dir); err != nil {
				t.Fatal(err)
			}
		}},
		{"state entry out of the root", func(t *testing.T, root, outside string) {
			p := filepath.Join(root, hostlayout.StatePath)
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, filepath.Join(outside, "konnectivity-00-namespace.yaml"))
			data = []byte(strings.Replace(string(data), "opt/openshift/manifests/konnectivity-00-namespace.yaml", rel, 1))
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, outside := rendered(t), t.TempDir()
			victim := filepath.Join(outside, "konnectivity-00-namespace.yaml")
			if err := os.WriteFile(victim, []byte("not ours\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.plant(t, root, outside)
			if _, err := Run(context.Background(), Options{Root: root}); err == nil {
				t.Errorf("teardown succeeded through a planted path")
			}
			if _, err := os.Stat(victim); err != nil {
				t.Fatalf("teardown removed a file outside the root: %v", err)
			}
		})
	}
}

// TestTeardownRefusesAPlantedPathBeforeRemovingAnything: a link, FIFO or
// directory planted at a recorded path is refused before the first
// removal, so the refusal leaves the host as it was: removing the static
// pod first and then stopping at the planted path left the server stopped
// and the bundle half-removed, and every later teardown stopped there too.
func TestTeardownRefusesAPlantedPathBeforeRemovingAnything(t *testing.T) {
	const planted = "opt/openshift/tls/konnectivity/agent.key" // a certificate: removed last
	for name, plant := range map[string]func(string) error{
		"link":      func(p string) error { return os.Symlink("/etc/passwd", p) },
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"directory": func(p string) error { return os.Mkdir(p, 0o700) },
	} {
		t.Run(name, func(t *testing.T) {
			root := rendered(t)
			p := filepath.Join(root, planted)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := plant(p); err != nil {
				t.Fatal(err)
			}
			before := entries(t, root)
			if _, err := Run(context.Background(), Options{Root: root}); err == nil || !strings.Contains(err.Error(), planted) {
				t.Fatalf("teardown over a planted %s: %v, want an error naming %s", name, err, planted)
			}
			if after := entries(t, root); strings.Join(after, "\n") != strings.Join(before, "\n") {
				t.Errorf("the refused teardown changed the root:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}
