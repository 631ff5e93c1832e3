// Package hoststatus reports whether the Konnectivity tunnel on a bootstrap
// host is usable: what render wrote, the server's socket, health, readiness,
// connected agents and certificate expiry, each problem with a hint.
package hoststatus

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"strings"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// newCheck is one check as a result: the check's name is its rule, the
// detail its message and the hint its fix. Severity framework.Error makes
// the tunnel unusable; a check that passed is framework.Info, which status
// prints as "ok".
func newCheck(name CheckName, sev framework.Severity, detail, hint string) *framework.Result {
	return result.New(sev, string(name), "", "", detail, hint)
}

// Report is the whole status.
type Report struct {
	Root        string `json:"root"`
	BootstrapIP string `json:"bootstrapIP,omitempty"`
	Agents      int    `json:"agents"`
	// AgentsCounted says that Agents is the server's own count, read from
	// its metrics; false when they could not be read (then Agents is 0 and
	// says nothing).
	AgentsCounted bool `json:"-"`
	// PendingDials are dials the server sent to an agent and got no answer
	// for yet (pending_backend_dials); -1 when not read. The gauge is
	// absolute: on proxy v0.28 in http-connect mode it keeps dials a
	// departed agent took until the server restarts, so only its change
	// across a dial says anything about that dial (the gate reads it so).
	PendingDials int `json:"-"`
	// DialFailures are the server's dial failures by reason
	// (dial_failure_count); nil when not read. error_response is an
	// agent's answer that its dial failed.
	DialFailures map[string]int `json:"-"`
	Usable       bool           `json:"usable"`
	// Checks are every check, in order; JSONDocument holds them as "checks".
	Checks framework.Results `json:"-"`
	// Metrics is the server's /metrics as read, for `status --gather`;
	// MetricsFrom is its URL, MetricsError why it could not be read.
	Metrics      string `json:"-"`
	MetricsFrom  string `json:"-"`
	MetricsError string `json:"-"`
	// Rendered is the root as read, nil when it could not be; the gate
	// reads the agent port's rule from it.
	Rendered *renderedroot.Root `json:"-"`
}

// Tunnel is the rendered tunnel as the bundle model read it (where the
// agents dial, the proxy version); the zero Tunnel when the root could not
// be read. BootstrapIP is its Host, as the report prints it.
func (r *Report) Tunnel() bundlemodel.Tunnel {
	if r == nil || r.Rendered == nil {
		return bundlemodel.Tunnel{}
	}
	return r.Rendered.Bundle.Tunnel
}

// DialFunc opens a connection (tests dial into a network namespace).
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Options say where to look.
type Options struct {
	Root       string        // host root render wrote under; "/" on the bootstrap node
	HealthHost string        // where the server's health and admin ports are; "" = 127.0.0.1
	Timeout    time.Duration // per HTTP request; 0 = 3s
	Now        func() time.Time
	Dial       DialFunc // nil = net.Dialer
}

func (o *Options) defaults() {
	if o.HealthHost == "" {
		o.HealthHost = "127.0.0.1"
	}
	if o.Timeout == 0 {
		o.Timeout = 3 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Dial == nil {
		o.Dial = (&net.Dialer{}).DialContext
	}
}

// loadFailure is the check for a root whose render state does not load. A
// permission error of a user other than root means the files are there and
// status needs root to read them (render writes them for root only), not
// that render has yet to run.
func loadFailure(err error, euid int) *framework.Result {
	if errors.Is(err, fs.ErrPermission) && euid != 0 {
		return newCheck(CheckRenderedFiles, framework.Error, err.Error(),
			"status needs root: render's files are readable by root only; run it as root (sudo konnectivity-bundle status)")
	}
	return newCheck(CheckRenderedFiles, framework.Error, err.Error(),
		"run konnectivity-bundle render on the bootstrap host first, or point --root at where it wrote")
}

// Run collects every check. It never fails: an unreadable root is itself
// a finding that makes the tunnel unusable.
func Run(ctx context.Context, opts Options) *Report {
	opts.defaults()
	rep := &Report{Root: opts.Root, PendingDials: -1}
	root, err := renderedroot.Load(opts.Root)
	if err != nil {
		rep.add(loadFailure(err, os.Geteuid()))
		return rep.finish()
	}
	rep.Rendered = root
	if root.Bundle.Server == nil {
		detail, hint := "no proxy-server static pod among the rendered files", "the overlay deploys no tunnel (bootstrap-in-place) or render was given the wrong overlay"
		if len(root.Missing) > 0 {
			detail = "files render wrote are missing: " + strings.Join(root.Missing, ", ")
			hint = "run konnectivity-bundle render again with the same inputs; it rewrites what is missing"
		}
		rep.add(newCheck(CheckRenderedFiles, framework.Error, detail, hint))
		return rep.finish()
	}
	rep.BootstrapIP = rep.Tunnel().Host
	s := &session{ctx: ctx, opts: opts, root: root, rep: rep}
	s.files()
	s.socket()
	s.egress()
	s.health()
	s.agents()
	s.certificates()
	return rep.finish()
}

func (r *Report) add(c *framework.Result) { r.Checks = append(r.Checks, c) }

func (r *Report) finish() *Report {
	r.Usable = result.ExitCode(r.Checks) == 0
	return r
}

// session is one status run's shared state.
type session struct {
	ctx  context.Context // the caller's: a wait's deadline ends every request
	opts Options
	root *renderedroot.Root
	rep  *Report
}
