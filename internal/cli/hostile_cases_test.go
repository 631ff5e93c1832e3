package cli

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostileserver"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// hostileSource is where a command's input comes from.
type hostileSource string

const (
	sourceStdin hostileSource = "stdin"
	sourceFIFO  hostileSource = "fifo"
	sourceFile  hostileSource = "file"
)

var hostileSources = []hostileSource{sourceStdin, sourceFIFO, sourceFile}

// kubeShape is what the hostile kube-apiserver sends for a request: a
// metrics page for /metrics, a list for everything else.
func kubeShape(r *http.Request) hostileserver.Shape {
	if r.URL.Path == "/metrics" {
		return hostileserver.Metrics
	}
	return hostileserver.KubeList
}

// runKubeCase: the command reads a kube-apiserver that behaves as b, on a
// rendered root whose server is down (its ports refuse).
func runKubeCase(t *testing.T, bin string, c hostileCommand, row hostileEndpointRow, b hostileserver.Behaviour, bound time.Duration) {
	root := hostileRoot(t, "")
	url := hostileserver.HTTP(t, listenLoopback(t), b, true, kubeShape)
	args := append([]string{c.name, "--root", root, "--kubeconfig", fakekas.Kubeconfig(t, "", url), "--timeout", hostileTimeout.String()}, row.kube...)
	got := runHostileChild(t, bin, args, nil, bound)
	got.assert(t, hostileCaseName(args, "a kube-apiserver that does", b), bound, "its --help's bound with --timeout "+hostileTimeout.String(), row.code)
	if line := klogLine.FindString(got.stderr.lastLines(64)); line != "" {
		t.Errorf("%s: client-go's klog spoke beside the command's own error (one voice per failure):\n%s",
			hostileCaseName(args, "a kube-apiserver that does", b), line)
	}
}

// klogLine is the head of a line klog writes ("E1128 06:02:10.123456 ...").
var klogLine = regexp.MustCompile(`(?m)^\s*[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ .*$`)

// runPortsCase: the command reads a rendered root whose server's health
// and admin ports and socket all behave as b.
func runPortsCase(t *testing.T, bin string, c hostileCommand, row hostileEndpointRow, b hostileserver.Behaviour, bound time.Duration) {
	root := hostileRoot(t, b)
	args := append([]string{c.name, "--root", root, "--timeout", hostileTimeout.String()}, row.ports...)
	got := runHostileChild(t, bin, args, nil, bound)
	got.assert(t, hostileCaseName(args, "a server whose ports and socket do", b), bound, "its --help's bound with --timeout "+hostileTimeout.String(), row.code)
}

// runInputCase: the command reads an input that behaves as b, from src. A
// stalling input sends the start of a document and then nothing, a
// dripping one a byte a second; both end after hostileInputFor, so every
// case's input is one the command cannot read.
func runInputCase(t *testing.T, bin string, row hostileInputRow, src hostileSource, b hostileserver.Behaviour) {
	shape := hostileserver.YAML
	feed := func(w io.Writer) {
		ctx, cancel := context.WithTimeout(context.Background(), hostileInputFor)
		defer cancel()
		if b == hostileserver.Stall {
			_, _ = io.WriteString(w, shape.Open)
		}
		_ = hostileserver.Feed(ctx, w, b, shape)
	}
	in := "-"
	var stdin func(io.WriteCloser)
	switch src {
	case sourceStdin:
		stdin = func(w io.WriteCloser) { feed(w); w.Close() }
	case sourceFIFO:
		in = hostileFIFO(t, feed)
	case sourceFile:
		in = hostileHugeFile(t, shape)
	}
	args := row.args(in)
	bound := hostileInputFor + hostileSlack
	got := runHostileChild(t, bin, args, stdin, bound)
	got.assert(t, hostileCaseName(args, "an input ("+string(src)+") that does", b), bound, "the input's end after "+hostileInputFor.String(), row.code)
}

// hostileFIFO makes a FIFO whose writer feeds it once the command opens it,
// and closes it after. The test's end frees a writer still waiting for a
// reader, or still writing to one that is gone, so none outlives the test.
func hostileFIFO(t *testing.T, feed func(io.Writer)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "input.yaml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var w *os.File
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0) // blocks until a reader opens it
		if err != nil {
			return
		}
		mu.Lock()
		w = f
		mu.Unlock()
		feed(f)
		f.Close()
	}()
	t.Cleanup(func() {
		if r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close() // a writer waiting to open goes on, and its writes fail: no reader is left
		}
		mu.Lock()
		if w != nil {
			w.Close() // ends a write blocked on a full FIFO
		}
		mu.Unlock()
		<-done
	})
	return path
}

// hostileHugeFile writes a file with one document of HugeSize bytes, sparse
// (its one value reads as NUL bytes): a reader that holds it whole breaks
// the memory ceiling.
func hostileHugeFile(t *testing.T, shape hostileserver.Shape) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "huge.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(shape.Open); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(shape.Close), int64(len(shape.Open)+hostileserver.HugeSize)); err != nil {
		t.Fatal(err)
	}
	return path
}

