package teardown

import (
	"bytes"
	"errors"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// TestTeardownReportEscapesNames: paths from the state file and object names
// from the cluster reach teardown's lines escaped, and so do the warnings
// that quote them.
func TestTeardownReportEscapesNames(t *testing.T) {
	h := hostiletext.Values
	rep := &Report{Removed: h, AlreadyGone: h, Deleted: h, NotFound: h, Refused: h, Warnings: h}
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	hostiletext.AssertInert(t, "teardown report", out.String())
	if got, want := bytes.Count(out.Bytes(), []byte("\n")), 5*len(h)+1; got != want {
		t.Errorf("%d lines, want %d:\n%s", got, want, out.String())
	}
	var notes bytes.Buffer
	rep.WriteNotes(&notes)
	hostiletext.AssertInert(t, "teardown warnings", notes.String())
	if got, want := bytes.Count(notes.Bytes(), []byte("\n")), len(h); got != want {
		t.Errorf("%d warning lines, want %d:\n%s", got, want, notes.String())
	}
}

// TestTeardownWording holds teardown's text, which scripts and the
// bootkube stage read, line for line.
func TestTeardownWording(t *testing.T) {
	rep := &Report{
		Recovered: "an interrupted render was undone", Warnings: []string{"no kubeconfig: 1 cluster object(s) in namespace kube-system not deleted; they stay recorded"},
		Removed: []string{"/r/etc/kubernetes/manifests/konnectivity-server.yaml"}, AlreadyGone: []string{"/r/gone"},
		Deleted: []string{"DaemonSet kube-system/konnectivity-agent"}, NotFound: []string{"Secret kube-system/konnectivity-agent-certs"},
		Refused: []string{"Namespace kube-system"}, Pending: []hostlayout.ObjectRef{{}},
	}
	var out, notes bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	rep.WriteNotes(&notes)
	const wantOut = `removed   /r/etc/kubernetes/manifests/konnectivity-server.yaml
gone      /r/gone
deleted   DaemonSet kube-system/konnectivity-agent (background, not waiting)
gone      Secret kube-system/konnectivity-agent-certs
refused   Namespace kube-system (not ours, left in place; see the warning)
teardown: 1 removed, 1 already gone, 1 cluster object(s) deleted, 1 already gone, 1 refused, 1 still recorded
`
	const wantNotes = `recovered: an interrupted render was undone
warning: no kubeconfig: 1 cluster object(s) in namespace kube-system not deleted; they stay recorded
`
	if out.String() != wantOut {
		t.Errorf("text:\n%s\nwant:\n%s", out.String(), wantOut)
	}
	if notes.String() != wantNotes {
		t.Errorf("notes:\n%s\nwant:\n%s", notes.String(), wantNotes)
	}
	if got := rep.Unfinished(); got != "" {
		t.Errorf("a finished teardown says %q is left", got)
	}
	rep.Stopped = errors.New("interrupted by SIGTERM")
	if got, want := rep.Unfinished(), "the teardown removed its files from the host and stopped before the cluster objects; 1 stay recorded in the state file (run teardown --kubeconfig again)"; got != want {
		t.Errorf("a stopped teardown says %q, want %q", got, want)
	}
	if got := (*Report)(nil).Unfinished(); got != "" {
		t.Errorf("no teardown says %q is left", got)
	}
}
