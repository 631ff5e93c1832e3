package render

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// buildBundle builds the overlay with the resolved bootstrap IP.
func buildBundle(d *deps, opts Options, ip string) ([]byte, error) {
	stream, err := d.build(opts.Overlay, ip, opts.Image, getenvOf(opts))
	if err == nil {
		return stream, nil
	}
	// Say it in terms of the flag when the overlay wants the other family.
	if fam, ferr := overlayFamily(d, opts); ferr == nil {
		if _, ierr := checkIP(ip, fam); ierr != nil {
			return nil, ierr
		}
	}
	// Hostile YAML and a generator config its function refuses are bad input (exit 3).
	if errors.As(err, new(*yamlguard.Error)) || errors.As(err, new(*kustbuild.ConfigError)) {
		return nil, &InputError{Field: "--overlay", Message: fmt.Sprintf("build overlay %s: %v", overlayName(opts.Overlay), err), Fix: "correct the file or field named above; konnectivity-bundle build DIR shows the same error"}
	}
	return nil, fmt.Errorf("build overlay %s: %w", overlayName(opts.Overlay), err)
}

// getenvOf never returns nil: a nil Getenv means no environment, where the
// build would otherwise fall back to the process's.
func getenvOf(opts Options) func(string) string {
	if opts.Getenv == nil {
		return func(string) string { return "" }
	}
	return opts.Getenv
}

func resolveIP(d *deps, opts Options) (string, error) {
	switch opts.BootstrapIP {
	case "":
		return "", inputErrorf("--bootstrap-ip", "pass the bootstrap node's IP, or auto", "is required")
	case AutoIP:
		fam, err := overlayFamily(d, opts)
		if err != nil {
			return "", err
		}
		raw, err := d.detectIP(fam, getenvOf(opts))
		if err != nil {
			return "", inputErrorf("--bootstrap-ip", "pass the address explicitly", "auto: %v", err)
		}
		ip, err := checkIP(raw, fam)
		if err != nil {
			return "", fmt.Errorf("auto-detected address: %w", err)
		}
		return ip.String(), nil
	default:
		ip, err := checkIP(opts.BootstrapIP, "")
		if err != nil {
			return "", err
		}
		return ip.String(), nil
	}
}

// overlayFamily reads the family from the overlay's own config, after its
// patches; dual-stack agents dial the primary family, which the installer
// takes to be IPv4 unless the first service network is IPv6.
func overlayFamily(d *deps, opts Options) (string, error) {
	fam, err := d.family(opts.Overlay, getenvOf(opts))
	if err != nil {
		return "", fmt.Errorf("build overlay %s: %w", overlayName(opts.Overlay), err)
	}
	if fam == familyIPv6 {
		return familyIPv6, nil
	}
	return familyIPv4, nil
}

func overlayName(o string) string {
	if o == "" {
		return "(default)"
	}
	return o
}

// encodeObjects writes objects back to a stream with their annotations.
func encodeObjects(objs []object) ([]byte, error) {
	nodes := make([]*yaml.RNode, len(objs))
	for i, o := range objs {
		nodes[i] = o.node
	}
	var buf bytes.Buffer
	if err := (kio.ByteWriter{Writer: &buf}).Write(nodes); err != nil {
		return nil, fmt.Errorf("encode the bundle: %w", err)
	}
	return buf.Bytes(), nil
}
