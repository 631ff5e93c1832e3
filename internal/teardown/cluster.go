package teardown

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/render"
)

// requestTimeout bounds each API call so a dead API server costs seconds,
// not the bootstrap script's whole budget.
const requestTimeout = 10 * time.Second

// Cluster is what teardown needs of the API server.
type Cluster struct {
	Dynamic dynamic.Interface
	Mapper  Mapper
}

// Mapper finds the resource of a kind; meta.RESTMapper satisfies it.
type Mapper interface {
	RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error)
}

// ClusterFromKubeconfig builds the clients from a kubeconfig file.
func ClusterFromKubeconfig(path string) (*Cluster, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, fmt.Errorf("--kubeconfig %s: %w", path, err)
	}
	cfg.Timeout = requestTimeout
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("--kubeconfig %s: %w", path, err)
	}
	return &Cluster{Dynamic: dyn, Mapper: recordedKindsMapper{}}, nil
}

// deleteAll issues a background-propagation delete for every recorded
// object, the namespace last, and never waits for finalization: waiting hung
// installs whose finalizers needed a webhook that was not up yet. It returns
// the objects still to delete (all of them when the API server is unreachable).
func (c *Cluster) deleteAll(ctx context.Context, st *render.State, rep *Report) ([]render.ObjectRef, error) {
	objs := namespaceLast(st.ClusterObjects)
	for i, o := range objs {
		err := c.delete(ctx, o)
		switch {
		case err == nil:
			rep.Deleted = append(rep.Deleted, describe(o))
		case apierrors.IsNotFound(err) || meta.IsNoMatchError(err):
			rep.NotFound = append(rep.NotFound, describe(o))
		case unreachable(err):
			rep.Unreachable = true
			rep.UnreachableErr = err
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("API server unreachable, %d cluster object(s) not deleted (they stay recorded): %v", len(objs)-i, err))
			return objs[i:], nil
		default:
			return objs[i:], fmt.Errorf("delete %s: %w", describe(o), err)
		}
	}
	return nil, nil
}

func (c *Cluster) delete(ctx context.Context, o render.ObjectRef) error {
	gv, err := schema.ParseGroupVersion(o.APIVersion)
	if err != nil {
		return fmt.Errorf("recorded apiVersion %q: %w", o.APIVersion, err)
	}
	m, err := c.Mapper.RESTMapping(gv.WithKind(o.Kind).GroupKind(), gv.Version)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	bg := metav1.DeletePropagationBackground
	var r dynamic.ResourceInterface = c.Dynamic.Resource(m.Resource)
	if o.Namespace != "" && m.Scope.Name() == meta.RESTScopeNameNamespace {
		r = c.Dynamic.Resource(m.Resource).Namespace(o.Namespace)
	}
	return r.Delete(ctx, o.Name, metav1.DeleteOptions{PropagationPolicy: &bg})
}

// unreachable is any failure without an answer from the API server.
func unreachable(err error) bool {
	var status apierrors.APIStatus
	return !errors.As(err, &status) || apierrors.IsServerTimeout(err) || apierrors.IsServiceUnavailable(err)
}

func namespaceLast(objs []render.ObjectRef) []render.ObjectRef {
	var out, nss []render.ObjectRef
	for _, o := range objs {
		if o.Kind == "Namespace" && o.APIVersion == "v1" {
			nss = append(nss, o)
		} else {
			out = append(out, o)
		}
	}
	return append(out, nss...)
}

func describe(o render.ObjectRef) string {
	if o.Namespace != "" {
		return fmt.Sprintf("%s %s/%s", o.Kind, o.Namespace, o.Name)
	}
	return fmt.Sprintf("%s %s", o.Kind, o.Name)
}
