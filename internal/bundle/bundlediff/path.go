package bundlediff

import (
	"regexp"
	"strconv"
	"strings"
)

// path is a field path such as
// spec.template.spec.containers[konnectivity-agent].args[--agent-port].
type path []string

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// field appends a map key: dotted when plain, ["quoted"] otherwise
// (annotation and label keys hold dots and slashes).
func (p path) field(k string) path {
	if plainKey.MatchString(k) {
		if len(p) == 0 {
			return append(path{}, k)
		}
		return append(p[:len(p):len(p)], "."+k)
	}
	return append(p[:len(p):len(p)], "["+strconv.Quote(k)+"]")
}

// item appends a list selector: an index, a name or a flag.
func (p path) item(sel string) path {
	return append(p[:len(p):len(p)], "["+sel+"]")
}

// last is the field name the path ends in ("" for list items).
func (p path) last() string {
	if len(p) == 0 {
		return ""
	}
	s := p[len(p)-1]
	if strings.HasPrefix(s, "[") {
		return ""
	}
	return strings.TrimPrefix(s, ".")
}

func (p path) String() string {
	s := strings.Join(p, "")
	if s == "" {
		return "."
	}
	return s
}
