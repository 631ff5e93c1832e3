package proxyversion

// A Version travels as itself wherever it can. It crosses as text only
// where it leaves the process or the bundle: as the environment variable a
// build hands the generator (a KRM function, which may run as its own
// process and reads only its environment), and as the annotation the
// generator leaves on the bundle for check, status, wait and the usage
// report. Each crossing is written and read here and nowhere else.

// EnvProxyVersion is the environment variable a build takes the target
// from when neither the config nor a flag names it.
const EnvProxyVersion = "KONNECTIVITY_PROXY_VERSION"

// AnnotationProxyVersion is the annotation the generator puts on the server
// pod and the agent DaemonSet: the family the bundle was rendered for, read
// back by check, status, wait and the usage report.
const AnnotationProxyVersion = "bundle.konnectivity.io/proxy-version"

// WithEnv is getenv with EnvProxyVersion naming v, or getenv itself when v
// is nil: how a build hands its target to the generator.
func WithEnv(getenv func(string) string, v *Version) func(string) string {
	if v == nil {
		return getenv
	}
	return func(key string) string {
		if key == EnvProxyVersion {
			return v.Name
		}
		return getenv(key)
	}
}

// EnvName is the version getenv names, as written ("" when unset): the
// generator's spec.proxyVersion when the config sets none, so that a name
// no version has is refused there as one the config wrote would be.
func EnvName(getenv func(string) string) string { return getenv(EnvProxyVersion) }

// Annotate marks an object's annotations with the version its flags were
// rendered for.
func Annotate(annotations map[string]string, v *Version) {
	annotations[AnnotationProxyVersion] = v.Name
}

// FromAnnotations is the version an object's annotations name: named is
// false when they name none, and err says why a name is no supported
// version.
func FromAnnotations(annotations map[string]string) (v *Version, named bool, err error) {
	raw := annotations[AnnotationProxyVersion]
	if raw == "" {
		return nil, false, nil
	}
	v, err = Lookup(raw)
	return v, true, err
}
