package check

import (
	"fmt"
	"path"
	"strings"
)

// flagKind is how pflag parses a flag's value.
type flagKind int

const (
	kindString flagKind = iota
	kindBool
	kindInt
	kindDuration
	kindFloat
)

// binary describes one ANP command-line program.
type binary struct {
	name  string // basename of the executable
	flags map[string]flagKind
	short map[string]string // pflag shorthand -> long name
}

// klogFlags are added to both binaries from klog.InitFlags with '_' turned
// into '-' (ANP's util.Normalize), so `--log_file` is unknown to them.
var klogFlags = map[string]flagKind{
	"log-dir": kindString, "log-file": kindString, "log-file-max-size": kindInt,
	"logtostderr": kindBool, "alsologtostderr": kindBool,
	"legacy-stderr-threshold-behavior": kindBool, "v": kindInt,
	"add-dir-header": kindBool, "skip-headers": kindBool, "one-output": kindBool,
	"skip-log-headers": kindBool, "stderrthreshold": kindString,
	"alsologtostderrthreshold": kindString, "vmodule": kindString,
	"log-backtrace-at": kindString, "help": kindBool,
}

// serverBinary is proxy-server v0.36.0 (cmd/server/app/options).
var serverBinary = newBinary("proxy-server", map[string]flagKind{
	"server-cert": kindString, "server-key": kindString, "server-ca-cert": kindString,
	"cluster-cert": kindString, "cluster-key": kindString, "cluster-ca-cert": kindString,
	"mode": kindString, "uds-name": kindString, "delete-existing-uds-file": kindBool,
	"server-port": kindInt, "server-bind-address": kindString,
	"agent-port": kindInt, "agent-bind-address": kindString,
	"admin-port": kindInt, "admin-bind-address": kindString,
	"health-port": kindInt, "health-bind-address": kindString,
	"keepalive-time": kindDuration, "frontend-keepalive-time": kindDuration,
	"enable-profiling": kindBool, "enable-contention-profiling": kindBool,
	"server-id": kindString, "server-count": kindInt,
	"agent-namespace": kindString, "agent-service-account": kindString,
	"kubeconfig": kindString, "kubeconfig-qps": kindFloat, "kubeconfig-burst": kindInt,
	"kube-api-content-type": kindString, "authentication-audience": kindString,
	"proxy-strategies": kindString, "cipher-suites": kindString,
	"tls-min-version": kindString, "xfr-channel-size": kindInt,
	"enable-lease-controller": kindBool, "lease-namespace": kindString,
	"lease-label": kindString, "graceful-shutdown-timeout": kindDuration,
	"backend-dial-timeout": kindDuration, "warn-on-channel-limit": kindBool,
})

// agentBinary is proxy-agent v0.36.0 (cmd/agent/app/options).
var agentBinary = newBinary("proxy-agent", map[string]flagKind{
	"agent-cert": kindString, "agent-key": kindString, "ca-cert": kindString,
	"proxy-server-host": kindString, "proxy-server-port": kindInt,
	"alpn-proto": kindString, "health-server-host": kindString,
	"health-server-port": kindInt, "admin-server-port": kindInt,
	"admin-bind-address": kindString, "enable-profiling": kindBool,
	"enable-contention-profiling": kindBool, "agent-id": kindString,
	"sync-interval": kindDuration, "probe-interval": kindDuration,
	"sync-interval-cap": kindDuration, "keepalive-time": kindDuration,
	"service-account-token-path": kindString, "agent-identifiers": kindString,
	"warn-on-channel-limit": kindBool, "sync-forever": kindBool,
	"xfr-channel-size": kindInt, "count-server-leases": kindBool,
	"lease-namespace": kindString, "lease-label": kindString,
	"server-count-source": kindString, "kubeconfig": kindString,
	"kube-api-content-type": kindString,
})

