// Package hostileserver is the tests' hostile peer: an endpoint or a stream
// that stalls after accepting, drips one byte a second, streams without end
// or sends one huge object. The commands' readers (the kube-apiserver, the
// proxy-server's ports and socket, stdin, files and FIFOs) must end within
// their --timeout and a memory ceiling against each of them
// (internal/cli/hostile_test.go).
package hostileserver

import (
	"context"
	"io"
	"strings"
	"time"
)

// Behaviour is how a hostile peer sends.
type Behaviour string

// The behaviours, in the order the tests run them.
const (
	// Stall accepts (or opens the stream) and then sends nothing.
	Stall Behaviour = "stall"
	// Drip sends the start of a Huge object, one byte a second.
	Drip Behaviour = "drip"
	// Endless sends a list that never ends (Shape.Head, then Shape.Item
	// without end), as fast as it is read.
	Endless Behaviour = "endless"
	// Huge sends one object of HugeSize bytes, then ends.
	Huge Behaviour = "huge"
)

// Behaviours is every behaviour.
var Behaviours = []Behaviour{Stall, Drip, Endless, Huge}

// HugeSize is the size of Huge's one value: over the 200 MB the commands
// must stay under, so a reader that holds it whole breaks the ceiling.
const HugeSize = 300 << 20

// DripEvery is Drip's pace.
const DripEvery = time.Second

// Shape is what a stream holds, in the format its reader parses.
type Shape struct {
	// Endless: Head once, then Item without end.
	Head, Item string
	// Huge: Open, HugeSize bytes of 'a' (one value), then Close. Drip sends
	// the same bytes.
	Open, Close string
	// ContentType is the HTTP Content-Type a server sends it with.
	ContentType string
}

// The shapes of the commands' inputs.
var (
	// KubeList is a kube-apiserver list: without end, or with one object
	// whose one value is huge.
	KubeList = Shape{
		Head:        `{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[`,
		Item:        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"hostile","namespace":"default"}},`,
		Open:        `{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"`,
		Close:       `"}}]}`,
		ContentType: "application/json",
	}
	// Metrics is a Prometheus text page: without end, or one huge line.
	Metrics = Shape{
		Head:        "# TYPE hostile_total counter\n",
		Item:        `hostile_total{name="hostile"} 1` + "\n",
		Open:        `hostile_total{name="`,
		Close:       "\"} 1\n",
		ContentType: "text/plain; version=0.0.4",
	}
	// YAML is a YAML stream: documents without end, or one huge document.
	// Each is in flow style, so any start of one that stops early is not
	// YAML (an unclosed mapping), whichever byte it stops at.
	YAML = Shape{
		Head:        `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "hostile"}}` + "\n",
		Item:        "---\n" + `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "hostile"}}` + "\n",
		Open:        `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "hostile"}, "data": {"k": "`,
		Close:       "\"}}\n",
		ContentType: "application/yaml",
	}
	// HTTPResponse is what an HTTP CONNECT proxy answers: one header line
	// without end, or one huge header line.
	HTTPResponse = Shape{
		Head:  "HTTP/1.1 200 Connection established\r\nX-Hostile: ",
		Item:  "hostile",
		Open:  "HTTP/1.1 200 Connection established\r\nX-Hostile: ",
		Close: "\r\n\r\n",
	}
)

// Feed writes b's bytes of s to w until ctx ends or a write fails (the
// reader has gone); Huge returns after its last byte. Stall and Drip return
// nil when ctx ends, so a stream that stalls or drips for a while and then
// ends is Feed under a deadline.
func Feed(ctx context.Context, w io.Writer, b Behaviour, s Shape) error {
	return feed(ctx, w, b, s, DripEvery)
}

// feed is Feed with Drip's pace given: this package's test drips faster,
// so it waits for its deadline a fraction of a second, not seconds.
func feed(ctx context.Context, w io.Writer, b Behaviour, s Shape, dripEvery time.Duration) error {
	flush := func() {}
	if f, ok := w.(interface{ Flush() }); ok {
		flush = f.Flush
	}
	switch b {
	case Stall:
		<-ctx.Done()
		return nil
	case Drip:
		return drip(ctx, w, flush, s.Open+strings.Repeat("a", 1<<10), dripEvery)
	case Endless:
		return repeat(ctx, w, flush, s.Head, s.Item, -1)
	case Huge:
		if err := repeat(ctx, w, flush, s.Open, "a", HugeSize); err != nil {
			return err
		}
		_, err := io.WriteString(w, s.Close)
		flush()
		return err
	}
	panic("hostileserver: unknown behaviour " + string(b))
}

func drip(ctx context.Context, w io.Writer, flush func(), text string, every time.Duration) error {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for i := 0; i < len(text); i++ {
		if _, err := io.WriteString(w, text[i:i+1]); err != nil {
			return err
		}
		flush()
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
	<-ctx.Done()
	return nil
}

// repeat writes head, then item until n bytes of items are written (n < 0:
// without end), in blocks of about 64 KiB.
func repeat(ctx context.Context, w io.Writer, flush func(), head, item string, n int) error {
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	block := []byte(strings.Repeat(item, max(1, (64<<10)/len(item))))
	for written := 0; n < 0 || written < n; written += len(block) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		chunk := block
		if n >= 0 && n-written < len(chunk) {
			chunk = chunk[:n-written]
		}
		if _, err := w.Write(chunk); err != nil {
			return err
		}
		flush()
	}
	return nil
}
