// Package usage reports what used the Konnectivity tunnel: each admission
// webhook and APIService the bootstrap kube-apiserver called, with calls,
// refusals, failures and latency, from the kube-apiserver's own metrics and
// the proxy-server's (docs/troubleshooting.md, "What used the tunnel").
package usage

import (
	"sort"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
)

// Routes of a webhook or APIService.
const (
	RouteTunnel  = "tunnel"  // registered with a Service reference: the cluster egress selection, through the tunnel
	RouteOther   = "other"   // given by URL (not proxied) or no longer registered
	RouteUnknown = "unknown" // the registrations could not be listed
)

// Report is the whole usage report.
type Report struct {
	// KubeAPIServer and ProxyServer say where each side's metrics came
	// from, or why they could not be read.
	KubeAPIServer Source `json:"kubeAPIServer"`
	ProxyServer   Source `json:"proxyServer"`
	// Registrations says whether the webhooks and APIServices could be
	// listed (it decides each one's route).
	Registrations Source       `json:"registrations"`
	Webhooks      []Webhook    `json:"webhooks"`
	APIServices   []APIService `json:"apiServices"`
	// EgressDials are the kube-apiserver's egress dialer totals, per
	// protocol and transport: every call through the tunnel, together.
	EgressDials []EgressDials `json:"egressDials"`
	// ServerDials are the proxy-server's dials to its agents.
	ServerDials *ServerDials `json:"serverDials,omitempty"`
	// Unreadable names each metric whose value is no count (NaN, infinite,
	// negative or beyond 2^53): its figures are left out of the report
	// rather than shown as nonsense.
	Unreadable []string `json:"unreadable,omitempty"`
}

// Source is one side's metrics: read from where, or why not.
type Source struct {
	Read  bool   `json:"read"`
	From  string `json:"from,omitempty"`
	Error string `json:"error,omitempty"`
	// NoCluster is set when Error is only the kubeconfig lookup's answer,
	// which the command's kubeconfig line says already: the text then
	// points at that line instead of saying it again (JSON keeps Error).
	NoCluster bool `json:"-"`
}

// Webhook is one admission webhook's calls since the kube-apiserver started.
type Webhook struct {
	Name           string `json:"name"`
	Type           string `json:"type"` // validating or mutating
	Configurations string `json:"configurations,omitempty"`
	Service        string `json:"service,omitempty"` // namespace/name:port
	Route          string `json:"route"`
	Calls          int    `json:"calls"`
	Allowed        int    `json:"allowed"`
	Refused        int    `json:"refused"` // the webhook answered no
	Failed         int    `json:"failed"`  // no usable answer (unreachable, timeout, error), failing open or closed
	// Codes counts calls by the HTTP status the kube-apiserver recorded.
	Codes   map[string]int `json:"codes"`
	Latency Latency        `json:"latency"`
}

// APIService is one Service-backed APIService. The kube-apiserver counts
// no calls per APIService: its calls are among the egress dials.
type APIService struct {
	Name    string `json:"name"`
	Service string `json:"service"`
	// Available is the aggregator's view now; nil when its metric is absent.
	Available *bool `json:"available,omitempty"`
}

// EgressDials are the kube-apiserver's dials through one egress transport.
type EgressDials struct {
	Protocol      string         `json:"protocol"`
	Transport     string         `json:"transport"`
	Started       int            `json:"started"`
	Succeeded     int            `json:"succeeded"`
	Failed        int            `json:"failed"`
	FailedByStage map[string]int `json:"failedByStage"`
	Latency       Latency        `json:"latency"`
}

// ServerDials are the proxy-server's dials to the agents.
type ServerDials struct {
	Requested      int            `json:"requested"` // dial requests sent to agents
	Succeeded      int            `json:"succeeded"`
	Failed         int            `json:"failed"`
	FailedByReason map[string]int `json:"failedByReason"`
	Latency        Latency        `json:"latency"`
}

// inputs are what build reads; each metrics text is empty when its Source
// says it was not read, and Targets is nil when Registrations was not.
type inputs struct {
	KubeAPIServer, ProxyServer, Registrations Source
	KubeAPIServerMetrics, ProxyServerMetrics  string
	Targets                                   []webhookprobe.Target
}

// build makes the report. A metrics text that does not parse makes its
// Source unread, with the parse error, and the rest is still reported.
func build(in inputs) *Report {
	rep := &Report{KubeAPIServer: in.KubeAPIServer, ProxyServer: in.ProxyServer, Registrations: in.Registrations,
		Webhooks: []Webhook{}, APIServices: []APIService{}, EgressDials: []EgressDials{}}
	kas := rep.read(&rep.KubeAPIServer, in.KubeAPIServerMetrics)
	srv := rep.read(&rep.ProxyServer, in.ProxyServerMetrics)
	if srv.page != nil {
		rep.ServerDials = serverDialsFrom(srv)
	}
	if kas.page != nil {
		rep.EgressDials = egressFrom(kas)
	}
	rep.Webhooks = joinWebhooks(webhooksFrom(kas), in.Targets, in.Registrations.Read)
	rep.APIServices = joinAPIServices(unavailableFrom(kas), in.Targets, kas.page != nil)
	rep.Unreadable = append(kas.unreadable(), srv.unreadable()...)
	return rep
}

// read parses one side's metrics when its source was read.
func (r *Report) read(src *Source, text string) families {
	if !src.Read {
		return families{}
	}
	f, err := parse(strings.NewReader(text))
	if err != nil {
		src.Read, src.Error = false, err.Error()
		return families{}
	}
	return f
}

// joinWebhooks lists every webhook the metrics name and every registered
// Service-backed one (uncalled ones with zero calls), sorted by name and type.
func joinWebhooks(called map[webhookKey]*Webhook, targets []webhookprobe.Target, listed bool) []Webhook {
	regs := map[webhookKey][]webhookprobe.Target{}
	for _, t := range targets {
		if t.Kind == "APIService" {
			continue
		}
		typ := "validating"
		if t.Kind == "MutatingWebhookConfiguration" {
			typ = "mutating"
		}
		k := webhookKey{typ, t.Webhook}
		regs[k] = append(regs[k], t)
		if called[k] == nil {
			called[k] = &Webhook{Name: t.Webhook, Type: typ, Codes: map[string]int{}}
		}
	}
	out := make([]Webhook, 0, len(called))
	for k, w := range called {
		w.Route = RouteUnknown
		if listed {
			w.Route = RouteOther
		}
		if ts := regs[k]; len(ts) > 0 {
			w.Route = RouteTunnel
			w.Configurations, w.Service = joinField(ts, func(t webhookprobe.Target) string { return t.Name }), joinField(ts, func(t webhookprobe.Target) string { return t.Service })
		}
		out = append(out, *w)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Type < out[j].Type
	})
	return out
}

// joinAPIServices lists the registered Service-backed APIServices with the
// aggregator's availability when the kube-apiserver's metrics were read.
func joinAPIServices(unavailable map[string]bool, targets []webhookprobe.Target, read bool) []APIService {
	out := []APIService{}
	for _, t := range targets {
		if t.Kind != "APIService" {
			continue
		}
		a := APIService{Name: t.Name, Service: t.Service}
		if down, ok := unavailable[t.Name]; ok && read {
			up := !down
			a.Available = &up
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// joinField joins one field of several registrations, each value once.
func joinField(ts []webhookprobe.Target, f func(webhookprobe.Target) string) string {
	seen := map[string]bool{}
	var vals []string
	for _, t := range ts {
		if v := f(t); !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	sort.Strings(vals)
	return strings.Join(vals, ",")
}
