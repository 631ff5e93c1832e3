package render

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"path/filepath"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/installprofile"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// Run renders the bundle onto the host under opts.Root. It holds the
// root's lock throughout, first finishes or undoes a transaction an
// interrupted run left, and then writes all or nothing; a second run with
// the same inputs writes nothing. Once it holds the lock it returns its
// Report even with an error, so Recovered is always told. A cancelled ctx
// stops it between phases and hosttxn between steps (the error wraps
// context.Cause(ctx)).
func Run(ctx context.Context, opts Options) (*Report, error) {
	return runWith(ctx, opts, nil)
}

// runWith takes fault, the file-operation seam of the tests (hostfs.Root.Fault).
func runWith(ctx context.Context, opts Options, fault func(hostfs.Op, string) error) (*Report, error) {
	d := opts.collaborators()
	in, err := resolveInputs(opts)
	if err != nil {
		return nil, err
	}
	s, err := hosttxn.Begin(ctx, opts.Root, hosttxn.SessionOptions{
		Command: "render", Writable: !opts.DryRun, Shared: opts.DryRun, LockTimeout: opts.LockTimeout,
	})
	if err != nil {
		return nil, rootInputError(err)
	}
	defer s.Close()
	h := s.Root
	in.root = h.Dir()
	rep := &Report{Root: in.root, Overlay: overlayName(opts.Overlay), DryRun: opts.DryRun, Recovered: s.Recovered}
	if err := hosttxn.Stopped(ctx); err != nil {
		return rep, err // after the recovery, before any change of its own
	}
	if in.prev, err = previousState(h); err != nil {
		return rep, err
	}
	if in.cluster, err = clusterProfile(h); err != nil {
		return rep, err
	}
	changes, dirs, err := planAll(ctx, d, opts, in, rep)
	if err != nil {
		return rep, err
	}
	if rep.Disabled {
		if changes, err = planDisable(h, in.prev, rep); err != nil {
			return rep, err
		}
	}
	if opts.DryRun {
		return rep, nil
	}
	if rep.Swept, err = s.Sweep(append(hosttxn.CertDirs(in.prev), rep.certRel())...); err != nil {
		return rep, err
	}
	if !rep.Changed() {
		return rep, nil
	}
	h.Fault = fault
	if err := hosttxn.Apply(ctx, h, "render", "the bundle", txnChanges(changes), dirRels(dirs)); err != nil {
		return rep, fmt.Errorf("write the bundle: %w", err)
	}
	return rep, secureCertDir(rep)
}

// hostInputs are the validated inputs and the previous state.
type hostInputs struct {
	root  string
	ip    netip.Addr // the bootstrap IP, once settled (buildModel)
	force bool
	prev  *hostlayout.State
	opts  Options
	// cluster is the install's APIServer/cluster manifest under the root
	// and its TLS profile, which the generator follows; nil when none.
	cluster *installprofile.Found
}

// rootInputError words a --root Begin refused as render's other bad
// inputs (exit 3); any other error passes unchanged.
func rootInputError(err error) error {
	var bad *hosttxn.RootError
	if errors.As(err, &bad) && bad.Err == nil {
		return &InputError{Field: "--root", Message: textsafe.Escape(bad.Message), Fix: bad.Fix} // Message quotes the path
	}
	return err
}

// resolveInputs validates the flags. --bootstrap-ip is settled with the
// overlay's spec before the build (buildModel: auto, the overlay's own
// spec.bootstrapIP and ipFamily). The state is read under the lock (runWith).
func resolveInputs(opts Options) (hostInputs, error) {
	if err := checkImage(opts.Image); err != nil {
		return hostInputs{}, err
	}
	if err := checkKey(opts); err != nil {
		return hostInputs{}, err
	}
	return hostInputs{force: opts.Force, opts: opts}, nil
}

// planAll builds the bundle once and plans every file from that model; a
// disabled bundle plans nothing and sets rep.Disabled.
func planAll(ctx context.Context, d *deps, opts Options, in hostInputs, rep *Report) ([]change, []dirSpec, error) {
	model, ip, source, err := buildModel(d, opts, in.cluster)
	if err != nil {
		return nil, nil, err
	}
	in.ip = ip
	if in.ip.IsValid() {
		rep.BootstrapIP, rep.BootstrapIPSource = in.ip.String(), source
	}
	b, err := newBundle(model.Nodes)
	if err != nil {
		return nil, nil, err
	}
	if opts.Image == "" {
		if err := checkPinned(b.model, opts.Overlay); err != nil {
			return nil, nil, err
		}
	}
	if len(b.model.Objects) == 0 {
		rep.Disabled = true
		return nil, nil, checkModel(d, bundlemodel.New(nil), nil, true, rep)
	}
	if err := hosttxn.Stopped(ctx); err != nil {
		return nil, nil, err
	}
	changes, dirs, err := planHost(d, in, b, rep)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range changes {
		rep.Files = append(rep.Files, FileReport{Path: c.abs, RelPath: c.rel, Placement: c.placement, Action: c.action, Size: len(c.data)})
	}
	return changes, dirs, nil
}

