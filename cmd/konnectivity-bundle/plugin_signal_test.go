package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pluginScript is an exec credential plugin that never answers: it starts
// a sleep of its own, writes both process ids, and waits for it. The sleep
// outlasts gone's minute, so a plugin left running is seen.
const pluginScript = `#!/bin/sh
sleep 600 &
echo "$$ $!" > "$0.started.tmp" && mv "$0.started.tmp" "$0.started"
wait
`

// TestSignalInThePlugin: a signal while a command is blocked in a
// kubeconfig's exec credential plugin ends the command as its --help
// says, and the plugin (its process group, the sleep it started too) does
// not outlive it. wait prints the verdict so far and exits 8, as it does
// while it polls; teardown exits 8 before it removed anything; status and
// probe, which catch no signals (docs/render.md, "Signals"), die by it,
// having killed the plugin's group first. Each had let the plugin, in a
// process group of its own, run on, and wait and teardown died by the
// signal. The waits are generous: the machine may be loaded; none of them
// is asserted.
func TestSignalInThePlugin(t *testing.T) {
	byTheSignal := func(t *testing.T, r signalled) {
		if !(r.ws.Signaled() && r.ws.Signal() == r.sig) && r.ws.ExitStatus() != 128+int(r.sig) {
			t.Errorf("ended %v, want by %v (it does not catch signals); stderr:\n%s", r.ws, r.sig, r.stderr)
		}
	}
	for _, tc := range []struct {
		args []string
		sig  syscall.Signal
		want func(*testing.T, signalled)
	}{
		{[]string{"wait"}, syscall.SIGINT, func(t *testing.T, r signalled) {
			if r.ws.ExitStatus() != 8 {
				t.Errorf("exit %v, want 8 (interrupted); stdout:\n%s\nstderr:\n%s", r.ws, r.stdout, r.stderr)
			}
			if !strings.HasPrefix(r.stdout, "interrupted by SIGINT after ") || !strings.Contains(r.stdout, "; NOT ready so far: not-rendered\n") {
				t.Errorf("stdout %q, want the verdict so far", r.stdout)
			}
		}},
		{[]string{"teardown"}, syscall.SIGTERM, func(t *testing.T, r signalled) {
			if r.ws.ExitStatus() != 8 || !strings.Contains(r.stderr, "interrupted by SIGTERM before the teardown changed anything") {
				t.Errorf("exit %v, want 8 (interrupted, undone) and why; stderr:\n%s", r.ws, r.stderr)
			}
		}},
		{[]string{"status"}, syscall.SIGTERM, byTheSignal},
		{[]string{"probe", "--webhooks"}, syscall.SIGTERM, byTheSignal},
	} {
		t.Run(tc.args[0], func(t *testing.T) { tc.want(t, signalInPlugin(t, tc.sig, tc.args...)) })
	}
}

// signalled is how a command ended after signalInPlugin's signal.
type signalled struct {
	sig            syscall.Signal
	ws             syscall.WaitStatus
	stdout, stderr string
}

// signalInPlugin runs the command of args (as a process of this build)
// with a kubeconfig whose exec plugin never answers, sends sig once the
// plugin has started, and fails t unless the command then ends and the
// plugin's processes do not outlive it.
func signalInPlugin(t *testing.T, sig syscall.Signal, args ...string) signalled {
	t.Helper()
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin.sh")
	kubeconfig := filepath.Join(dir, "kubeconfig")
	root := filepath.Join(dir, "root") // never rendered: wait's verdict so far is not-rendered
	for name, body := range map[string]string{plugin: pluginScript, kubeconfig: execKubeconfig(plugin)} {
		if err := os.WriteFile(name, []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], append(args, "--root", root, "--kubeconfig", kubeconfig, "--timeout", "10m")...)
	cmd.Env = append(os.Environ(), runMain+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	pids := pluginStarted(t, plugin+".started", exited, &stderr)
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("%s still ran 3 minutes after %v; stderr:\n%s", args[0], sig, stderr.String())
	}
	for _, pid := range pids {
		gone(t, pid)
	}
	return signalled{sig: sig, ws: cmd.ProcessState.Sys().(syscall.WaitStatus), stdout: stdout.String(), stderr: stderr.String()}
}

// execKubeconfig is a kubeconfig whose one user's credential comes from
// plugin; the server is never reached.
func execKubeconfig(plugin string) string {
	return `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:1"}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ` + plugin + `
      interactiveMode: Never
`
}

// pluginStarted waits for the plugin's marker and returns the process ids
// it wrote (the plugin's and its sleep's).
func pluginStarted(t *testing.T, marker string, exited <-chan error, stderr *bytes.Buffer) []int {
	t.Helper()
	for range 1200 { // 2 minutes
		if b, err := os.ReadFile(marker); err == nil {
			var pids []int
			for _, f := range strings.Fields(string(b)) {
				pid, err := strconv.Atoi(f)
				if err != nil {
					t.Fatalf("marker %q: %v", b, err)
				}
				pids = append(pids, pid)
			}
			return pids
		}
		select {
		case err := <-exited:
			t.Fatalf("wait ended (%v) before the plugin started; stderr:\n%s", err, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatal("the exec plugin did not start within 2 minutes")
	return nil
}

// gone fails t unless pid has ended within a minute: no such process, or a
// zombie its new parent has not reaped yet.
func gone(t *testing.T, pid int) {
	t.Helper()
	for range 600 {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if _, rest, ok := strings.Cut(string(stat), ") "); ok && strings.HasPrefix(rest, "Z") {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("plugin process %d outlived wait", pid)
}
