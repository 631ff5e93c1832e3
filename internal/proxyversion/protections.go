package proxyversion

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Protection is one proxy-server flag a newer proxy added after production
// incidents, which the bundle renders on every target that has it and
// leaves out on one that lacks it, since the older server would refuse to
// start (docs/proxy-versions.md). Its row here is all the generator, the
// generator's validation, check and wait know of it: its flag, the versions
// that have it and the values it takes. Adding a protection is a row in
// Protections plus the field that names its flag where the config lives
// (a protection tag in functions/bundle/v1alpha1's ServerSpec).
type Protection struct {
	// Flag is proxy-server's flag; the versions whose server has it
	// (Version.Has) get it rendered.
	Flag string
	// Default is the flag's value when the config leaves it unset.
	Default string
	// Zero, for an integer flag, is why 0 is never the value to render:
	// a config's 0 is unset, and would quietly become Default.
	Zero string
	// Validate judges a value the spec gives (written as the flag takes
	// it) for a target that has the flag: a fix and a message, or "", "".
	Validate func(value string) (fix, msg string)
	// Check judges the value a rendered server runs with (the given one,
	// else the binary's default) for check; nil when nothing is wrong.
	Check func(value string, flag Flag) *Problem
	// Absent, when set, is check's note on a target whose server lacks the
	// flag; mode is the server's --mode.
	Absent func(v *Version, mode string) *Problem
}

// Level is what a Problem means for the server.
type Level int

// The levels of a Problem, as check reports them: info, warning, error.
const (
	Note  Level = iota // nothing to set; says what the server lacks
	Weak               // the server starts, less protected than it should be
	Fatal              // the server refuses the value and exits at start
)

// Problem is one finding of check on a protection flag.
type Problem struct {
	Rule         string // check's rule id (functions/check/README.md)
	Level        Level
	Fix, Message string
}

// Defaults and bounds of the protections, as their flags take them
// (docs/config.md states them).
const (
	// DefaultBackendDialTimeout bounds a dial an agent never answers (a
	// frozen or partitioned agent): upstream's 0s lets such dials pile up
	// until each caller's own timeout. 6s is one second above the agent's
	// own dial timeout (AgentDialTimeout), so a live agent always answers
	// first with the real error (refused, unreachable), and below the
	// kube-apiserver's default webhook timeout of 10s, so the kube-apiserver
	// sees the tunnel's verdict (e2e TestFrozenAgent).
	DefaultBackendDialTimeout = "6s"
	// DefaultTLSMinVersion is what proxy-server uses when the flag is
	// empty, and what a server without the flag is fixed at (v0.28's
	// getTLSConfig sets tls.VersionTLS12); rendered so the bundle states
	// it and check can hold it.
	DefaultTLSMinVersion = "VersionTLS12"
	// DefaultXfrChannelSize is upstream's server default, rendered so that
	// a change shows in diff; see docs/config.md for why it stays.
	DefaultXfrChannelSize = 10
	// MaxXfrChannelSize bounds the buffer: each agent stream and each
	// kube-apiserver stream holds up to that many packets.
	MaxXfrChannelSize = 1000
)

// The protection flags' names, for their rows and their judges.
const (
	flagDialBound  = "backend-dial-timeout"
	flagTLSFloor   = "tls-min-version"
	flagXfrChannel = "xfr-channel-size"
)

// The protections, in the order the generator renders them.
var (
	// BackendDialTimeout bounds how long the server waits for an agent to
	// answer a dial (v0.36); wait reads it to tell a stuck agent.
	BackendDialTimeout = &Protection{Flag: flagDialBound,
		Default: DefaultBackendDialTimeout, Validate: validateDialBound, Check: checkDialBound, Absent: noDialBound}
	// TLSMinVersion is the agent listener's oldest TLS version (a flag
	// since v0.35, fixed at 1.2 before).
	TLSMinVersion = &Protection{Flag: flagTLSFloor,
		Default: DefaultTLSMinVersion, Validate: validateTLSFloor, Check: checkTLSFloor}
	// XfrChannelSize is the packets buffered per stream (a flag since
	// v0.31, a constant of 10 before).
	XfrChannelSize = &Protection{Flag: flagXfrChannel,
		Default: strconv.Itoa(DefaultXfrChannelSize), Zero: "a channel of 0 packets is refused by proxy-server (channel size 0 must be greater than 0)",
		Validate: validateXfrChannel, Check: checkXfrChannel}

	// Protections are every protection flag, in the order rendered.
	Protections = []*Protection{BackendDialTimeout, TLSMinVersion, XfrChannelSize}
)

// validateDialBound: the bound must end the wait (0 is upstream's "never")
// and be long enough for a live agent's own verdict, yet shorter than the
// longest webhook timeout, or it could never fire first.
func validateDialBound(raw string) (fix, msg string) {
	d, err := time.ParseDuration(raw)
	switch {
	case err != nil:
		return "write a Go duration such as " + DefaultBackendDialTimeout, fmt.Sprintf("%q is not a duration", raw)
	case d <= 0:
		return "give a bound such as " + DefaultBackendDialTimeout,
			raw + " leaves dials unbounded: dials to a stuck agent pile up until each caller's own timeout"
	case d <= AgentDialTimeout:
		return fmt.Sprintf("use more than the agent's own dial timeout %s, e.g. %s", AgentDialTimeout, DefaultBackendDialTimeout),
			fmt.Sprintf("%s is not above the agent's own %s dial timeout: a target that does not answer would show as a tunnel timeout, not as unreachable", raw, AgentDialTimeout)
	case d >= maxWebhookTimeout:
		return fmt.Sprintf("use less than %s, e.g. %s", maxWebhookTimeout, DefaultBackendDialTimeout),
			fmt.Sprintf("%s is not below the longest webhook timeout %s: every caller gives up first, so dials to a stuck agent still pile up", raw, maxWebhookTimeout)
	}
	return "", ""
}

