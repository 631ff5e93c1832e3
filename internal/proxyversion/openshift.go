package proxyversion

import "fmt"

// Release is an OpenShift release's major and minor number (4.20, 5.0).
type Release struct{ Major, Minor int }

func (r Release) String() string { return fmt.Sprintf("%d.%d", r.Major, r.Minor) }

// before reports whether r is an older release than o.
func (r Release) before(o Release) bool {
	return r.Major < o.Major || r.Major == o.Major && r.Minor < o.Minor
}

// Releases is the range of OpenShift releases whose apiserver-network-proxy
// image ships one proxy family: First to Last, or First and every later
// release when Last is the zero Release. It is the one statement of which
// release ships which family: the prose (String) and the image-tag mapping
// (FromImage) are both read from it.
type Releases struct{ First, Last Release }

// contains reports whether r is in the range.
func (rs Releases) contains(r Release) bool {
	if r.before(rs.First) {
		return false
	}
	return rs.Last == (Release{}) || !rs.Last.before(r)
}

// String says the range as the docs do: "4.14 to 4.22", "4.23 and later".
func (rs Releases) String() string {
	if rs.Last == (Release{}) {
		return rs.First.String() + " and later"
	}
	return rs.First.String() + " to " + rs.Last.String()
}

// OldestRelease is the oldest OpenShift release any supported family
// ships in: images of older releases are refused.
func OldestRelease() Release { return Versions[0].OpenShift.First }

// forRelease is the family release r ships, nil when no supported family
// covers it.
func forRelease(r Release) *Version {
	for _, v := range Versions {
		if v.OpenShift.contains(r) {
			return v
		}
	}
	return nil
}
