package kuberead

import (
	"context"
	"errors"
	"net/http"
)

// URL is the address of path on the kube-apiserver, for reports.
func (r *Reader) URL(path string) string {
	if r.base == nil {
		return path
	}
	return r.base.JoinPath(path).Redacted()
}

// Fetch GETs a non-resource path (such as /metrics) with the kubeconfig's
// credentials and hands the response to read, whose reading of the body
// is inside the bound: the deadline and the byte cap hold until read
// returns. Transport failures come back as they are; read decides what a
// status code means.
func (r *Reader) Fetch(ctx context.Context, path string, read func(*http.Response) error) error {
	if r.hc == nil {
		return errors.New("this reader has no HTTP client (built for a test): " + path + " cannot be read")
	}
	ctx, cancel := context.WithTimeout(ctx, r.bound.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base.JoinPath(path).String(), nil)
	if err != nil {
		return err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return r.explain(ctx, err)
	}
	defer resp.Body.Close()
	return r.explain(ctx, read(resp))
}
