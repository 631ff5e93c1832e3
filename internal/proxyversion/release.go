package proxyversion

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/distribution/reference"
)

// openShiftTag is an image tag that names an OpenShift release: 4.20,
// 4.20.3, v4.21.0-rc.1, 4.22.0-0.nightly-... (the minor is what decides).
var openShiftTag = regexp.MustCompile(`^v?([45])\.(\d+)(?:[.-].*)?$`)

// NoReleaseError is an image reference that does not say which proxy it
// holds: a digest, no tag, or a tag that names no OpenShift release.
type NoReleaseError struct {
	Image, Why string
}

func (e *NoReleaseError) Error() string {
	return fmt.Sprintf("the image %q %s, so it does not say which proxy version it runs", e.Image, e.Why)
}

// oldReleaseError is an image of an OpenShift release older than any
// supported family ships in (OldestRelease).
type oldReleaseError struct {
	Image   string
	Release Release
}

func (e *oldReleaseError) Error() string {
	return fmt.Sprintf("the image %q names OpenShift %s, older than %s, the oldest release this tool supports (%s)", e.Image, e.Release, OldestRelease(), Names())
}

// LearnFromImage is the one fix for an image whose reference does not tell
// its proxy version: run the image's own proxy-server --help into
// proxy-version --from-help, which reads the version off the flags it lists.
// Every command that cannot tell the version from a reference says it so.
func LearnFromImage(image string) string {
	if q := strconv.Quote(image); q[1:len(q)-1] != image {
		image = q // a reference with a control character in it is shown quoted, never raw
	}
	return "learn it from the image: podman run --rm --entrypoint /usr/bin/proxy-server " + image +
		" --help | konnectivity-bundle proxy-version --from-help -"
}

// FromImage derives the version from an OpenShift image tag (:4.N): the
// family whose OpenShift range holds the release (4.14 to 4.22 ship v0.28,
// 4.23 and 5.x ship v0.36). An image of a release older than OldestRelease is
// an error naming both releases, a digest after its tag notwithstanding; a
// reference by digest, one without a tag or a tag that names no release is a
// *NoReleaseError.
func FromImage(ref string) (*Version, error) {
	r, digested, err := tagRelease(ref)
	if err != nil {
		return nil, err
	}
	v := forRelease(r)
	switch {
	case v == nil:
		return nil, &oldReleaseError{Image: ref, Release: r}
	case digested: // the digest decides what runs; a tag beside it may have moved on
		return nil, &NoReleaseError{Image: ref, Why: "is pinned by digest"}
	}
	return v, nil
}

// tagRelease is the one reader of the release an image's tag names. The tag
// is read whether or not a digest follows it (NAME:TAG@sha256:...): the
// grammar keeps both, and a digest must not hide an unsupported release.
// digested says a digest is there.
func tagRelease(ref string) (r Release, digested bool, err error) {
	parsed, err := reference.Parse(ref)
	if err != nil {
		return r, false, &NoReleaseError{Image: ref, Why: "is not an image reference (" + err.Error() + ")"}
	}
	_, digested = parsed.(reference.Digested)
	tagged, ok := parsed.(reference.Tagged)
	switch {
	case !ok && digested:
		return r, true, &NoReleaseError{Image: ref, Why: "is pinned by digest"}
	case !ok:
		return r, false, &NoReleaseError{Image: ref, Why: "has no tag"}
	}
	tag := tagged.Tag()
	m := openShiftTag.FindStringSubmatch(tag)
	if m == nil {
		if digested {
			return r, true, &NoReleaseError{Image: ref, Why: "is pinned by digest"}
		}
		return r, false, &NoReleaseError{Image: ref, Why: fmt.Sprintf("has the tag %q, which names no OpenShift release (4.N)", tag)}
	}
	major, _ := strconv.Atoi(m[1])
	minor, err := strconv.Atoi(m[2])
	if err != nil {
		return r, digested, &NoReleaseError{Image: ref, Why: fmt.Sprintf("has the tag %q, whose minor release is not a number", tag)}
	}
	return Release{Major: major, Minor: minor}, digested, nil
}

// Unsupported is the error of an image whose OpenShift tag names a release
// older than OldestRelease, and nil for any other reference. Such an image
// is refused even when a proxy version is given beside it: the version names
// which flags to render, but the release pair (its kube-apiserver and
// konnectivity-client) is outside what this tool supports.
func Unsupported(ref string) error {
	var old *oldReleaseError
	if _, err := FromImage(ref); errors.As(err, &old) {
		return old
	}
	return nil
}

// helpFlagName is a flag as pflag's --help lists it: "  -v, --v Level ...".
var helpFlagName = regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z0-9-]+)[ =]`)

// FromHelp picks the version whose proxy-server printed help: the newest
// supported version all of whose flags the help lists. A build with extra
// flags of its own (a downstream carry) still matches; one that lacks a flag
// every supported version has is an error naming it.
func FromHelp(help string) (*Version, error) {
	listed := map[string]bool{}
	for _, m := range helpFlagName.FindAllStringSubmatch(help, -1) {
		listed[m[1]] = true
	}
	if len(listed) < 20 {
		return nil, fmt.Errorf("the text lists %d flags; want proxy-server's --help (`proxy-server --help` prints every flag)", len(listed))
	}
	if err := notServerHelp(listed); err != nil {
		return nil, err
	}
	var lacking []string
	for i := len(Versions) - 1; i >= 0; i-- {
		v := Versions[i]
		lacking = lacking[:0]
		for name, f := range v.Server.Flags {
			if !listed[name] && !f.Hidden {
				lacking = append(lacking, "--"+name)
			}
		}
		if len(lacking) == 0 {
			return v, nil
		}
	}
	sort.Strings(lacking)
	return nil, fmt.Errorf("this proxy-server lacks %s, which every supported version has (%s)", strings.Join(lacking, ", "), Names())
}

// agentMark is the proxy-agent flag a reader knows it by.
const agentMark = "proxy-server-host"

// notServerHelp refuses a help text that lists a flag only proxy-agent has
// (its --help given by mistake), naming it, rather than listing every
// server flag the text lacks.
func notServerHelp(listed map[string]bool) error {
	var agentOnly []string
	for name := range listed {
		if agentFlag(name) && !serverFlag(name) {
			agentOnly = append(agentOnly, "--"+name)
		}
	}
	if len(agentOnly) == 0 {
		return nil
	}
	sort.Strings(agentOnly)
	named := agentOnly[:min(2, len(agentOnly))]
	if listed[agentMark] { // the flag every agent is given: where to dial
		named = []string{"--" + agentMark}
	}
	return fmt.Errorf("this is not proxy-server's --help (it looks like proxy-agent's: it has %s); give the output of the image's /usr/bin/proxy-server --help", strings.Join(named, " and "))
}

// agentFlag says some supported proxy-agent has the flag.
func agentFlag(name string) bool {
	for _, v := range Versions {
		if _, ok := v.Agent.Flags[name]; ok {
			return true
		}
	}
	return false
}

// serverFlag says some supported proxy-server has the flag.
func serverFlag(name string) bool {
	for _, v := range Versions {
		if _, ok := v.Server.Flags[name]; ok {
			return true
		}
	}
	return false
}
