package tunneltest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Proc is a component process running in a network namespace.
type Proc struct {
	name, logPath string
	cmd           *exec.Cmd
	done          chan struct{}
}

// start runs argv in ns with env added to the test's, logging to
// logDir/name.log; the test's end stops it and, if the test failed, shows
// the log's tail.
func start(t *testing.T, ns, name, logDir string, argv []string, env ...string) *Proc {
	t.Helper()
	p := &Proc{name: name, logPath: filepath.Join(logDir, name+".log"), done: make(chan struct{})}
	f, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	full := append([]string{"ip", "netns", "exec", ns}, argv...)
	fmt.Fprintf(f, "=== %s\n", strings.Join(full, " "))
	p.cmd = exec.Command(full[0], full[1:]...)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { _ = p.cmd.Wait(); f.Close(); close(p.done) }()
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("--- %s log:\n%s", name, p.Log())
		}
	})
	return p
}

// Signal sends sig to the process (SIGSTOP freezes it, SIGCONT thaws it).
func (p *Proc) Signal(sig syscall.Signal) error { return syscall.Kill(p.cmd.Process.Pid, sig) }

// Running reports whether the process has not exited.
func (p *Proc) Running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Stop sends SIGTERM twice (the agent drains on the first) and SIGKILL
// after five seconds.
func (p *Proc) Stop() {
	if p == nil || !p.Running() {
		return
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGTERM} {
		_ = syscall.Kill(-p.cmd.Process.Pid, sig)
		select {
		case <-p.done:
			return
		case <-time.After(500 * time.Millisecond):
		}
	}
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}

// Log is the process's output so far (last 40 lines).
func (p *Proc) Log() string {
	b, _ := os.ReadFile(p.logPath)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}
