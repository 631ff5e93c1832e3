package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// klogLine is the header klog starts each of its lines with (severity,
// date, time, thread id, file:line]).
var klogLine = regexp.MustCompile(`(?m)^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^ ]+:\d+\] `)

// TestLibrariesPrintNothing: client-go logs through klog straight to the
// process's stderr (an answer over its byte cap is "Unexpected error when
// reading response body"), past the command's escaping and its --timeout's
// writers. The program says every error in its own words, so a command
// against a kube-apiserver that sends a huge object prints the cap once, as
// its own line, and no klog line.
func TestLibrariesPrintNothing(t *testing.T) {
	tooltest.Integration(t, "renders a root and runs status as a process")
	kc := fakekas.Kubeconfig(t, "", fakekas.Hostile(t, fakekas.HugeObject))
	root := t.TempDir()
	if r := runCommand(t, "", "", "render", "--root", root, "--bootstrap-ip", "192.0.2.10", "--image", "quay.io/openshift/origin-apiserver-network-proxy:4.20", "-q"); r.code != 0 {
		t.Fatalf("render: exit %d\n%s", r.code, r.stderr)
	}
	// 127.0.0.2: no server of another test answers for the bundle's ports.
	r := runCommand(t, "", "", "status", "--root", root, "--health-host", "127.0.0.2", "--kubeconfig", kc, "--timeout", "1m")
	if l := klogLine.FindString(r.stderr); l != "" {
		t.Errorf("a library printed a log line of its own (%q):\n%s", l, r.stderr)
	}
	if !strings.Contains(r.stdout+r.stderr, "passed the cap of 32 MiB per response") {
		t.Errorf("status did not say the cap in its own words:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}
