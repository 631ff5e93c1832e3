package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
)

// The fast path answers "nothing to do" without building or checking the
// bundle again, which is most of a re-run's cost. It applies only when the
// output is fully determined by what the fingerprint covers: this very
// binary (its embedded overlays and generator), an embedded overlay name,
// the bootstrap IP and the image. A kustomization directory can reference
// anything, so it always takes the full path.

// fingerprint identifies the inputs of a render, or "" when the fast path
// cannot apply.
func fingerprint(overlay, ip, image string) string {
	if overlay == "" {
		overlay = kustbuild.DefaultOverlay
	}
	if _, err := os.Stat(overlay); err == nil || strings.ContainsRune(overlay, filepath.Separator) {
		return "" // a directory (kustbuild prefers it over an embedded name)
	}
	exe, err := executableID()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{"render-inputs/1", exe, overlay, ip, image}, "\x00")))
	return hex.EncodeToString(sum[:])
}

// executableID changes whenever the binary is rebuilt or replaced.
func executableID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	var st syscall.Stat_t
	if err := syscall.Stat(exe, &st); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s:%d:%d:%d:%d", exe, st.Dev, st.Ino, st.Size, st.Mtim.Nano()), nil
}

// fastPath returns the report of a render that would change nothing, or nil
// when the full path must run: other inputs, a file that differs from its
// record, or certificates the library wants to replace.
func fastPath(d *deps, h *hostfs.Root, ip, fp string, prev *hostlayout.State, rep *Report) *Report {
	if fp == "" || prev.Inputs != fp || len(prev.Files) == 0 {
		return nil
	}
	certDir := ""
	files := make([]FileReport, 0, len(prev.Files)+1)
	for _, f := range prev.Files {
		abs := h.Abs(f.Path)
		size, ok := matchesRecord(h, f)
		if !ok {
			return nil
		}
		if f.Placement == hostlayout.PlacementCertificate {
			certDir = path.Dir(f.Path)
		}
		files = append(files, FileReport{Path: abs, RelPath: f.Path, Placement: f.Placement, Action: ActionUnchanged, Size: size})
	}
	if certDir == "" {
		return nil
	}
	if confineDir(h, certDir) != nil {
		return nil
	}
	cp, err := d.planCerts(h.Abs(certDir), ip)
	if err != nil || cp.Generated {
		return nil
	}
	stateAbs := h.Abs(hostlayout.StatePath)
	fi, err := h.Regular(hostlayout.StatePath)
	if err != nil {
		return nil
	}
	rep.Files = append([]FileReport{{Path: stateAbs, RelPath: hostlayout.StatePath, Placement: hostlayout.PlacementState, Action: ActionUnchanged, Size: int(fi.Size())}}, files...)
	rep.CertsReason = cp.Reason
	return rep
}

// matchesRecord compares a file with its state record: bytes and mode.
func matchesRecord(h *hostfs.Root, f hostlayout.StateFile) (int, bool) {
	fi, err := h.Regular(f.Path)
	if err != nil || f.Mode == "" || fmt.Sprintf("%04o", fi.Mode().Perm()) != f.Mode {
		return 0, false
	}
	data, err := h.ReadFile(f.Path)
	if err != nil || hosttxn.SHA256(data) != f.SHA256 {
		return 0, false
	}
	return len(data), true
}
