package kuberead

import (
	"context"
	"fmt"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Cut is a list the item cap stopped: Kept items were read, more were not.
type Cut struct {
	Resource  string `json:"resource"`
	Namespace string `json:"namespace,omitempty"`
	Kept      int    `json:"kept"`
}

func (c Cut) String() string {
	where := ""
	if c.Namespace != "" {
		where = " in namespace " + c.Namespace
	}
	return fmt.Sprintf("%s%s: only the first %d were read (the cap on items per list); the rest were not", c.Resource, where, c.Kept)
}

// List reads a resource (ns "" for all namespaces or a cluster-scoped
// one; selector a label selector, "" for all) in pages into out, a typed
// list or a struct with an items field. It keeps at most MaxItems items:
// a list with more is cut there and the cut recorded (cutsSoFar), not an
// error. All pages together end within the bound's Timeout.
func (r *Reader) List(ctx context.Context, gvr schema.GroupVersionResource, ns, selector string, out any) error {
	ctx, cancel := context.WithTimeout(ctx, r.bound.Timeout)
	defer cancel()
	all, cut, err := r.pages(ctx, gvr, ns, selector)
	if err != nil {
		return r.explain(ctx, err)
	}
	if cut {
		r.noteCut(Cut{Resource: gvr.Resource, Namespace: ns, Kept: len(all.Items)})
	}
	return convert(all.UnstructuredContent(), out)
}

// pages reads page after page until the list ends or holds MaxItems
// items; cut says items were left. A server that ignores the page limit
// is cut the same way.
func (r *Reader) pages(ctx context.Context, gvr schema.GroupVersionResource, ns, selector string) (*unstructured.UnstructuredList, bool, error) {
	all := &unstructured.UnstructuredList{Object: map[string]any{}}
	opts := metav1.ListOptions{LabelSelector: selector}
	for {
		left := r.bound.MaxItems - len(all.Items)
		opts.Limit = int64(min(pageSize, left))
		page, err := r.dyn.Resource(gvr).Namespace(ns).List(ctx, opts)
		if err != nil {
			return nil, false, err
		}
		if len(all.Object) == 0 {
			all.Object = page.Object // kind, apiVersion, metadata
		}
		items := page.Items
		if len(items) > left {
			all.Items = append(all.Items, items[:left]...)
			return all, true, nil
		}
		all.Items = append(all.Items, items...)
		opts.Continue = page.GetContinue()
		switch {
		case opts.Continue == "":
			return all, false, nil
		case len(all.Items) >= r.bound.MaxItems:
			return all, true, nil
		}
	}
}

func (r *Reader) noteCut(c Cut) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cuts == nil {
		r.cuts = map[string]Cut{}
	}
	r.cuts[c.Namespace+"/"+c.Resource] = c
}

// cutsSoFar are the lists the item cap stopped so far, each once (the last
// read of it), in order of namespace and resource. A nil Reader has none.
func (r *Reader) cutsSoFar() []Cut {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := make([]string, 0, len(r.cuts))
	for k := range r.cuts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Cut, len(keys))
	for i, k := range keys {
		out[i] = r.cuts[k]
	}
	return out
}
