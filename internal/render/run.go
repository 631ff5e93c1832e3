package render

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
)

// Run renders the bundle onto the host under opts.Root. It holds the
// root's lock throughout, first finishes or undoes a transaction an
// interrupted run left, and then writes all or nothing; a second run with
// the same inputs writes nothing.
func Run(ctx context.Context, opts Options) (*Report, error) {
	return runWith(ctx, opts, nil)
}

// runWith takes fault, the file-operation seam of the tests (hostfs.Root.Fault).
func runWith(ctx context.Context, opts Options, fault func(hostfs.Op, string) error) (*Report, error) {
	d := opts.collaborators()
	in, err := resolveInputs(d, opts)
	if err != nil {
		return nil, err
	}
	h, err := hostfs.Open(in.root)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	rep := &Report{Root: in.root, DryRun: opts.DryRun, BootstrapIP: in.ip}
	lock := h.Lock
	if opts.DryRun {
		lock = h.LockShared
	}
	held, err := lock(opts.LockTimeout)
	if err != nil {
		return nil, err
	}
	defer held.Unlock()
	if !opts.DryRun {
		if rep.Recovered, err = Recover(h); err != nil {
			return nil, err
		}
	} else if ok, _ := h.Exists(JournalPath); ok {
		rep.Recovered = "an interrupted transaction is pending; the next render, teardown or status finishes or undoes it first"
	}
	if in.prev, err = readState(h); err != nil {
		return nil, err
	}
	if !opts.noFastPath {
		if done := fastPath(d, h, in.ip, in.fingerprint, in.prev, rep); done != nil {
			return done, nil
		}
	}
	changes, dirs, err := planAll(ctx, d, opts, in, rep)
	if err != nil {
		return nil, err
	}
	if rep.Disabled {
		if changes, err = planDisable(h, in.prev, rep); err != nil {
			return nil, err
		}
	}
	if opts.DryRun || !rep.Changed() {
		return rep, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	h.Fault = fault
	if err := newTxn(h, "render").apply(changes, dirs); err != nil {
		return nil, fmt.Errorf("write the bundle: %w", err)
	}
	return rep, nil
}

// hostInputs are the validated inputs and the previous state.
type hostInputs struct {
	root, ip    string
	force       bool
	prev        *State
	fingerprint string
}

// resolveInputs validates the flags and resolves the IP.
func resolveInputs(d *deps, opts Options) (hostInputs, error) {
	root, err := checkRoot(opts.Root, opts.DryRun)
	if err != nil {
		return hostInputs{}, err
	}
	if err := checkImage(opts.Image); err != nil {
		return hostInputs{}, err
	}
	ip, err := resolveIP(d, opts)
	if err != nil {
		return hostInputs{}, err
	}
	return hostInputs{root: root, ip: ip, force: opts.Force, fingerprint: fingerprint(opts.Overlay, ip, opts.Image)}, nil
}

// planAll builds the bundle and plans every file; a disabled bundle plans
// nothing and sets rep.Disabled.
func planAll(ctx context.Context, d *deps, opts Options, in hostInputs, rep *Report) ([]change, []dirSpec, error) {
	stream, err := buildBundle(d, opts, in.ip)
	if err != nil {
		return nil, nil, err
	}
	objs, err := parseObjects(stream)
	if err != nil {
		return nil, nil, err
	}
	if opts.Image == "" {
		if err := checkPinned(objs); err != nil {
			return nil, nil, err
		}
	}
	if len(objs) == 0 {
		rep.Disabled = true
		return nil, nil, checkStream(d, stream, nil, true, rep)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	changes, dirs, err := planHost(d, in, &bundle{objects: objs}, stream, rep)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range changes {
		rep.Files = append(rep.Files, FileReport{Path: c.abs, RelPath: c.rel, Placement: c.placement, Action: c.action, Size: len(c.data)})
	}
	return changes, dirs, nil
}

// planHost plans certificates, adds the agent Secret, checks the complete
// stream and compares every resulting file with the disk.
func planHost(d *deps, in hostInputs, b *bundle, stream []byte, rep *Report) ([]change, []dirSpec, error) {
	root, ip := in.root, in.ip
	certDir, err := b.certDir()
	if err != nil {
		return nil, nil, err
	}
	certAbs := filepath.Join(root, filepath.FromSlash(certDir))
	if err := confineCertDir(root, strings.TrimPrefix(certDir, "/")); err != nil {
		return nil, nil, err
	}
	if !in.force {
		if err := checkCertFiles(certAbs); err != nil {
			return nil, nil, err
		}
	}
	cp, err := d.planCerts(certAbs, ip)
	if err != nil {
		return nil, nil, fmt.Errorf("plan certificates in %s: %w", certAbs, err)
	}
	rep.CertsGenerated, rep.CertsReason = cp.Generated, cp.Reason
	full, err := withAgentSecret(d, b, stream, cp)
	if err != nil {
		return nil, nil, err
	}
	if err := checkStream(d, full, cp.Files, false, rep); err != nil {
		return nil, nil, err
	}
	objs, err := parseObjects(full)
	if err != nil {
		return nil, nil, err
	}
	want, err := desiredFiles(objs, certDir, cp)
	if err != nil {
		return nil, nil, err
	}
	changes, err := planChanges(root, want, in.prev, in.force)
	if err != nil {
		return nil, nil, err
	}
	return withState(root, changes, in.prev, objs, strings.TrimPrefix(certDir, "/"), in.fingerprint)
}

// withAgentSecret appends the Secret built from the planned certificates,
// replacing any the overlay made itself.
func withAgentSecret(d *deps, b *bundle, stream []byte, cp *certPlan) ([]byte, error) {
	ns, hostPath, err := b.agentPlacement()
	if err != nil {
		return nil, err
	}
	secret, err := d.agentSecret(cp, ns, hostPath)
	if err != nil {
		return nil, fmt.Errorf("make the agent Secret: %w", err)
	}
	kept := b.withoutAgentSecret()
	if len(kept) != len(b.objects) {
		if stream, err = encodeObjects(kept); err != nil {
			return nil, err
		}
	}
	full := append([]byte{}, stream...)
	if len(full) > 0 && full[len(full)-1] != '\n' {
		full = append(full, '\n')
	}
	full = append(full, "---\n"...)
	return append(full, secret...), nil
}

// checkStream runs the bundle checks; any error finding stops render.
func checkStream(d *deps, stream []byte, certFiles map[string][]byte, allowEmpty bool, rep *Report) error {
	findings, err := d.check(stream, certFiles, allowEmpty)
	if err != nil {
		return fmt.Errorf("check the bundle: %w", err)
	}
	var errs []Finding
	for _, f := range findings {
		if f.Severity == "error" {
			errs = append(errs, f)
		} else {
			rep.Warnings = append(rep.Warnings, f)
		}
	}
	if len(errs) > 0 {
		return &CheckError{Findings: errs}
	}
	return nil
}

// desiredFiles is every bundle object and certificate file as written.
func desiredFiles(objs []object, certDir string, cp *certPlan) ([]desiredFile, error) {
	var want []desiredFile
	for _, o := range objs {
		data, err := o.fileBytes()
		if err != nil {
			return nil, err
		}
		mode := fs.FileMode(0o644)
		if o.kind == "Secret" {
			mode = 0o600 // it holds the agent's private key
		}
		want = append(want, desiredFile{rel: strings.TrimPrefix(o.hostPath, "/"), data: data, mode: mode, placement: o.placement})
	}
	for _, name := range certFileNames {
		data, ok := cp.Files[name]
		if !ok {
			return nil, fmt.Errorf("the certificate library returned no %s", name)
		}
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(name, ".key") {
			mode = 0o600
		}
		rel := strings.TrimPrefix(certDir, "/") + "/" + name
		want = append(want, desiredFile{rel: rel, data: data, mode: mode, placement: PlacementCertificate})
	}
	return want, nil
}