// checkDialBound: a negative bound stops the server; none, or one no
// webhook call waits for, lets dials to a stuck agent pile up.
func checkDialBound(value string, _ Flag) *Problem {
	d, err := time.ParseDuration(value)
	flag := "--" + flagDialBound
	switch {
	case err != nil: // flag-value-invalid says so
		return nil
	case d < 0:
		return &Problem{Rule: "backend-dial-timeout-unbounded", Level: Fatal, Fix: "set " + flag + "=" + DefaultBackendDialTimeout,
			Message: fmt.Sprintf("%s=%s is negative (proxy-server: %s must be >= 0)", flag, d, flagDialBound)}
	case d == 0:
		return &Problem{Rule: "backend-dial-timeout-unbounded", Level: Weak,
			Fix:     fmt.Sprintf("set %s=%s: above the agent's own %s dial timeout, below the kube-apiserver's 10s default webhook timeout", flag, DefaultBackendDialTimeout, AgentDialTimeout),
			Message: flag + " is 0 (unbounded): dials to a stuck agent pile up until each webhook call's own timeout"}
	case d >= maxWebhookTimeout:
		return &Problem{Rule: "backend-dial-timeout-unbounded", Level: Weak, Fix: "set " + flag + "=" + DefaultBackendDialTimeout,
			Message: fmt.Sprintf("%s=%s is not below the longest webhook timeout %s, so it never fires before the caller gives up", flag, d, maxWebhookTimeout)}
	}
	return nil
}

// noDialBound says what a server without the bound does with a dial to a
// frozen agent, and whether wait can still name that agent: its evidence
// is a dial still pending on the server, which in grpc mode the
// kube-apiserver's own cancel removes (docs/proxy-versions.md).
func noDialBound(v *Version, mode string) *Problem {
	named := "wait names such an agent from the change of the server's pending dials"
	if mode == ModeGRPC {
		named = "in grpc mode the call's own cancel ends the dial, and wait names no agent"
	}
	fix := "nothing to set on this version"
	if _, newer := v.Server.IntroducedIn(flagDialBound); newer != nil {
		fix += fmt.Sprintf("; OpenShift %s ship %s, which has the bound", newer.OpenShift, newer.Name)
	}
	return &Problem{Rule: "backend-dial-timeout-unavailable", Level: Note, Fix: fix,
		Message: fmt.Sprintf("proxy-server %s has no --%s: a dial to a frozen or partitioned agent waits until the kube-apiserver gives up on the call (the webhook's timeoutSeconds, 10s by default) instead of failing after %s; %s",
			v.Describe(), flagDialBound, DefaultBackendDialTimeout, named)}
}

func validateTLSFloor(raw string) (fix, msg string) {
	switch {
	case !slices.Contains(tlsVersions, raw):
		return "use one of: " + strings.Join(secureTLSVersions, ", "), fmt.Sprintf("unknown value %q", raw)
	case !slices.Contains(secureTLSVersions, raw):
		return "use VersionTLS12 or VersionTLS13", raw + " allows TLS versions RFC 8996 deprecates; proxy-server warns about it and agents never need it"
	}
	return "", ""
}

// checkTLSFloor: a version the server does not know stops it; one below
// TLS 1.2 lets the agent listener speak what RFC 8996 deprecates.
func checkTLSFloor(v string, flag Flag) *Problem {
	name := "--" + flagTLSFloor
	switch {
	case !flag.Allows(v):
		return &Problem{Rule: "flag-value-invalid", Level: Fatal, Fix: "set " + name + "=VersionTLS12 or VersionTLS13",
			Message: fmt.Sprintf("%s=%q is not a TLS version proxy-server knows; it refuses to start", name, v)}
	case v != "" && !slices.Contains(secureTLSVersions, v):
		return &Problem{Rule: "tls-min-version-insecure", Level: Weak, Fix: "set " + name + "=VersionTLS12 (or VersionTLS13); agents never need less",
			Message: fmt.Sprintf("%s=%s lets the agent listener speak TLS versions RFC 8996 deprecates", name, v)}
	}
	return nil
}

func validateXfrChannel(raw string) (fix, msg string) {
	if n, err := strconv.Atoi(raw); err == nil && n >= 1 && n <= MaxXfrChannelSize {
		return "", ""
	}
	return fmt.Sprintf("give 1 to %d (default %d)", MaxXfrChannelSize, DefaultXfrChannelSize),
		fmt.Sprintf("%s packets is outside 1..%d: proxy-server refuses below 1, and every agent and kube-apiserver stream buffers that many", raw, MaxXfrChannelSize)
}

// checkXfrChannel: proxy-server refuses a channel of no packets.
func checkXfrChannel(value string, _ Flag) *Problem {
	n, err := strconv.ParseInt(value, 0, 64)
	if err != nil || n > 0 {
		return nil
	}
	name := "--" + flagXfrChannel
	return &Problem{Rule: "xfr-channel-size-invalid", Level: Fatal, Fix: fmt.Sprintf("omit %s (default %d) or give 1 or more", name, DefaultXfrChannelSize),
		Message: fmt.Sprintf("%s=%d (proxy-server: channel size %d must be greater than 0)", name, n, n)}
}
