package v1alpha1

import (
	"errors"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/tlsprofile"
)

// tlsProfilePath is where the profile sits, in this config as in
// OpenShift's APIServer manifest.
const tlsProfilePath = "spec.tlsSecurityProfile"

// resolveTLS settles the agent listener once the version is known: the
// profile (Intermediate when absent), whose minimum a spec.server.
// tlsMinVersion of the user's replaces when no profile is written.
func (s *Spec) resolveTLS() {
	if s.listener != nil || s.tlsErr != nil {
		return
	}
	s.Server.floorWritten = s.Server.TLSMinVersion != "" // before the server's defaults fill it
	settings, err := tlsprofile.Resolve(s.TLSSecurityProfile)
	if err == nil {
		err = settings.CheckFIPS()
	}
	if err != nil {
		s.tlsErr = err
		return
	}
	if s.TLSSecurityProfile == nil && s.Server.TLSMinVersion != "" {
		settings.MinVersion = configv1.TLSProtocolVersion(s.Server.TLSMinVersion)
	}
	if s.version != nil {
		l := tlsprofile.For(settings, s.version)
		s.listener = &l
	}
}

// Listener is the agent listener following the TLS profile on the
// target version, resolved by Default; nil before Default, without a
// known version, or when the profile cannot be followed.
func (s *Spec) Listener() *tlsprofile.Listener { return s.listener }

// tlsProfile words why the profile cannot be followed, field by field,
// and refuses a floor written twice.
func (v *validator) tlsProfile(s *Spec) {
	var errs tlsprofile.Errors
	if errors.As(s.tlsErr, &errs) {
		for _, e := range errs {
			v.add(tlsProfilePath+"."+e.Field, e.Fix, "%s", e.Message)
		}
	}
	if s.TLSSecurityProfile != nil && s.Server.floorWritten {
		v.add("spec.server.tlsMinVersion", "remove spec.server.tlsMinVersion and keep the profile's minTLSVersion (a Custom profile sets its own), or remove spec.tlsSecurityProfile",
			"the agent listener's minimum TLS version is set twice: by spec.tlsSecurityProfile and by spec.server.tlsMinVersion")
	}
}
