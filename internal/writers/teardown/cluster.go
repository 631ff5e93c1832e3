package teardown

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Cluster is what teardown needs of the API server: the command's bounded
// reader (internal/intake/kuberead), whose timeout bounds each read and delete,
// so a dead API server costs seconds, not the bootstrap script's budget.
type Cluster struct {
	API    *kuberead.Reader
	Mapper Mapper
	// Deadline, when set, is the command's --timeout: no object is begun
	// once it is done, and the read and delete under way end by it. A
	// signal, unlike it, lets the object under way finish.
	Deadline context.Context
}

// Mapper finds the resource of a kind; meta.RESTMapper satisfies it.
type Mapper interface {
	RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error)
}

// ClusterOver deletes through r, mapping the recorded kinds without a
// discovery round trip.
func ClusterOver(r *kuberead.Reader) *Cluster {
	return &Cluster{API: r, Mapper: recordedKindsMapper{}}
}

// deleteAll issues a background-propagation delete for every recorded
// object that proves to be this root's own, the namespace last, and never
// waits for finalization: waiting hung installs whose finalizers needed a
// webhook that was not up yet. It returns the objects still to delete (all
// of them when the API server is unreachable). An object that does not
// carry the state's owner marker is refused, reported and no longer
// recorded: it is not ours, so no later teardown may delete it either.
func (c *Cluster) deleteAll(ctx context.Context, st *hostlayout.State, rep *Report) ([]hostlayout.ObjectRef, error) {
	objs := namespaceLast(st.ClusterObjects)
	for i, o := range objs {
		if err := c.stopped(ctx); err != nil {
			rep.stop(err, len(objs)-i)
			return objs[i:], nil
		}
		err := c.deleteOwned(ctx, o, st.Owner)
		var notOurs *notOwnedError
		switch {
		case err == nil:
			rep.Deleted = append(rep.Deleted, describe(o))
		case errors.As(err, &notOurs):
			rep.Refused = append(rep.Refused, describe(o))
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("not deleting %s: %v", describe(o), err))
		case apierrors.IsNotFound(err) || meta.IsNoMatchError(err):
			rep.NotFound = append(rep.NotFound, describe(o))
		case unreachable(err):
			rep.Unreachable = true
			rep.UnreachableErr = err
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("API server unreachable, %d cluster object(s) not deleted (they stay recorded): %v", len(objs)-i, err))
			return objs[i:], nil
		default:
			return objs[i:], fmt.Errorf("delete %s: %w", textsafe.Value(describe(o)), textsafe.Err(err))
		}
	}
	return nil, nil
}

// stopped is why no further object may be begun: a signal (ctx) or the
// command's deadline.
func (c *Cluster) stopped(ctx context.Context) error {
	if err := hosttxn.Stopped(ctx); err != nil {
		return err
	}
	if c.Deadline == nil {
		return nil
	}
	return hosttxn.Stopped(c.Deadline)
}

func (c *Cluster) deadline() (time.Time, bool) {
	if c.Deadline == nil {
		return time.Time{}, false
	}
	return c.Deadline.Deadline()
}

// notOwnedError is a live object without this root's owner marker.
type notOwnedError struct{ reason string }

func (e *notOwnedError) Error() string { return e.reason }

// deleteOwned reads the live object and deletes it only when its owner
// marker matches owner. The delete is conditional on the UID just read, so
// an object replaced in between is not deleted either.
func (c *Cluster) deleteOwned(ctx context.Context, o hostlayout.ObjectRef, owner string) error {
	gvr, ns, err := c.resource(o)
	if err != nil {
		return err
	}
	// A signal stops teardown between objects (deleteAll), never in the
	// middle of a read and its conditional delete; the reader's timeout
	// bounds each.
	ctx = context.WithoutCancel(ctx)
	if end, ok := c.deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, end)
		defer cancel()
	}
	live := &unstructured.Unstructured{}
	if err := c.API.Get(ctx, gvr, ns, o.Name, live); err != nil {
		return err
	}
	if err := owned(live, owner); err != nil {
		return err
	}
	uid := live.GetUID()
	bg := metav1.DeletePropagationBackground
	return c.API.Delete(ctx, gvr, ns, o.Name, metav1.DeleteOptions{PropagationPolicy: &bg, Preconditions: &metav1.Preconditions{UID: &uid}})
}

// owned says why live is not this root's object, or nil when it is.
func owned(live *unstructured.Unstructured, owner string) error {
	got, marked := live.GetAnnotations()[hostlayout.AnnotationOwner]
	switch {
	case owner == "":
		return &notOwnedError{"the state records no owner id (it was written by an older render), so nothing proves the object is ours; delete it by hand if it is"}
	case !marked:
		return &notOwnedError{fmt.Sprintf("it has no %s annotation, so render did not create it; it is left in place", hostlayout.AnnotationOwner)}
	case got != owner:
		return &notOwnedError{fmt.Sprintf("its %s annotation is %q, not this root's %q, so another render created it; it is left in place", hostlayout.AnnotationOwner, got, owner)}
	}
	return nil
}

// resource is the recorded object's resource and namespace ("" when
// cluster-scoped).
func (c *Cluster) resource(o hostlayout.ObjectRef) (schema.GroupVersionResource, string, error) {
	gv, err := schema.ParseGroupVersion(o.APIVersion)
	if err != nil {
		return schema.GroupVersionResource{}, "", fmt.Errorf("recorded apiVersion %q: %w", o.APIVersion, err)
	}
	m, err := c.Mapper.RESTMapping(gv.WithKind(o.Kind).GroupKind(), gv.Version)
	if err != nil {
		return schema.GroupVersionResource{}, "", err
	}
	if o.Namespace != "" && m.Scope.Name() == meta.RESTScopeNameNamespace {
		return m.Resource, o.Namespace, nil
	}
	return m.Resource, "", nil
}

// unreachable is any failure without an answer from the API server.
func unreachable(err error) bool {
	var status apierrors.APIStatus
	return !errors.As(err, &status) || apierrors.IsServerTimeout(err) || apierrors.IsServiceUnavailable(err)
}

func namespaceLast(objs []hostlayout.ObjectRef) []hostlayout.ObjectRef {
	var out, nss []hostlayout.ObjectRef
	for _, o := range objs {
		if o.Kind == "Namespace" && o.APIVersion == "v1" {
			nss = append(nss, o)
		} else {
			out = append(out, o)
		}
	}
	return append(out, nss...)
}

func describe(o hostlayout.ObjectRef) string {
	if o.Namespace != "" {
		return fmt.Sprintf("%s %s/%s", o.Kind, o.Namespace, o.Name)
	}
	return fmt.Sprintf("%s %s", o.Kind, o.Name)
}
