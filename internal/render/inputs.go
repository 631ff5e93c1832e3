package render

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/distribution/reference"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bootstrapip"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// checkRoot requires an existing, writable directory. A dry run only needs
// to read it.
func checkRoot(root string, dryRun bool) (string, error) {
	const field, fix = "--root", "pass an existing directory (/ on the bootstrap node, as root)"
	if root == "" {
		return "", inputErrorf(field, fix, "is required")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", inputErrorf(field, fix, "%v", err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", inputErrorf(field, fix, "%s does not exist", abs)
	case err != nil:
		return "", inputErrorf(field, fix, "%v", err)
	case !fi.IsDir():
		return "", inputErrorf(field, fix, "%s is a file, not a directory", abs)
	}
	if !dryRun {
		if err := writable(abs); err != nil {
			return "", notWritable(abs, err, os.Geteuid())
		}
	}
	return abs, nil
}

// notWritable is the error for a root render may not write. A user other
// than root denied the bootstrap node's / (or any root) needs root, which
// render does to write root-owned files, not another directory.
func notWritable(abs string, err error, euid int) *InputError {
	if errors.Is(err, fs.ErrPermission) && euid != 0 {
		return inputErrorf("--root", "run it as root (sudo konnectivity-bundle render ...), or pass a scratch directory you own to try a render",
			"%s is not writable by uid %d: render needs root, to write the root-owned files the kubelet and the installer read", abs, euid)
	}
	return inputErrorf("--root", "pass an existing writable directory (/ on the bootstrap node, as root)", "%s is not writable: %v", abs, err)
}

// writable asks the kernel, which also answers EROFS for root on a
// read-only mount, where permission bits alone would say yes.
func writable(dir string) error {
	if err := syscall.Access(dir, 0x2 /* W_OK */); err != nil {
		return err
	}
	return nil
}

// checkImage applies the container reference grammar the kubelet's runtime
// uses. An empty image means the overlay pins it (checkPinned verifies that).
func checkImage(image string) error {
	const field = "--image"
	fix := "use a reference like quay.io/openshift/origin-apiserver-network-proxy:4.20 or NAME@sha256:<64 hex digits>"
	if image == "" {
		return nil
	}
	if _, err := reference.ParseNormalizedNamed(image); err != nil {
		return inputErrorf(field, fix, "%q is not a valid image reference: %v", image, err)
	}
	return nil
}

// checkKey validates --key-algorithm and --key-size with the certificate
// library's own rules.
func checkKey(opts Options) error {
	err := certs.CheckKey(opts.KeyAlgorithm, opts.KeySize)
	var fe *certs.FieldError
	if errors.As(err, &fe) {
		field := "--key-algorithm"
		if fe.Field == "KeySize" {
			field = "--key-size"
		}
		return inputErrorf(field, "use ecdsa (P-256), or rsa with 2048, 3072 or 4096 bits", "%v", fe.Err)
	}
	return err
}

// ipInputError words bootstrapip's verdict on the address from field.
func ipInputError(field string, bad *bootstrapip.Error) *InputError {
	if bad.Problem == bootstrapip.WrongFamily {
		return inputErrorf(field, fmt.Sprintf("give an %s address, or use an overlay for %s", bad.Want.Name(), bad.Got.Name()),
			"%s is an %s address but the overlay's ipFamily needs %s", bad.Input, bad.Got.Name(), bad.Want.Name())
	}
	return inputErrorf(field, "give the bootstrap node's routable IPv4 or IPv6 address (no port or prefix), or auto to detect it", "%v", bad)
}

// checkPinned refuses a bundle whose containers still name the generator's
// placeholder image: without --image, the overlay must pin the image itself
// (an images: entry or spec.image), or the kubelet would pull a name that
// does not exist.
func checkPinned(objs []object, overlay string) error {
	for _, o := range objs {
		for _, path := range [][]string{{"spec", "containers"}, {"spec", "template", "spec", "containers"}} {
			containers, err := o.node.Pipe(yaml.Lookup(path...))
			if err != nil || containers == nil {
				continue
			}
			for _, c := range containers.Content() {
				image := yaml.NewRNode(c).Field("image")
				if image != nil && yaml.GetValue(image.Value) == bundlev1.DefaultImage {
					return inputSentencef("--image", "pass --image REF, or pin the image in the overlay (an images: entry for "+bundlev1.DefaultImage+", or spec.image)",
						"was not given, and %s %s of overlay %s still uses the placeholder image %s", o.kind, o.name, overlayName(overlay), bundlev1.DefaultImage)
				}
			}
		}
	}
	return nil
}
