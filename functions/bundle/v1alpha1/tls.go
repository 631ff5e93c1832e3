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
// profile (the config's, else the cluster's manifest's, else
// Intermediate), whose minimum a spec.server.tlsMinVersion of the user's
// replaces when neither names a profile.
func (s *Spec) resolveTLS() {
	if s.listener != nil || s.tlsErr != nil {
		return
	}
	s.Server.floorWritten = s.Server.TLSMinVersion != "" // before the server's defaults fill it
	settings, err := tlsprofile.Resolve(s.profile())
	if err == nil {
		err = settings.CheckFIPS()
	}
	if err != nil {
		s.tlsErr = err
		return
	}
	if s.profile() == nil && s.Server.TLSMinVersion != "" {
		settings.MinVersion = configv1.TLSProtocolVersion(s.Server.TLSMinVersion)
	}
	if s.version != nil {
		l := tlsprofile.For(settings, s.version)
		s.listener = &l
	}
}

// clusterProfile is the cluster's own profile and the manifest it is from.
type clusterProfile struct {
	profile *configv1.TLSSecurityProfile
	from    string
}

// profile is the profile followed: the config's, else the cluster's, else
// none (Intermediate).
func (s *Spec) profile() *configv1.TLSSecurityProfile {
	if s.TLSSecurityProfile == nil && s.cluster != nil {
		return s.cluster.profile
	}
	return s.TLSSecurityProfile
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
	switch {
	case s.TLSSecurityProfile != nil && s.Server.floorWritten:
		v.add("spec.server.tlsMinVersion", "remove spec.server.tlsMinVersion and keep the profile's minTLSVersion (a Custom profile sets its own), or remove spec.tlsSecurityProfile",
			"the agent listener's minimum TLS version is set twice: by spec.tlsSecurityProfile and by spec.server.tlsMinVersion")
	case s.cluster == nil:
	case s.Server.floorWritten:
		v.add("spec.server.tlsMinVersion", "remove spec.server.tlsMinVersion: the listener follows the cluster's profile",
			"the cluster's TLS profile (%s in %s) sets the agent listener's minimum, so spec.server.tlsMinVersion would override the cluster's choice", s.cluster.profile.Type, s.cluster.from)
	case s.TLSSecurityProfile != nil && !tlsprofile.Same(s.TLSSecurityProfile, s.cluster.profile):
		v.add(tlsProfilePath, "remove spec.tlsSecurityProfile from the config so the cluster's own profile is followed, or make it the same as the manifest's",
			"the config's profile (%s) disagrees with the cluster's, %s in %s", s.TLSSecurityProfile.Type, s.cluster.profile.Type, s.cluster.from)
	}
}
