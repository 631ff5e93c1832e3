package teardown

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/statetest"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
)

func stateOwner(t *testing.T, root string) string {
	t.Helper()
	st, err := statetest.Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if st.Owner == "" {
		t.Fatal("render recorded no owner id")
	}
	return st.Owner
}

// marked gives an object the owner marker (and a UID, as the API server would).
func marked(u *unstructured.Unstructured, owner string) *unstructured.Unstructured {
	u.SetAnnotations(map[string]string{hostlayout.AnnotationOwner: owner})
	u.SetUID(types.UID("uid-" + u.GetKind() + "-" + u.GetName()))
	return u
}

// TestTeardownDeletesOnlyItsOwnObjects: teardown reads each live object
// and deletes it only when it carries this root's owner marker; anything
// else is refused, said why, left in place and no longer recorded.
func TestTeardownDeletesOnlyItsOwnObjects(t *testing.T) {
	const ns = "openshift-bootstrap-konnectivity"
	cases := []struct {
		name        string
		secretOwner string // "" = no marker at all
		stateOwner  func(string) string
		wantDeleted []string
		wantRefused []string
		wantWhy     string
	}{
		{"all ours", "ours", keep, []string{"DaemonSet " + ns + "/konnectivity-agent", "Secret " + ns + "/konnectivity-agent-certs", "Namespace " + ns}, nil, ""},
		{"an unmarked Secret", "", keep, []string{"DaemonSet " + ns + "/konnectivity-agent", "Namespace " + ns}, []string{"Secret " + ns + "/konnectivity-agent-certs"}, "has no " + hostlayout.AnnotationOwner + " annotation"},
		{"another root's Secret", "someone-else", keep, []string{"DaemonSet " + ns + "/konnectivity-agent", "Namespace " + ns}, []string{"Secret " + ns + "/konnectivity-agent-certs"}, `annotation is "someone-else"`},
		{"a state without an owner", "ours", func(string) string { return "" }, nil,
			[]string{"DaemonSet " + ns + "/konnectivity-agent", "Secret " + ns + "/konnectivity-agent-certs", "Namespace " + ns}, "records no owner id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := rendered(t)
			owner := stateOwner(t, root)
			secret := obj("v1", "Secret", ns, "konnectivity-agent-certs")
			switch tc.secretOwner {
			case "ours":
				marked(secret, owner)
			case "":
			default:
				marked(secret, tc.secretOwner)
			}
			api := newFakeAPI(t,
				marked(obj("v1", "Namespace", "", ns), owner),
				secret,
				marked(obj("apps/v1", "DaemonSet", ns, "konnectivity-agent"), owner),
			)
			setStateOwner(t, root, tc.stateOwner(owner))
			rep, err := Run(context.Background(), Options{Root: root, Cluster: api.Cluster})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rep.Deleted, ",") != strings.Join(tc.wantDeleted, ",") || strings.Join(rep.Refused, ",") != strings.Join(tc.wantRefused, ",") {
				t.Errorf("deleted %v, refused %v; want %v and %v", rep.Deleted, rep.Refused, tc.wantDeleted, tc.wantRefused)
			}
			deleted := map[string]bool{}
			for _, a := range api.client.Actions() {
				if d, ok := a.(k8stesting.DeleteActionImpl); ok {
					deleted[d.Name] = true
				}
			}
			for _, r := range tc.wantRefused {
				name := r[strings.LastIndexAny(r, " /")+1:]
				if deleted[name] {
					t.Errorf("a DELETE was sent for refused %s", r)
				}
			}
			if tc.wantWhy != "" && !strings.Contains(strings.Join(rep.Warnings, "\n"), tc.wantWhy) {
				t.Errorf("warnings %q do not say %q", rep.Warnings, tc.wantWhy)
			}
			if st, _ := statetest.Read(root); st != nil && len(st.ClusterObjects) != 0 {
				t.Errorf("refused objects stay recorded: %+v", st.ClusterObjects)
			}
		})
	}
}

func keep(s string) string { return s }

// setStateOwner rewrites the owner id in root's state, as an older render
// (none) or a tampered state would have it.
func setStateOwner(t *testing.T, root, owner string) {
	t.Helper()
	st, err := statetest.Read(root)
	if err != nil {
		t.Fatal(err)
	}
	st.Owner = owner
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := statefile.Write(h, st); err != nil {
		t.Fatal(err)
	}
}

// TestTeardownStopsBetweenClusterObjects: a signal (the cancelled context
// the CLI makes of it) that comes while the first object is being deleted
// lets that delete finish, then stops teardown before the next object; the
// files are removed and the objects not deleted stay recorded.
func TestTeardownStopsBetweenClusterObjects(t *testing.T) {
	const ns = "openshift-bootstrap-konnectivity"
	root := rendered(t)
	owner := stateOwner(t, root)
	api := newFakeAPI(t,
		marked(obj("v1", "Namespace", "", ns), owner),
		marked(obj("v1", "Secret", ns, "konnectivity-agent-certs"), owner),
		marked(obj("apps/v1", "DaemonSet", ns, "konnectivity-agent"), owner),
	)
	ctx, cancel := context.WithCancelCause(context.Background())
	signal := errors.New("interrupted by SIGTERM")
	api.client.PrependReactor("delete", "*", func(k8stesting.Action) (bool, runtime.Object, error) {
		cancel(signal)
		return false, nil, nil // the delete itself goes on
	})
	rep, err := Run(ctx, Options{Root: root, Cluster: api.Cluster})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Deleted) != 1 || rep.Stopped != signal || len(rep.Pending) != 2 {
		t.Fatalf("deleted %v, stopped %v, pending %v; want one deleted, then stopped with two recorded", rep.Deleted, rep.Stopped, rep.Pending)
	}
	st, err := statetest.Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Files) != 0 || len(st.ClusterObjects) != 2 {
		t.Errorf("state after the stop: files %v, objects %v; want no files and the two objects", st.Files, st.ClusterObjects)
	}
	if _, err := os.Lstat(filepath.Join(root, staticPod)); err == nil {
		t.Errorf("the static pod manifest survived")
	}
}

// TestTeardownRefusedDeleteKeepsTheCount: a delete the API server refuses
// (403) fails teardown, the state is left recording every object, and the
// report says so: "still recorded" counts them all, not none.
func TestTeardownRefusedDeleteKeepsTheCount(t *testing.T) {
	const ns = "openshift-bootstrap-konnectivity"
	root := rendered(t)
	owner := stateOwner(t, root)
	api := newFakeAPI(t,
		marked(obj("v1", "Namespace", "", ns), owner),
		marked(obj("v1", "Secret", ns, "konnectivity-agent-certs"), owner),
		marked(obj("apps/v1", "DaemonSet", ns, "konnectivity-agent"), owner),
	)
	api.client.PrependReactor("delete", "*", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "daemonsets"}, "konnectivity-agent", errors.New("no"))
	})
	rep, err := Run(context.Background(), Options{Root: root, Cluster: api.Cluster})
	if err == nil {
		t.Fatal("a refused delete did not fail teardown")
	}
	st, rerr := statetest.Read(root)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if len(rep.Pending) != len(st.ClusterObjects) || len(st.ClusterObjects) == 0 {
		t.Errorf("the report counts %d still recorded, the state records %d", len(rep.Pending), len(st.ClusterObjects))
	}
}
