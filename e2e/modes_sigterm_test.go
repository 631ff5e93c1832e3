//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// kubeDefaultGrace is the terminationGracePeriodSeconds Kubernetes gives a
// pod that sets none (static pods included): the kubelet sends SIGTERM,
// then SIGKILL that long after.
const kubeDefaultGrace = 30 * time.Second

// sigtermWaitsForStreams says, per proxy version, whether proxy-server's
// SIGTERM handling in grpc mode waits for the kube-apiserver's Proxy
// streams. v0.28 (upstream v0.29.0 cmd/server/app/server.go) stops the
// agent server first, by defers run in reverse order: the agents' streams
// end, the server closes every frontend stream relayed through them, and
// the gRPC frontend's GracefulStop finds none left. v0.36 without
// --graceful-shutdown-timeout runs the frontend's GracefulStop first,
// which waits for every Proxy stream, and stops the agent server only then
// (ANP PR #866, after v0.36.0); with the flag it returns when the timeout
// passes.
var sigtermWaitsForStreams = map[string]bool{"v0.28": false, "v0.36": true}

// TestServerSIGTERM stops the real proxy-server the way the kubelet stops
// the rendered static pod, with a live tunnel through it (an idle,
// kept-alive webhook connection, as the kube-apiserver keeps them: in grpc
// mode a Proxy stream, in http-connect a CONNECT tunnel): SIGTERM, then
// SIGKILL once the pod's terminationGracePeriodSeconds has passed. It
// asserts how the process ended: in grpc mode, on a version whose SIGTERM
// waits for the streams (sigtermWaitsForStreams) and without a rendered
// --graceful-shutdown-timeout, only the kubelet's SIGKILL ends it, so the
// grace period is the bound; otherwise it ends on its own before that.
func TestServerSIGTERM(t *testing.T) {
	for _, mode := range []string{bundle.ModeHTTPConnect, bundle.ModeGRPC} {
		t.Run(mode, func(t *testing.T) { runSIGTERM(t, mode) })
	}
}

func runSIGTERM(t *testing.T, mode string) {
	c := newModeCase(t, mode, modesConfig{agents: 1})
	client := kasWebhookClient(kasClusterDialer(t, c.h.kasEgress), c.wh.caPEM)
	if err := rawWebhookCall(t, client, scaleFam.webhookIP)(); err != nil {
		t.Fatalf("webhook call through the tunnel: %v", err)
	}
	// The call's connection stays in the client's idle pool: the live tunnel.
	defer client.CloseIdleConnections()

	grace := kubeDefaultGrace
	if g := c.h.serverPod().Spec.TerminationGracePeriodSeconds; g != nil {
		grace = time.Duration(*g) * time.Second
	}
	bounded := flagValueOK(c.h.server.argv, "--graceful-shutdown-timeout") != ""
	p := c.h.serverProc
	start := time.Now()
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err, exited := p.Wait(grace)
	killed := false
	if !exited {
		killed = true
		if serr := p.Signal(syscall.SIGKILL); serr != nil {
			t.Fatal(serr)
		}
		err, exited = p.Wait(time.Minute) // generous: a loaded machine, not a speed limit
	}
	took := time.Since(start)
	if !exited {
		t.Fatalf("proxy-server still runs a minute after SIGKILL")
	}
	how := exitedBy(err)
	figures.add("sigterm/"+proxyVersion.Name, mode+", live tunnel, grace "+grace.String(),
		fmt.Sprintf("ended %v after SIGTERM: %s; %s", took.Round(10*time.Millisecond), how, machine()))
	waits := mode == bundle.ModeGRPC && sigtermWaitsForStreams[proxyVersion.Name] && !bounded
	switch {
	case waits && how != "SIGKILL":
		t.Errorf("%s: ended %s (%s); want it to wait for the Proxy stream until the kubelet's SIGKILL at the grace period", mode, how, took)
	case !waits && killed:
		t.Errorf("%s: still running at the grace period, ended by the kubelet's SIGKILL; want it to end on SIGTERM", mode)
	}
}

// exitedBy names how a process ended from its Wait error.
func exitedBy(err error) string {
	if err == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return err.Error()
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return signalName(ws.Signal())
	}
	return fmt.Sprintf("exit status %d", ee.ExitCode())
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}
