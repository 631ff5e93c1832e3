package kuberead

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/samehost"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Reader reads one kube-apiserver within its Bound. Its methods are safe
// for concurrent use.
type Reader struct {
	dyn   dynamic.Interface
	hc    *http.Client // nil when built by FromDynamic
	base  *url.URL
	bound Bound

	mu   sync.Mutex
	cuts map[string]Cut
}

// Open builds the Reader of the kubeconfig c names, with its TLS and
// credentials, within b; a Bound with a field not positive, or a Choice
// that found no kubeconfig, is refused. The kubeconfig, every file it
// names and its exec plugin are read and run here, within b.Timeout and
// until ctx is done (loadConfig): client-go is handed bytes only.
func Open(ctx context.Context, c Choice, b Bound) (*Reader, error) {
	r, err := open(ctx, c, b)
	// What a kubeconfig names (users, contexts, paths, a plugin's command)
	// and what client-go says of it are the file's words, not ours: the
	// error is one escaped line, so none of them can start a line.
	return r, textsafe.Err(err)
}

func open(ctx context.Context, c Choice, b Bound) (*Reader, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	if !c.Found() {
		return nil, errors.New(c.String())
	}
	cfg, err := load(ctx, c, b.Timeout)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s (from %s): %w", strings.Join(c.Paths, ", "), c.From, err)
	}
	cfg.Timeout = b.Timeout // the whole exchange, body included
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", strings.Join(c.Paths, ", "), err)
	}
	hc.CheckRedirect = samehost.CheckRedirect // the credentials never follow a redirect away
	hc.Transport = capBodies{next: hc.Transport, max: b.MaxBytes}
	dyn, err := dynamic.NewForConfigAndClient(cfg, hc)
	if err != nil {
		return nil, err
	}
	base, _, err := rest.DefaultServerUrlFor(cfg)
	if err != nil {
		return nil, err
	}
	r, err := FromDynamic(dyn, b)
	if err != nil {
		return nil, err
	}
	r.hc, r.base = hc, base
	return r, nil
}

// load is the client-go configuration of c's kubeconfig, read within
// timeout.
func load(ctx context.Context, c Choice, timeout time.Duration) (*rest.Config, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	raw, err := loadConfig(ctx, c)
	if err != nil && ctx.Err() != nil {
		// The caller's deadline may come first (teardown gives the
		// kubeconfig a share of its --timeout): name what was spent.
		return nil, fmt.Errorf("%w (the deadline, after %s of the command's --timeout %s)", err, time.Since(start).Round(100*time.Millisecond), timeout)
	}
	if err != nil {
		return nil, err
	}
	return clientcmd.NewDefaultClientConfig(*raw, &clientcmd.ConfigOverrides{}).ClientConfig()
}

// FromDynamic is a Reader over c within b: Open's, over the client it
// built, and the tests', over client-go's fake dynamic client. The
// per-read deadline and the item cap are the Reader's; the byte cap is the
// transport's, which only Open builds, and Fetch needs Open's HTTP client.
// No other code can hold a dynamic client to pass (TestConstructionSites
// allows client-go's client packages here only) nor call this.
func FromDynamic(c dynamic.Interface, b Bound) (*Reader, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	return &Reader{dyn: c, bound: b}, nil
}

// Get reads one object (ns "" for a cluster-scoped one) into out, a typed
// object, a struct with its fields or an *unstructured.Unstructured.
func (r *Reader) Get(ctx context.Context, gvr schema.GroupVersionResource, ns, name string, out any) error {
	ctx, cancel := context.WithTimeout(ctx, r.bound.Timeout)
	defer cancel()
	o, err := r.dyn.Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return r.explain(ctx, err)
	}
	if u, ok := out.(*unstructured.Unstructured); ok {
		*u = *o
		return nil
	}
	return convert(o.UnstructuredContent(), out)
}

// Delete deletes one object: teardown's only write, under the same bound.
func (r *Reader) Delete(ctx context.Context, gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) error {
	ctx, cancel := context.WithTimeout(ctx, r.bound.Timeout)
	defer cancel()
	return r.explain(ctx, r.dyn.Resource(gvr).Namespace(ns).Delete(ctx, name, opts))
}

// explain names the bound in an error the deadline caused (the context's
// or the HTTP client's, both the bound's Timeout); the error stays what
// it was underneath (errors.As finds an API status).
func (r *Reader) explain(ctx context.Context, err error) error {
	var timeout interface{ Timeout() bool }
	if err == nil || !errors.Is(ctx.Err(), context.DeadlineExceeded) && !(errors.As(err, &timeout) && timeout.Timeout()) && !deadlinePassed(ctx) {
		return err
	}
	return fmt.Errorf("%w (no answer within %s, the command's --timeout)", err, r.bound.Timeout)
}

// deadlinePassed: a body cut as the deadline came can fail to decode
// ("unexpected end of JSON input") a moment before the context's own timer
// marks it done; under load that moment was long enough to print the
// decode error instead of the bound.
func deadlinePassed(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

func convert(content map[string]any, out any) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content, out); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}
