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

// TestWaitInterrupted: Ctrl-C (SIGINT) while wait is blocked in a
// kubeconfig's exec credential plugin still prints the verdict so far and
// exits 8, as it does while wait polls, and the plugin (its process group,
// the sleep it started too) does not outlive the command. The waits are
// generous: the machine may be loaded; none of them is asserted.
func TestWaitInterrupted(t *testing.T) {
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin.sh")
	kubeconfig := filepath.Join(dir, "kubeconfig")
	root := filepath.Join(dir, "root") // never rendered: the verdict so far is not-rendered
	for name, body := range map[string]string{plugin: pluginScript, kubeconfig: execKubeconfig(plugin)} {
		if err := os.WriteFile(name, []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "wait", "--root", root, "--kubeconfig", kubeconfig, "--timeout", "10m")
	cmd.Env = append(os.Environ(), runMain+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	pids := pluginStarted(t, plugin+".started", exited, &stderr)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("wait still ran 3 minutes after SIGINT; stderr:\n%s", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 8 {
		t.Errorf("exit %d, want 8 (interrupted); stdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "interrupted by SIGINT after ") || !strings.Contains(stdout.String(), "; NOT ready so far: not-rendered\n") {
		t.Errorf("stdout %q, want the verdict so far", stdout.String())
	}
	for _, pid := range pids {
		gone(t, pid)
	}
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

// TestTeardownInterruptedInThePlugin: SIGTERM while teardown is blocked in
// a kubeconfig's exec credential plugin, before it removed anything, exits
// 8 (interrupted, undone) as its --help says, and the plugin's process
// group does not outlive it. teardown caught signals only around the
// removal, so the signal's default action ended it (143) and left the
// plugin, in a process group of its own, running.
func TestTeardownInterruptedInThePlugin(t *testing.T) {
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin.sh")
	kubeconfig := filepath.Join(dir, "kubeconfig")
	root := filepath.Join(dir, "root")
	for name, body := range map[string]string{plugin: pluginScript, kubeconfig: execKubeconfig(plugin)} {
		if err := os.WriteFile(name, []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "teardown", "--root", root, "--kubeconfig", kubeconfig, "--timeout", "10m")
	cmd.Env = append(os.Environ(), runMain+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	pids := pluginStarted(t, plugin+".started", exited, &stderr)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("teardown still ran 3 minutes after SIGTERM; stderr:\n%s", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 8 || !strings.Contains(stderr.String(), "interrupted by SIGTERM before the teardown changed anything") {
		t.Errorf("exit %d, want 8 (interrupted, undone) and why; stderr:\n%s", code, stderr.String())
	}
	for _, pid := range pids {
		gone(t, pid)
	}
}

// TestReadersKillThePluginOnSignal: status and probe do not catch signals
// (docs/render.md, "Signals"), but a SIGTERM while a kubeconfig's exec
// plugin runs still kills the plugin's process group before the command
// dies by it: the plugin runs in a process group of its own, so the
// signal's default action left it running.
func TestReadersKillThePluginOnSignal(t *testing.T) {
	for _, args := range [][]string{
		{"status", "--timeout", "10m"},
		{"probe", "--webhooks", "--timeout", "10m"},
	} {
		t.Run(args[0], func(t *testing.T) {
			dir := t.TempDir()
			plugin := filepath.Join(dir, "plugin.sh")
			kubeconfig := filepath.Join(dir, "kubeconfig")
			for name, body := range map[string]string{plugin: pluginScript, kubeconfig: execKubeconfig(plugin)} {
				if err := os.WriteFile(name, []byte(body), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(os.Args[0], append(args, "--root", dir, "--kubeconfig", kubeconfig)...)
			cmd.Env = append(os.Environ(), runMain+"=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			pids := pluginStarted(t, plugin+".started", exited, &stderr)
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(3 * time.Minute):
				_ = cmd.Process.Kill()
				<-exited
				t.Fatalf("%s still ran 3 minutes after SIGTERM; stderr:\n%s", args[0], stderr.String())
			}
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !(ws.Signaled() && ws.Signal() == syscall.SIGTERM) && ws.ExitStatus() != 128+int(syscall.SIGTERM) {
				t.Errorf("%s ended %v, want by SIGTERM (it does not catch signals); stderr:\n%s", args[0], ws, stderr.String())
			}
			for _, pid := range pids {
				gone(t, pid)
			}
		})
	}
}
