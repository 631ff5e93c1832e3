package usage

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/promtext"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/samehost"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/webhookprobe"
)

// DefaultTimeout bounds each read from the kube-apiserver when the caller
// gives none: status's default --timeout, so an unreachable API server
// costs seconds.
const DefaultTimeout = 3 * time.Second

// Options say where the report's inputs come from.
type Options struct {
	// Kubeconfig of the bootstrap kube-apiserver; "" leaves its metrics
	// and the registrations unread, which the report says.
	Kubeconfig string
	// Timeout bounds each read from the kube-apiserver (its /metrics, then
	// the registrations' lists), the caller's --timeout; 0 = DefaultTimeout.
	Timeout time.Duration
	// Status is a status run on the bootstrap host: the server's /metrics
	// as it read them (status reads the admin port, then the health port on
	// versions that serve /metrics there).
	Status *hoststatus.Report
}

// Collect reads both sides and builds the report. Only an unusable
// kubeconfig is an error (bad input, before anything is read); an
// unreachable server or API server is in the report.
func Collect(ctx context.Context, o Options) (*Report, error) {
	in := Inputs{
		KubeAPIServer: Source{Error: "no --kubeconfig: the kube-apiserver's metrics were not read"},
		Registrations: Source{Error: "no --kubeconfig: the webhooks and APIServices were not listed"},
	}
	in.ProxyServer, in.ProxyServerMetrics = serverSource(o.Status)
	if o.Kubeconfig != "" {
		cfg, err := clientcmd.BuildConfigFromFlags("", o.Kubeconfig)
		if err != nil {
			return nil, fmt.Errorf("--kubeconfig %s: %w", o.Kubeconfig, err)
		}
		timeout := o.Timeout
		if timeout == 0 {
			timeout = DefaultTimeout
		}
		in.KubeAPIServer, in.KubeAPIServerMetrics = scrape(ctx, cfg, timeout)
		in.Registrations, in.Targets = registrations(ctx, cfg, in.KubeAPIServer, timeout)
	}
	return Build(in), nil
}

// serverSource takes the server's metrics from a status run.
func serverSource(st *hoststatus.Report) (Source, string) {
	switch {
	case st == nil:
		return Source{Error: "the bootstrap host was not read"}, ""
	case st.Metrics != "":
		return Source{Read: true, From: st.MetricsFrom}, st.Metrics
	case st.MetricsError != "":
		return Source{Error: st.MetricsError}, ""
	}
	return Source{Error: "status found no server to read (run konnectivity-bundle status for why)"}, ""
}

// scrape reads the kube-apiserver's /metrics with the kubeconfig's
// credentials (it needs get on the non-resource URL /metrics), within
// timeout, body included, and never from another host: a redirect there
// would carry the credentials along (internal/samehost).
func scrape(ctx context.Context, cfg *rest.Config, timeout time.Duration) (Source, string) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	base, _, err := rest.DefaultServerUrlFor(cfg)
	if err != nil {
		return Source{Error: err.Error()}, ""
	}
	u := base.JoinPath("/metrics").String()
	client, err := samehost.KubeClient(cfg)
	if err != nil {
		return Source{From: u, Error: err.Error()}, ""
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return Source{From: u, Error: err.Error()}, ""
	}
	resp, err := client.Do(req)
	if err != nil {
		return Source{From: u, Error: "unreachable: " + err.Error()}, ""
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Source{From: u, Error: fmt.Sprintf("HTTP %d (the kubeconfig's user needs get on the non-resource URL /metrics)", resp.StatusCode)}, ""
	}
	// Streamed: only the report's families are kept (promtext's bounds),
	// however large or endless the body; the context bounds the time.
	body, err := promtext.Filter(resp.Body, reportFamilies...)
	if err != nil {
		return Source{From: u, Error: err.Error()}, ""
	}
	return Source{Read: true, From: u}, string(body)
}

// registrations lists the Service-backed webhooks and APIServices, which
// decide each webhook's route; not tried when the API server did not answer.
func registrations(ctx context.Context, cfg *rest.Config, kas Source, timeout time.Duration) (Source, []webhookprobe.Target) {
	if !kas.Read {
		return Source{Error: "not listed: the kube-apiserver's metrics could not be read either"}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	hc, err := samehost.KubeClient(cfg)
	if err != nil {
		return Source{Error: err.Error()}, nil
	}
	c, err := dynamic.NewForConfigAndClient(cfg, hc)
	if err != nil {
		return Source{Error: err.Error()}, nil
	}
	ts, err := webhookprobe.List(ctx, c)
	if err != nil {
		return Source{Error: err.Error()}, nil
	}
	return Source{Read: true, From: cfg.Host}, ts
}
