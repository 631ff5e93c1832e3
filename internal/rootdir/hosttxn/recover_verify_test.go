package hosttxn

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// TestRecoverReportsWhatItCouldNotVerify: when the host does not match
// the journal after Recover rolled it forward (verifyDone) or back
// (verifyUndone), because something other than the interrupted run
// changed it, Recover still finishes (the journal goes) and names what
// does not match instead of claiming success.
func TestRecoverReportsWhatItCouldNotVerify(t *testing.T) {
	secret := secretRel
	for _, tc := range []struct {
		name  string
		files map[string]string // rel: content, before Recover
		op    func(temp string) journalOp
		want  string
	}{{
		name:  "completed, but the parked static pod is gone",
		files: map[string]string{"etc/kubernetes/manifests/kube-apiserver-pod.yaml": "theirs"},
		op: func(string) journalOp {
			return journalOp{Kind: opUnpark, Path: podRel, Placement: hostlayout.PlacementStaticPod, Backup: hostlayout.BackupName(podRel), Old: SHA256([]byte("pod"))}
		},
		want: "was completed, but the host does not show it: " + "%ROOT%/" + podRel + " is not back",
	}, {
		name:  "completed, but a temporary file was replaced",
		files: map[string]string{secret: "new", "%TEMP%": "not what the run wrote"},
		op: func(temp string) journalOp {
			return journalOp{Kind: opWrite, Path: secret, Placement: hostlayout.PlacementClusterManifest, Temp: temp, New: SHA256([]byte("new"))}
		},
		want: "was completed, but the host does not show it: " + "%ROOT%/" + secret + " does not hold its new content",
	}, {
		name:  "undone, but a created file was changed since",
		files: map[string]string{secret: "someone else's"},
		op: func(temp string) journalOp {
			return journalOp{Kind: opWrite, Path: secret, Placement: hostlayout.PlacementClusterManifest, Temp: temp, New: SHA256([]byte("new"))}
		},
		want: "was undone, except that " + "%ROOT%/" + secret + " does not hold its previous content",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			h := openRoot(t, root)
			temp := hostlayout.TempName(secret)
			for rel, data := range tc.files {
				if rel == "%TEMP%" {
					rel = temp
				}
				treetest.WriteRaw(t, root, rel, data, 0o644)
			}
			j := &journal{Version: hostlayout.StateVersion, Command: "render", Ops: []journalOp{tc.op(temp)}}
			if err := writeJournal(h, j); err != nil {
				t.Fatal(err)
			}
			msg, err := recoverJournal(h)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.ReplaceAll(tc.want, "%ROOT%", root); !strings.Contains(msg, want) {
				t.Errorf("Recover said %q, want it to contain %q", msg, want)
			}
			if exists(h, hostlayout.JournalPath) {
				t.Error("the journal is still there")
			}
		})
	}
}
