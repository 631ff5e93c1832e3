package anp

import (
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

// OldReleaseError is an image of an OpenShift release older than any
// supported family ships in (OldestRelease).
type OldReleaseError struct {
	Image   string
	Release Release
}

func (e *OldReleaseError) Error() string {
	return fmt.Sprintf("the image %q names OpenShift %s, older than %s, the oldest release this tool supports (%s)", e.Image, e.Release, OldestRelease(), Names())
}

// FromImage derives the version from an OpenShift image tag (:4.N): the
// family whose OpenShift range holds the release (4.14 to 4.22 ship v0.28,
// 4.23 and 5.x ship v0.36). An image of a release older than OldestRelease is an
// *OldReleaseError; a reference by digest, one without a tag or a tag that
// names no release is a *NoReleaseError.
func FromImage(ref string) (*Version, error) {
	parsed, err := reference.Parse(ref)
	if err != nil {
		return nil, &NoReleaseError{Image: ref, Why: "is not an image reference (" + err.Error() + ")"}
	}
	if _, digested := parsed.(reference.Digested); digested {
		return nil, &NoReleaseError{Image: ref, Why: "is pinned by digest"}
	}
	tagged, ok := parsed.(reference.Tagged)
	if !ok {
		return nil, &NoReleaseError{Image: ref, Why: "has no tag"}
	}
	tag := tagged.Tag()
	m := openShiftTag.FindStringSubmatch(tag)
	if m == nil {
		return nil, &NoReleaseError{Image: ref, Why: fmt.Sprintf("has the tag %q, which names no OpenShift release (4.N)", tag)}
	}
	major, _ := strconv.Atoi(m[1])
	minor, err := strconv.Atoi(m[2])
	if err != nil {
		return nil, &NoReleaseError{Image: ref, Why: fmt.Sprintf("has the tag %q, whose minor release is not a number", tag)}
	}
	r := Release{Major: major, Minor: minor}
	if v := forRelease(r); v != nil {
		return v, nil
	}
	return nil, &OldReleaseError{Image: ref, Release: r}
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
