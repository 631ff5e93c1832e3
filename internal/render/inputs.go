package render

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"syscall"

	"github.com/distribution/reference"
)

// IP families as the generator's spec.ipFamily names them.
const (
	familyIPv4 = "ipv4"
	familyIPv6 = "ipv6"
)

// checkRoot requires an existing, writable directory. A dry run only needs
// to read it.
func checkRoot(root string, dryRun bool) (string, error) {
	const field, fix = "--root", "pass an existing writable directory (/ on the bootstrap node)"
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
			return "", inputErrorf(field, fix, "%s is not writable: %v", abs, err)
		}
	}
	return abs, nil
}

// writable asks the kernel, which also answers EROFS for root on a
// read-only mount, where permission bits alone would say yes.
func writable(dir string) error {
	if err := syscall.Access(dir, 0x2 /* W_OK */); err != nil {
		return err
	}
	return nil
}

// checkImage applies the container reference grammar the kubelet's runtime uses.
func checkImage(image string) error {
	const field = "--image"
	fix := "use a reference like quay.io/openshift/origin-apiserver-network-proxy:4.20 or NAME@sha256:<64 hex digits>"
	if image == "" {
		return inputErrorf(field, fix, "is required")
	}
	if _, err := reference.ParseNormalizedNamed(image); err != nil {
		return inputErrorf(field, fix, "%q is not a valid image reference: %v", image, err)
	}
	return nil
}

// checkIP rejects addresses cluster nodes cannot dial. family is "" when
// the overlay's family is not known yet.
func checkIP(raw, family string) (netip.Addr, error) {
	const field = "--bootstrap-ip"
	fixRoutable := "give the bootstrap node's routable address, or auto to detect it"
	ip, err := netip.ParseAddr(raw)
	if err != nil {
		return ip, inputErrorf(field, "give a plain IPv4 or IPv6 address without port or prefix, or auto", "%q is not an IP address", raw)
	}
	var why string
	switch {
	case ip.Zone() != "":
		why = "has a zone; cluster nodes cannot dial a zoned address"
	case ip.Is4In6():
		why = "is an IPv4-mapped IPv6 address; write it as plain IPv4"
	case ip.IsUnspecified():
		why = "is the unspecified address"
	case ip.IsLoopback():
		why = "is a loopback address, unreachable from cluster nodes"
	case ip.IsMulticast():
		why = "is a multicast address"
	case ip.IsLinkLocalUnicast():
		why = "is link-local, unreachable from other networks"
	}
	if why != "" {
		return ip, inputErrorf(field, fixRoutable, "%s %s", raw, why)
	}
	if got := familyOf(ip); family != "" && got != family {
		return ip, inputErrorf(field, fmt.Sprintf("give an %s address, or use an overlay for %s", familyName(family), familyName(got)),
			"%s is an %s address but the overlay's ipFamily needs %s", raw, familyName(got), familyName(family))
	}
	return ip, nil
}

func familyOf(ip netip.Addr) string {
	if ip.Is4() {
		return familyIPv4
	}
	return familyIPv6
}

func familyName(f string) string {
	if f == familyIPv6 {
		return "IPv6"
	}
	return "IPv4"
}
