// Package proctest supervises the component processes of a test (proxy-server,
// proxy-agent, kube-apiserver, etcd, the kubelet...): it starts each in a
// network namespace and its own process group, logs it to a file, signals,
// waits for and stops it, and never lets one outlive the test binary. The
// tunneltest harness and the e2e suite both run their processes through it.
package proctest

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

// Spec is one process to start.
type Spec struct {
	NS     string   // network namespace to run in; "" is the test binary's own
	Name   string   // names the process in messages and its log, LogDir/Name.log
	LogDir string   // where the log goes (appended to, so restarts share it)
	Argv   []string // the command line
	Env    []string // NAME=value added to the test binary's environment
}

// Proc is one supervised process.
type Proc struct {
	name, logPath string
	cmd           *exec.Cmd
	done          chan struct{}
	err           error // valid after done is closed
	// graces are Stop's waits after each SIGTERM: stopGraces, or shorter
	// where this package's tests wait for them to pass.
	graces []time.Duration
}

// Start starts s and stops it when t ends, showing the log's tail if t
// failed.
func Start(t testing.TB, s Spec) *Proc {
	t.Helper()
	p := Launch(t, s)
	p.StopWith(t)
	return p
}

// Launch starts s and leaves stopping it to the caller (StopWith, Stop or
// Kill); a failure to start fails t.
func Launch(t testing.TB, s Spec) *Proc {
	t.Helper()
	full := s.Argv
	if s.NS != "" {
		full = append([]string{"ip", "netns", "exec", s.NS}, s.Argv...)
	}
	p := &Proc{name: s.Name, logPath: filepath.Join(s.LogDir, s.Name+".log"), done: make(chan struct{}), graces: stopGraces}
	f, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatalf("open log for %s: %v", s.Name, err)
	}
	fmt.Fprintf(f, "=== %s: %s\n", time.Now().Format(time.RFC3339Nano), strings.Join(full, " "))
	p.cmd = exec.Command(full[0], full[1:]...)
	if len(s.Env) > 0 {
		p.cmd.Env = append(os.Environ(), s.Env...)
	}
	p.cmd.Stdout, p.cmd.Stderr = f, f
	// Own process group so the whole tree can be signalled; SIGKILL if the
	// test binary dies so nothing outlives a crashed run.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := spawn(p.cmd); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", s.Name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p
}

// spawnRequests carries process starts to one goroutine locked to its OS
// thread for the whole run. Pdeathsig fires when the thread that forked the
// child exits, and netnstest.In retires threads; forking only from this
// thread ties the children's lifetime to the test binary and nothing else.
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

// StopWith stops p when owner ends (an enclosing test, for a process that
// outlives the subtest starting it), showing the log's tail if owner failed.
func (p *Proc) StopWith(owner testing.TB) {
	owner.Cleanup(func() {
		p.Stop()
		if owner.Failed() {
			owner.Logf("--- last lines of %s (%s):\n%s", p.name, p.logPath, p.Tail(40))
		}
	})
}