// hostileRoot renders a root under /tmp (short enough for its socket)
// whose server's health and admin ports are loopback ports of this test,
// with a socket where the server's would be. b "" leaves them refusing (a
// server that is down); else each behaves as b.
func hostileRoot(t *testing.T, b hostileserver.Behaviour) string {
	t.Helper()
	health, admin := listenServerPort(t), listenServerPort(t)
	spec := fmt.Sprintf("server:\n  healthPort: %d\n  adminPort: %d\n", health.Addr().(*net.TCPAddr).Port, admin.Addr().(*net.TCPAddr).Port)
	root := shortroot.Dir(t, "kbh", socketPath)
	opts := render.Options{Root: root, Overlay: tooltest.WriteOverlay(t, tooltest.Overlay{Spec: spec}),
		BootstrapIP: netip.MustParseAddr(hostTestIP), Image: hostTestImage}
	if _, err := render.Run(context.Background(), opts); err != nil {
		t.Fatalf("render: %v", err)
	}
	sock := filepath.Join(root, socketPath)
	uds, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sock, 0o770); err != nil {
		t.Fatal(err)
	}
	if b == "" {
		health.Close()
		admin.Close()
		uds.Close()
		return root
	}
	metrics := func(*http.Request) hostileserver.Shape { return hostileserver.Metrics }
	hostileserver.HTTP(t, health, b, false, metrics)
	hostileserver.HTTP(t, admin, b, false, metrics)
	hostileserver.Raw(t, uds, b, hostileserver.HTTPResponse)
	return root
}

// listenServerPort listens on a loopback port the bundle accepts for the
// server (1024..49151) and no outgoing connection takes (below Linux's
// ephemeral range, which starts at 32768).
func listenServerPort(t *testing.T) net.Listener {
	t.Helper()
	var err error
	for range 50 {
		var l net.Listener
		if l, err = net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", 20000+rand.IntN(12000))); err == nil {
			t.Cleanup(func() { l.Close() })
			return l
		}
	}
	t.Fatalf("no free loopback port for the server: %v", err)
	return nil
}

func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// hostileEnv is the test's environment without what would change the
// command's inputs (its KONNECTIVITY_ defaults, a KUBECONFIG).
func hostileEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KONNECTIVITY_") && !strings.HasPrefix(kv, "KUBECONFIG=") {
			env = append(env, kv)
		}
	}
	return env
}

// hostileResult is what one run of the command did.
type hostileResult struct {
	code           int
	took           time.Duration
	maxRSS         int64  // bytes
	killed         string // why the harness killed it, or ""
	stdout, stderr *tailWriter
}

// runHostileChild runs bin with args (stdin, when not nil, writes the
// command's standard input; else it is empty), kills it hostileKillAfter
// past bound or at twice the memory ceiling, and measures it.
func runHostileChild(t *testing.T, bin string, args []string, stdin func(io.WriteCloser), bound time.Duration) hostileResult {
	t.Helper()
	return runHostileChildEnv(t, bin, args, nil, stdin, bound)
}

// runHostileChildEnv is runHostileChild with env (KEY=VALUE) added to the
// child's environment.
func runHostileChildEnv(t *testing.T, bin string, args, env []string, stdin func(io.WriteCloser), bound time.Duration) hostileResult {
	t.Helper()
	hostileSlots <- struct{}{}
	defer func() { <-hostileSlots }()
	res := hostileResult{stdout: &tailWriter{}, stderr: &tailWriter{}}
	cmd := newHostileCmd(bin, args, res.stdout, res.stderr)
	cmd.Env = append(cmd.Env, env...)
	var w io.WriteCloser
	if stdin != nil {
		var err error
		if w, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if stdin != nil {
		go stdin(w)
	}
	killed := make(chan string, 1)
	stop := watchHostileChild(cmd.Process, bound+hostileKillAfter, killed)
	err := cmd.Wait()
	close(stop)
	res.took = time.Since(start)
	select {
	case res.killed = <-killed:
	default:
	}
	res.code = cmd.ProcessState.ExitCode()
	if err != nil && res.code < 0 {
		res.code = -1
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.maxRSS = ru.Maxrss << 10 // Linux reports KiB
	}
	return res
}

// assert fails t unless the run ended within bound, under the memory
// ceiling and with code, naming everything measured.
func (r hostileResult) assert(t *testing.T, name string, bound time.Duration, boundWhy string, code int) {
	t.Helper()
	var why []string
	if r.killed != "" {
		why = append(why, "killed by the harness: "+r.killed)
	}
	if r.took > bound {
		why = append(why, fmt.Sprintf("took %s, over the bound of %s (%s, plus %s slack)", r.took.Round(time.Millisecond), bound, boundWhy, hostileSlack))
	}
	if r.maxRSS > hostileRSSCeiling {
		why = append(why, fmt.Sprintf("max RSS %d MiB, over the ceiling of %d MiB", r.maxRSS>>20, hostileRSSCeiling>>20))
	}
	if r.code != code {
		why = append(why, fmt.Sprintf("exit %d, want %d as its --help documents", r.code, code))
	}
	if len(why) == 0 {
		t.Logf("%s: exit %d in %s, max RSS %d MiB", name, r.code, r.took.Round(time.Millisecond), r.maxRSS>>20)
		return
	}
	t.Errorf("%s:\n  %s\n  measured: exit %d, %s, max RSS %d MiB\n  stderr (last lines, %d bytes in all):\n%s\n  stdout (last lines, %d bytes in all):\n%s",
		name, strings.Join(why, "\n  "), r.code, r.took.Round(time.Millisecond), r.maxRSS>>20,
		r.stderr.n, r.stderr.lastLines(8), r.stdout.n, r.stdout.lastLines(4))
}
