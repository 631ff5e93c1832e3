package hostileserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// limitWriter takes n bytes, then fails: a reader that gives up.
type limitWriter struct {
	n   int
	got strings.Builder
}

var errFull = errors.New("reader gone")

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.got.Len()+len(p) > w.n {
		return 0, errFull
	}
	return w.got.Write(p)
}

// countWriter counts what it takes.
type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// TestFeed: each behaviour sends what its name says, and ends when the
// reader goes (Endless) or its context ends (Stall, Drip).
func TestFeed(t *testing.T) {
	w := &limitWriter{n: 1 << 20}
	if err := Feed(context.Background(), w, Endless, YAML); !errors.Is(err, errFull) {
		t.Errorf("endless: %v, want it to end with the reader", err)
	}
	if got := w.got.String(); !strings.HasPrefix(got, YAML.Head+YAML.Item) || len(got) < 1<<19 {
		t.Errorf("endless sent %d bytes starting %.80q", len(got), got)
	}
	c := &countWriter{}
	if err := Feed(context.Background(), c, Huge, Metrics); err != nil || c.n != len(Metrics.Open)+HugeSize+len(Metrics.Close) {
		t.Errorf("huge: %v after %d bytes, want %d", err, c.n, len(Metrics.Open)+HugeSize+len(Metrics.Close))
	}
	// Drip twenty times as fast as DripEvery, so the deadline it waits for
	// is 125ms: 2.5 ticks, as with DripEvery and 2.5s.
	const every = DripEvery / 20
	ctx, cancel := context.WithTimeout(context.Background(), 5*every/2)
	defer cancel()
	d := &limitWriter{n: 1 << 10}
	if err := feed(ctx, d, Drip, KubeList, every); err != nil {
		t.Errorf("drip: %v", err)
	}
	if got := d.got.String(); len(got) < 1 || len(got) > 4 || !strings.HasPrefix(KubeList.Open, got) { // loose: a loaded machine ticks late
		t.Errorf("drip sent %q in %s, want about 3 bytes of %q", got, 5*every/2, KubeList.Open)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	s := &limitWriter{n: 1}
	if err := Feed(ctx, s, Stall, YAML); err != nil || s.got.Len() != 0 {
		t.Errorf("stall: %v, sent %q", err, s.got.String())
	}
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestHTTP: a stalling server never answers (a client's own timeout ends
// the request); an endless one answers 200 with the shape's content type
// and a body that does not end.
func TestHTTP(t *testing.T) {
	stall := HTTP(t, listen(t), Stall, true, func(*http.Request) Shape { return KubeList })
	c := &http.Client{Timeout: 300 * time.Millisecond}
	if resp, err := c.Get(stall); err == nil {
		resp.Body.Close()
		t.Errorf("the stalling server answered %s", resp.Status)
	}
	endless := HTTP(t, listen(t), Endless, false, func(*http.Request) Shape { return Metrics })
	resp, err := http.Get(endless + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.CopyN(io.Discard, resp.Body, 8<<20)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != Metrics.ContentType || err != nil || n != 8<<20 {
		t.Errorf("endless: %s %q, read %d bytes: %v", resp.Status, resp.Header.Get("Content-Type"), n, err)
	}
}

// TestRaw: a raw endless peer sends its shape to whoever connects.
func TestRaw(t *testing.T) {
	l := listen(t)
	Raw(t, l, Endless, HTTPResponse)
	conn, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	buf := make([]byte, len(HTTPResponse.Head))
	if _, err := io.ReadFull(conn, buf); err != nil || string(buf) != HTTPResponse.Head {
		t.Errorf("read %q: %v", buf, err)
	}
}
