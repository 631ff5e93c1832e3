package kuberead

import (
	"fmt"
	"io"
	"net/http"
)

// tooLargeError is a response body that passed Bound.MaxBytes: the read
// stopped there and its answer is not used.
type tooLargeError struct {
	URL string // redacted
	Max int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("the answer of %s passed the cap of %s per response, so it was not used", e.URL, byteSize(e.Max))
}

// capBodies wraps every response body of next in a cappedBody.
type capBodies struct {
	next http.RoundTripper
	max  int64
}

func (t capBodies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = &cappedBody{rc: resp.Body, max: t.max, url: req.URL.Redacted()}
	return resp, nil
}

// cappedBody reads at most max bytes and fails with a tooLargeError as
// soon as the body holds more: it reads one byte past the cap to tell an
// answer of exactly max bytes from a longer one.
type cappedBody struct {
	rc   io.ReadCloser
	max  int64
	read int64
	url  string
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.read > b.max {
		return 0, &tooLargeError{URL: b.url, Max: b.max}
	}
	if left := b.max + 1 - b.read; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := b.rc.Read(p)
	b.read += int64(n)
	if b.read > b.max {
		return n - int(b.read-b.max), &tooLargeError{URL: b.url, Max: b.max}
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