func newBinary(name string, own map[string]flagKind) *binary {
	b := &binary{name: name, flags: map[string]flagKind{}, short: map[string]string{"v": "v", "h": "help"}}
	for k, v := range klogFlags {
		b.flags[k] = v
	}
	for k, v := range own {
		b.flags[k] = v
	}
	return b
}

// runs reports whether argv[0] of a container starts this binary.
func (b *binary) runs(argv []string) bool {
	return len(argv) > 0 && path.Base(argv[0]) == b.name
}

// flagUse is one flag as written on the command line.
type flagUse struct {
	Name     string
	Value    string
	HasValue bool   // false for a bare boolean flag
	Field    string // where it is written, e.g. spec.containers[0].args[3]
}

// flagSet is a parsed command line: the last use of a flag wins, as in pflag.
type flagSet struct {
	last    map[string]flagUse
	order   []string // names in the order first given
	unknown []flagUse
	missing []flagUse // flags that need a value but are last on the line
}

// get returns the value of a flag and whether it was given.
func (s *flagSet) get(name string) (flagUse, bool) {
	u, ok := s.last[name]
	return u, ok
}

// valueOr returns the flag's value, or def when it is not given.
func (s *flagSet) valueOr(name, def string) string {
	if u, ok := s.last[name]; ok {
		return u.Value
	}
	return def
}

// fieldOr is where the flag is written, or def (the container's args) when it is not.
func (s *flagSet) fieldOr(name, def string) string {
	if u, ok := s.last[name]; ok {
		return u.Field
	}
	return def
}

// value returns the flag's value, or "" when it is not given.
func (s *flagSet) value(name string) string {
	return s.last[name].Value
}

// parseFlags parses argv[1:] the way pflag does for b. fields[i] names where
// argv[i] is written.
func parseFlags(b *binary, argv, fields []string) *flagSet {
	s := &flagSet{last: map[string]flagUse{}}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			break
		}
		name, value, hasValue, ok := splitFlag(b, a)
		if !ok {
			continue // a positional argument: cobra passes it on, ANP ignores it
		}
		use := flagUse{Name: name, Value: value, HasValue: hasValue, Field: fields[i]}
		kind, known := b.flags[name]
		if !known {
			s.unknown = append(s.unknown, use)
			continue
		}
		if !hasValue && kind != kindBool {
			if i+1 >= len(argv) {
				s.missing = append(s.missing, use)
				continue
			}
			i++
			use.Value, use.HasValue = argv[i], true
		}
		if !use.HasValue {
			use.Value = "true"
		}
		if _, seen := s.last[name]; !seen {
			s.order = append(s.order, name)
		}
		s.last[name] = use
	}
	return s
}

// splitFlag splits "--name=value", "--name" and the shorthands "-v2", "-v=2", "-v".
func splitFlag(b *binary, a string) (name, value string, hasValue, ok bool) {
	switch {
	case strings.HasPrefix(a, "--") && len(a) > 2:
		if n, v, found := strings.Cut(a[2:], "="); found {
			return n, v, true, true
		}
		return a[2:], "", false, true
	case strings.HasPrefix(a, "-") && len(a) > 1:
		long, isShort := b.short[a[1:2]]
		if !isShort {
			return a, "", false, true // pflag refuses it as an unknown shorthand
		}
		if rest := a[2:]; rest != "" {
			return long, strings.TrimPrefix(rest, "="), true, true
		}
		return long, "", false, true
	}
	return "", "", false, false
}

// argvFields names where each argv entry is written inside a container.
func argvFields(containerField string, nCommand, nArgs int) []string {
	out := make([]string, 0, nCommand+nArgs)
	for i := 0; i < nCommand; i++ {
		out = append(out, fmt.Sprintf("%s.command[%d]", containerField, i))
	}
	for i := 0; i < nArgs; i++ {
		out = append(out, fmt.Sprintf("%s.args[%d]", containerField, i))
	}
	return out
}
