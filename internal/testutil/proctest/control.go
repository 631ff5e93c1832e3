package proctest

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// Name is the name the process was started with.
func (p *Proc) Name() string { return p.name }

// Pid is the process id of the started command.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Err is how the process ended (nil for exit status 0, and while it runs).
func (p *Proc) Err() error {
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}

// Running reports whether the process has not exited yet.
func (p *Proc) Running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Signal sends sig to the process group (SIGSTOP freezes it, SIGCONT thaws
// it); a process that has exited is an error.
func (p *Proc) Signal(sig syscall.Signal) error {
	if !p.Running() {
		return fmt.Errorf("signal %v to %s: the process has exited (%v)", sig, p.name, p.err)
	}
	return syscall.Kill(-p.Pid(), sig)
}

// Kill stops the process at once (a crash) and waits for it.
func (p *Proc) Kill() {
	_ = p.Signal(syscall.SIGKILL)
	<-p.done
}

// stopGraces are Stop's waits after each SIGTERM.
var stopGraces = []time.Duration{500 * time.Millisecond, 2500 * time.Millisecond}

// Stop asks the process group to terminate and kills it after a grace
// period; a nil Proc (never started) is a no-op. proxy-agent treats the first SIGTERM as "drain" and the second as
// "stop", so a second one follows shortly.
func (p *Proc) Stop() {
	if p == nil {
		return
	}
	for _, grace := range p.graces {
		_ = p.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
			return
		case <-time.After(grace):
		}
	}
	p.Kill()
}

// Wait waits at most d for the process to exit; ok is false if it still runs.
func (p *Proc) Wait(d time.Duration) (err error, ok bool) {
	select {
	case <-p.done:
		return p.err, true
	case <-time.After(d):
		return nil, false
	}
}

// LogPath is the file the process logs to.
func (p *Proc) LogPath() string { return p.logPath }

// Log is the process's whole log so far.
func (p *Proc) Log() string {
	b, _ := os.ReadFile(p.logPath)
	return string(b)
}

// Tail is the last n lines of the log so far.
func (p *Proc) Tail(n int) string {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
