package render

import (
	"bytes"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
)

// TestRenderWording holds render's text, which scripts and the bootkube
// stage read, line for line: each way a run ends, and the notes before it.
func TestRenderWording(t *testing.T) {
	files := []FileReport{
		{Path: "/r/etc/kubernetes/manifests/konnectivity-server.yaml", Action: hosttxn.Create, Size: 1200},
		{Path: "/r/opt/tls/ca.crt", Action: hosttxn.Unchanged, Size: 600},
	}
	same := []FileReport{{Path: "/r/opt/tls/ca.crt", Action: hosttxn.Unchanged, Size: 600}}
	gone := []FileReport{{Path: "/r/opt/tls/ca.crt", Action: hosttxn.Remove}}
	base := Report{Root: "/r", Overlay: "ipv4", BootstrapIP: "192.0.2.10", CertsReason: "valid until 2030"}
	cases := []struct {
		name  string
		edit  func(r *Report)
		text  string
		notes string
	}{
		{"rendered", func(r *Report) {
			r.Files, r.CertsGenerated, r.Recovered, r.Swept = files, true, "an interrupted render was undone", []string{"/r/opt/tls/.ca.key.tmp-1"}
		},
			"create    /r/etc/kubernetes/manifests/konnectivity-server.yaml (1200 bytes)\nunchanged /r/opt/tls/ca.crt (600 bytes)\n" +
				"rendered 2 files for bootstrap IP 192.0.2.10 under /r: 1 created, 0 updated, 1 unchanged, 0 removed; certificates generated (valid until 2030)\n",
			"recovered: an interrupted render was undone\nremoved /r/opt/tls/.ca.key.tmp-1: a temporary file an older certs left\n"},
		{"dry run, auto IP, pending", func(r *Report) {
			r.Files, r.DryRun, r.BootstrapIPSource, r.Recovered = files, true, "OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP", "a run is pending"
		},
			"create    /r/etc/kubernetes/manifests/konnectivity-server.yaml (1200 bytes)\nunchanged /r/opt/tls/ca.crt (600 bytes)\n" +
				"dry run, nothing written; would render 2 files for bootstrap IP 192.0.2.10 (auto: from OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP) under /r: 1 created, 0 updated, 1 unchanged, 0 removed; certificates reused (valid until 2030)\n",
			"warning: a run is pending\n"},
		{"up to date", func(r *Report) { r.Files = same },
			"unchanged /r/opt/tls/ca.crt (600 bytes)\nup to date: all 1 files under /r already match (bootstrap IP 192.0.2.10); nothing written\n", ""},
		{"disabled, nothing to remove", func(r *Report) { r.Disabled, r.Overlay = true, "bip" },
			"Konnectivity is disabled for bootstrap-in-place (overlay bip produces nothing): nothing written\n", ""},
		{"disabled, removed", func(r *Report) { r.Disabled, r.Overlay, r.Files = true, "bip", gone },
			"remove    /r/opt/tls/ca.crt\nKonnectivity is disabled for bootstrap-in-place (overlay bip produces nothing): removed the 1 file(s) an earlier render wrote\n", ""},
		{"disabled, dry run", func(r *Report) { r.Disabled, r.Overlay, r.Files, r.DryRun = true, "bip", gone, true },
			"remove    /r/opt/tls/ca.crt\nKonnectivity is disabled for bootstrap-in-place (overlay bip produces nothing): dry run, nothing written; would remove the 1 file(s) an earlier render wrote\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := base
			tc.edit(&rep)
			var text, notes bytes.Buffer
			if err := rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			rep.WriteNotes(&notes)
			if text.String() != tc.text {
				t.Errorf("text:\n%s\nwant:\n%s", text.String(), tc.text)
			}
			if notes.String() != tc.notes {
				t.Errorf("notes:\n%s\nwant:\n%s", notes.String(), tc.notes)
			}
		})
	}
}
