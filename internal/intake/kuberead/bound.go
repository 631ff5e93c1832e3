// Package kuberead is the tool's one way to the kube-apiserver. Every
// command that takes --kubeconfig (status, wait, probe --webhooks,
// teardown, the usage report, the per-node reader) reads through a Reader,
// and a Reader cannot be built without a Bound: each request ends by the
// command's --timeout, each response body stops at a cap on bytes (an
// error naming the cap, never a silent cut), and each list is read in
// pages up to a cap on items, which the Reader records so that the
// command's report says a list was cut. No read follows a redirect to
// another host (internal/intake/samehost). Which kubeconfig is read is decided
// once too, by Find; Open reads it, each file it names and its exec plugin
// itself, capped and within the deadline (loadConfig), so client-go gets
// bytes and runs nothing.
package kuberead

import (
	"fmt"
	"time"
)

// Bound is what one Reader may spend on the kube-apiserver. Every field
// must be positive: a zero Bound is refused, so no caller can ask for an
// unbounded read.
type Bound struct {
	// Timeout ends each request, and each list with all of its pages: the
	// command's --timeout.
	Timeout time.Duration
	// MaxBytes caps each response body; a longer one fails the read.
	MaxBytes int64
	// MaxItems caps the items one list keeps; more are left unread, and
	// the Reader records the cut (cutsSoFar).
	MaxItems int
}

// The caps Within gives. A page of pageSize nodes or pods is a few MiB at
// most, and a real kube-apiserver's /metrics a few MiB, so MaxBytes
// leaves room while it keeps an endless answer to a few tens of MiB of
// memory; MaxItems is more nodes than an OpenShift cluster supports.
const (
	defaultMaxBytes = 32 << 20
	DefaultMaxItems = 5000
	pageSize        = 500
)

// Within is the Bound of a command's --timeout with the default caps.
func Within(timeout time.Duration) Bound {
	return Bound{Timeout: timeout, MaxBytes: defaultMaxBytes, MaxItems: DefaultMaxItems}
}

// check refuses a Bound with a field that does not bound anything.
func (b Bound) check() error {
	if b.Timeout <= 0 || b.MaxBytes <= 0 || b.MaxItems <= 0 {
		return fmt.Errorf("kube-apiserver reader refused an unbounded read (timeout %s, %d bytes per response, %d items per list): each must be positive", b.Timeout, b.MaxBytes, b.MaxItems)
	}
	return nil
}

// byteSize says n bytes the way the caps are chosen: in MiB or KiB when
// whole, else in bytes.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
