//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// proc is one supervised component process running in a network namespace.
type proc struct {
	name, logPath string
	cmd           *exec.Cmd
	done          chan struct{}
	err           error // valid after done is closed
}

// startProc starts argv inside network namespace ns (host namespace when ns
// is ""), in its own process group, logging to <logDir>/<name>.log. It is
// stopped when the test ends and its log is shown if the test failed.
func startProc(t *testing.T, ns, name, logDir string, argv []string) *proc {
	t.Helper()
	return startProcOwned(t, t, ns, name, logDir, argv)
}

// startProcOwned is startProc for a process that outlives the subtest t
// starting it: owner (an enclosing test) stops it.
func startProcOwned(t, owner *testing.T, ns, name, logDir string, argv []string) *proc {
	t.Helper()
	p := startProcNoCleanup(t, ns, name, logDir, argv)
	owner.Cleanup(func() {
		p.stop()
		if owner.Failed() {
			t.Logf("--- last lines of %s (%s):\n%s", name, p.logPath, tail(p.logPath, 30))
		}
	})
	return p
}

func startProcNoCleanup(t *testing.T, ns, name, logDir string, argv []string) *proc {
	t.Helper()
	full := argv
	if ns != "" {
		full = append([]string{"ip", "netns", "exec", ns}, argv...)
	}
	logPath := filepath.Join(logDir, name+".log")
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatalf("open log for %s: %v", name, err)
	}
	fmt.Fprintf(f, "=== %s: %s\n", time.Now().Format(time.RFC3339Nano), strings.Join(full, " "))
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Stdout, cmd.Stderr = f, f
	// Own process group so the whole tree can be signalled; SIGKILL if the test
	// binary dies so nothing outlives a crashed run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := spawn(cmd); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	p := &proc{name: name, logPath: logPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p
}

// spawnRequests carries process starts to one goroutine locked to its OS
// thread for the whole run. Pdeathsig fires when the thread that forked the
// child exits, and inNetns retires threads; forking only from this thread
// ties the children's lifetime to the test binary and nothing else.
var spawnRequests = make(chan func())

func init() {
	go func() {
		runtime.LockOSThread()
		for f := range spawnRequests {
			f()
		}
	}()
}

// spawn starts cmd from the spawner thread.
func spawn(cmd *exec.Cmd) error {
	errc := make(chan error, 1)
	spawnRequests <- func() { errc <- cmd.Start() }
	return <-errc
}

// running reports whether the process has not exited yet.
func (p *proc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// signal sends sig to the process group.
func (p *proc) signal(sig syscall.Signal) {
	if p.running() {
		_ = syscall.Kill(-p.cmd.Process.Pid, sig)
	}
}

// kill stops the process at once (a crash) and waits for it.
func (p *proc) kill() {
	p.signal(syscall.SIGKILL)
	<-p.done
}

// stop asks the process group to terminate and kills it after a grace
// period. proxy-agent treats the first SIGTERM as "drain" and the second as
// "stop", so a second one follows shortly.
func (p *proc) stop() {
	for _, grace := range []time.Duration{500 * time.Millisecond, 2500 * time.Millisecond} {
		p.signal(syscall.SIGTERM)
		select {
		case <-p.done:
			return
		case <-time.After(grace):
		}
	}
	p.kill()
}

// wait waits at most d for the process to exit; ok is false if it still runs.
func (p *proc) wait(d time.Duration) (err error, ok bool) {
	select {
	case <-p.done:
		return p.err, true
	case <-time.After(d):
		return nil, false
	}
}

// log returns the process's log so far.
func (p *proc) log() string {
	b, _ := os.ReadFile(p.logPath)
	return string(b)
}

// tail returns the last n lines of a file.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// eventually calls f every interval until it returns nil or the deadline
// passes; it returns how long it took and the last error.
func eventually(timeout, interval time.Duration, f func() error) (time.Duration, error) {
	start := time.Now()
	deadline := start.Add(timeout)
	for {
		err := f()
		if err == nil {
			return time.Since(start), nil
		}
		if time.Now().After(deadline) {
			return time.Since(start), fmt.Errorf("still failing after %v: %w", timeout, err)
		}
		time.Sleep(interval)
	}
}
