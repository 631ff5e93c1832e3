package proxyversion

// A Version travels as itself wherever it can: within the process, from
// --proxy-version to the generator, it is a *Version (the generator's
// Inputs.ProxyVersion). It crosses as text only where it enters or leaves
// the process or the bundle: as the environment variable, which the user or
// a bootstrap script writes and the generator reads when no flag names the
// version (kustomize's exec, container and legacy wirings run it as its own
// process, with only its environment); and as the annotation the generator
// leaves on the bundle for check, status, wait and the usage report. Each
// crossing is read here and nowhere else, and the annotation also written.

// EnvProxyVersion is the environment variable a build takes the target
// from when neither the config nor a flag names it.
const EnvProxyVersion = "KONNECTIVITY_PROXY_VERSION"

// AnnotationProxyVersion is the annotation the generator puts on the server
// pod and the agent DaemonSet: the family the bundle was rendered for, read
// back by check, status, wait and the usage report.
const AnnotationProxyVersion = "bundle.konnectivity.io/proxy-version"

// EnvName is the version getenv names, as written ("" when unset): the
// generator's spec.proxyVersion when neither the config nor its caller
// (Inputs.ProxyVersion) sets one, so that a name no version has is refused
// there as one the config wrote would be.
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