// planHost plans certificates, adds the agent Secret, checks the complete
// model and compares every resulting file with the disk.
func planHost(d *deps, in hostInputs, b *bundle, rep *Report) ([]change, []dirSpec, error) {
	root, ip := in.root, in.ip
	if !ip.IsValid() {
		return nil, nil, inputSentencef(bootstrapip.FlagField, "pass --bootstrap-ip IP, the bootstrap node's address",
			"was not given, and the overlay has no KonnectivityBundle config that could give it").usage()
	}
	certDir, err := b.certDir()
	if err != nil {
		return nil, nil, err
	}
	certAbs := filepath.Join(root, filepath.FromSlash(certDir))
	rep.certDir = certAbs
	if err := confineCertDir(root, strings.TrimPrefix(certDir, "/")); err != nil {
		return nil, nil, err
	}
	// Damage is worth stopping for only where the files could be reused;
	// from an unsafe place they are all replaced anyway.
	if !in.force && certs.TrustReason(certAbs) == "" {
		if err := checkCertFiles(root, strings.TrimPrefix(certDir, "/")); err != nil {
			return nil, nil, err
		}
	}
	cp, err := d.planCerts(certAbs, ip)
	if err != nil {
		return nil, nil, fmt.Errorf("plan certificates in %s: %w", certAbs, err)
	}
	rep.CertsGenerated, rep.CertsReason = cp.Generated, cp.Reason
	if b, err = withAgentSecret(d, b, cp); err != nil {
		return nil, nil, err
	}
	// The state records the owner through prev (newState copies it).
	in.prev.Owner = ownerFor(in.opts, in.prev)
	if err := stampOwner(b.model.Objects, in.prev.Owner); err != nil {
		return nil, nil, err
	}
	b = b.reread() // the checks read the objects as they are written
	if err := checkModel(d, b.model, cp.Files, false, rep); err != nil {
		return nil, nil, err
	}
	want, err := desiredFiles(b.model.Objects, certDir, cp)
	if err != nil {
		return nil, nil, err
	}
	changes, err := planChanges(root, want, in.prev, in.force)
	if err != nil {
		return nil, nil, err
	}
	return withState(root, changes, in.prev, b.model.Objects, strings.TrimPrefix(certDir, "/"))
}

// withAgentSecret adds the Secret built from the planned certificates,
// replacing any the overlay made itself.
func withAgentSecret(d *deps, b *bundle, cp *certPlan) (*bundle, error) {
	ns, hostPath, err := b.agentPlacement()
	if err != nil {
		return nil, err
	}
	node, err := d.agentSecret(cp, ns, hostPath)
	if err != nil {
		return nil, fmt.Errorf("make the agent Secret: %w", err)
	}
	m := bundlemodel.New(append(b.withoutAgentSecret(), node))
	if err := checkPlacement(m.Objects[len(m.Objects)-1]); err != nil {
		return nil, fmt.Errorf("make the agent Secret: %w", err)
	}
	if err := uniqueHostPaths(m.Objects); err != nil {
		return nil, err
	}
	return &bundle{model: m}, nil
}

// checkModel runs the bundle checks on the model; any error finding stops
// render.
func checkModel(d *deps, model *bundlemodel.Bundle, certFiles map[string][]byte, allowEmpty bool, rep *Report) error {
	findings, err := d.check(model, certFiles, allowEmpty)
	if err != nil {
		return fmt.Errorf("check the bundle: %w", err)
	}
	for _, f := range findings {
		if f.Severity != framework.Error {
			rep.Warnings = append(rep.Warnings, f)
		}
	}
	if result.ExitCode(findings) != 0 {
		return &CheckError{Findings: result.Only(findings, framework.Error)}
	}
	return nil
}

// certRel is the planned certificate directory relative to the root, or "".
func (r *Report) certRel() string {
	rel, err := filepath.Rel(r.Root, r.certDir)
	if r.certDir == "" || err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// secureCertDir makes the certificate directory a safe place again after
// the new files are in: certificates from a directory another user owns or
// could write are never reused, so without this every run would replace
// them. A crash before it leaves the directory as it was; the next render
// finds it unsafe, replaces the files again and repairs it.
func secureCertDir(rep *Report) error {
	if rep.certDir == "" {
		return nil
	}
	if err := certs.SecureDir(rep.certDir); err != nil {
		return fmt.Errorf("the bundle is written, but %w", err)
	}
	return nil
}

// desiredFiles is every bundle object and certificate file as written.
func desiredFiles(objs []*bundlemodel.Object, certDir string, cp *certPlan) ([]desiredFile, error) {
	var want []desiredFile
	for _, o := range objs {
		data, err := fileBytes(o)
		if err != nil {
			return nil, err
		}
		mode := fs.FileMode(0o644)
		if o.Kind == "Secret" {
			mode = 0o600 // it holds the agent's private key
		}
		want = append(want, desiredFile{rel: strings.TrimPrefix(o.HostPath(), "/"), data: data, mode: mode, placement: o.Placement()})
	}
	for _, name := range hostlayout.CertFileNames {
		data, ok := cp.Files[name]
		if !ok {
			return nil, fmt.Errorf("the certificate library returned no %s", name)
		}
		rel := strings.TrimPrefix(certDir, "/") + "/" + name
		want = append(want, desiredFile{rel: rel, data: data, mode: certs.ModeOf(name), placement: hostlayout.PlacementCertificate})
	}
	return want, nil
}
