package kuberead

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// hostileBound's byte cap is small, so the modes that send too much meet
// it quickly.
var hostileBound = Bound{MaxBytes: 1 << 20, MaxItems: 100}

// The reads' timeouts. The modes that never finish wait for theirs to pass,
// so it is short, yet several of fakekas.DripEvery, so the drip has sent
// bytes before it passes. The modes that send too much must meet the byte
// cap first, and end there, so theirs is generous and never waited for.
const (
	expiringTimeout = 300 * time.Millisecond
	capTimeout      = time.Minute
)

// openOn opens a Reader on a kubeconfig naming server.
func openOn(t *testing.T, server string, b Bound) *Reader {
	t.Helper()
	r, err := Open(context.Background(), Find(Lookup{Flag: fakekas.Kubeconfig(t, "", server), FlagGiven: true}), b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// reads are the Reader's three kinds of read, each as a command makes it.
var reads = []struct {
	name string
	read func(context.Context, *Reader) error
}{
	{"list", func(ctx context.Context, r *Reader) error {
		var l corev1.NodeList
		return r.List(ctx, nodes, "", "", &l)
	}},
	{"get", func(ctx context.Context, r *Reader) error {
		var n corev1.Node
		return r.Get(ctx, nodes, "", "node-1", &n)
	}},
	{"fetch /metrics", func(ctx context.Context, r *Reader) error {
		return r.Fetch(ctx, "/metrics", func(resp *http.Response) error {
			buf := make([]byte, 32<<10)
			for {
				if _, err := resp.Body.Read(buf); err != nil {
					return err
				}
			}
		})
	}},
}

// TestHostileKubeAPIServer: against a kube-apiserver that stalls after
// accepting (with TLS done, or before it), drips a byte at a time, streams
// an endless list or sends one huge object, every read ends with the
// bound's own error (the timeout for the first three, the byte cap for the
// others), and what it allocated stays within a small multiple of the byte
// cap although the server offers hundreds of MiB. The time asserted is
// generous (the timeout plus half a minute): the test is that the read
// ends, and why.
func TestHostileKubeAPIServer(t *testing.T) {
	type outcome struct {
		timeout time.Duration
		is      func(error, Bound) bool
	}
	want := map[fakekas.Mode]outcome{
		fakekas.Stall:       {expiringTimeout, timedOut},
		fakekas.Mute:        {expiringTimeout, timedOut},
		fakekas.Drip:        {expiringTimeout, timedOut},
		fakekas.EndlessList: {capTimeout, tooLarge},
		fakekas.HugeObject:  {capTimeout, tooLarge},
	}
	for _, mode := range fakekas.Modes {
		t.Run(string(mode), func(t *testing.T) {
			b := hostileBound
			b.Timeout = want[mode].timeout
			r := openOn(t, fakekas.Hostile(t, mode), b)
			for _, rd := range reads {
				t.Run(rd.name, func(t *testing.T) {
					before := allocated()
					start := time.Now()
					err := rd.read(context.Background(), r)
					took := time.Since(start)
					grew := allocated() - before
					t.Logf("%v after %s, %d MiB allocated", err, took.Round(time.Millisecond), grew>>20)
					if err == nil || !want[mode].is(err, b) {
						t.Fatalf("error %v; want the bound's own (%s)", err, mode)
					}
					if took > b.Timeout+30*time.Second {
						t.Errorf("took %s with a %s timeout", took, b.Timeout)
					}
					if limit := uint64(32 * b.MaxBytes); grew > limit {
						t.Errorf("allocated %d MiB reading with a cap of %d MiB per response", grew>>20, b.MaxBytes>>20)
					}
				})
			}
		})
	}
}

// timedOut is the deadline's error, naming the bound.
func timedOut(err error, b Bound) bool {
	return strings.Contains(err.Error(), "no answer within "+b.Timeout.String()+", the command's --timeout")
}

// tooLarge is the byte cap's error, naming the cap.
func tooLarge(err error, b Bound) bool {
	var big *tooLargeError
	return errors.As(err, &big) && big.Max == b.MaxBytes && strings.Contains(err.Error(), "passed the cap of 1 MiB per response")
}

// allocated is the bytes the process allocated so far: what a read
// allocates is the difference, whatever the collector freed meanwhile.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}
