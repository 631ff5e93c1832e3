package tlsprofile

import (
	"slices"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// The annotations the generator puts on the server pod so that check can
// hold the listener to what was asked: the profile's type and the minimum
// it asks. Internal (hostlayout.AnnotationPrefix), so render strips them.
const (
	AnnotationProfile    = hostlayout.AnnotationPrefix + "tls-profile"
	AnnotationMinVersion = hostlayout.AnnotationPrefix + "tls-min-version"
)

// Annotate records the profile s the listener was rendered to follow.
func Annotate(annotations map[string]string, s Settings) {
	annotations[AnnotationProfile] = string(s.Profile)
	annotations[AnnotationMinVersion] = string(s.MinVersion)
}

// Asked is the profile and minimum an object's annotations record; ok is
// false when they record none, or a type or minimum no profile has: a
// patch's value is then not repeated into check's findings.
func Asked(annotations map[string]string) (profile configv1.TLSProfileType, min configv1.TLSProtocolVersion, ok bool) {
	profile, min = configv1.TLSProfileType(annotations[AnnotationProfile]), configv1.TLSProtocolVersion(annotations[AnnotationMinVersion])
	return profile, min, slices.Contains(types, profile) && Known(min)
}
