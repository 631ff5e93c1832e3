// Package certs makes and keeps the bootstrap Konnectivity certificates: a
// short-lived self-signed CA, the proxy-server's serving certificate for the
// bootstrap IP and one client certificate shared by every proxy-agent. It
// signs with crypto/x509 (keys and requests come from cfssl's csr package)
// and reuses what is on disk whenever it is still good, so re-running it
// changes nothing.
package certs

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// Certificate shape as the installer makes them (functions/certs/README.md).
const (
	caCommonName     = "konnectivity-signer"
	serverCommonName = "konnectivity-server"
	agentCommonName  = "konnectivity-agent"
	organization     = "openshift"
)

// Policy constants.
const (
	// DefaultValidity matches the installer: bootstrap lasts well under a day.
	DefaultValidity = 24 * time.Hour
	// backdate moves notBefore into the past so nodes whose clocks lag the
	// bootstrap node's accept the certificates at once.
	backdate = 5 * time.Minute
	// renewBefore is the least remaining lifetime at which files are reused;
	// a bootstrap that is still running then must not lose its tunnel.
	renewBefore = time.Hour
)

// Options says where the certificates live and what they must look like.
type Options struct {
	Dir          string           // certificate directory on disk (0700), files ca.crt ca.key server.crt server.key agent.crt agent.key
	BootstrapIP  netip.Addr       // the server certificate's IP SAN, parsed by the caller (bootstrapip.Validate)
	Validity     time.Duration    // 0 = 24h
	KeyAlgorithm string           // "" or "ecdsa" (P-256, default) | "rsa"
	KeySize      int              // rsa: 2048 (default) | 3072 | 4096; ecdsa: 0 or 256
	Now          func() time.Time // nil = time.Now
}

// FieldError is an invalid option; Field is the Options field name, so
// the CLI and the KRM function can name their own flag or config field.
type FieldError struct {
	Field string // "Dir", "BootstrapIP", "Validity", "KeyAlgorithm" or "KeySize"
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf(format, args...)}
}

// Validate reports the first invalid option as a *FieldError.
func (o Options) Validate() error {
	_, err := o.settings()
	return err
}

// settings are validated Options with defaults applied.
type settings struct {
	dir      string
	ip       netip.Addr
	validity time.Duration
	key      keySpec
	now      time.Time
}

func (o Options) settings() (settings, error) {
	if o.Dir == "" {
		return settings{}, fieldErr("Dir", "empty; give the directory that holds (or will hold) %s and the other files", hostlayout.CACertFile)
	}
	if !o.BootstrapIP.IsValid() {
		return settings{}, fieldErr("BootstrapIP", "not set; give the bootstrap node's IP that agents dial")
	}
	if err := bootstrapip.Check(o.BootstrapIP, ""); err != nil {
		return settings{}, &FieldError{Field: "BootstrapIP", Err: err}
	}
	ip := o.BootstrapIP.Unmap()
	validity := o.Validity
	if validity == 0 {
		validity = DefaultValidity
	}
	if validity <= renewBefore {
		return settings{}, fieldErr("Validity", "%v: must be more than %v, or every run would regenerate the certificates", validity, renewBefore)
	}
	key, err := parseKeySpec(o.KeyAlgorithm, o.KeySize)
	if err != nil {
		return settings{}, err
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	return settings{dir: o.Dir, ip: ip, validity: validity, key: key, now: now().UTC()}, nil
}
