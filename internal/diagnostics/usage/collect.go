package usage

import (
	"context"
	"fmt"
	"net/http"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/promtext"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// Options say where the report's inputs come from.
type Options struct {
	// Cluster reads the bootstrap kube-apiserver (its /metrics, then the
	// registrations' lists), each read within the command's --timeout;
	// nil leaves them unread, which the report says with NoCluster.
	Cluster *kuberead.Reader
	// NoCluster is why Cluster is nil (the kubeconfig lookup's answer).
	NoCluster string
	// Status is a status run on the bootstrap host: the server's /metrics
	// as it read them (status reads the admin port, then the health port on
	// versions that serve /metrics there).
	Status *hoststatus.Report
}

// Collect reads both sides and builds the report. An unreachable server
// or API server is in the report, never an error: the caller opened the
// kubeconfig already.
func Collect(ctx context.Context, o Options) *Report {
	in := inputs{
		KubeAPIServer: Source{Error: o.NoCluster, NoCluster: true},
		Registrations: Source{Error: o.NoCluster, NoCluster: true},
	}
	in.ProxyServer, in.ProxyServerMetrics = serverSource(o.Status)
	if o.Cluster != nil {
		in.KubeAPIServer, in.KubeAPIServerMetrics = scrape(ctx, o.Cluster)
		in.Registrations, in.Targets = registrations(ctx, o.Cluster, in.KubeAPIServer)
	}
	return build(in)
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
// credentials (it needs get on the non-resource URL /metrics), within the
// reader's bound, body included, and never from another host: a redirect
// there would carry the credentials along (internal/intake/samehost).
func scrape(ctx context.Context, c *kuberead.Reader) (Source, string) {
	u := c.URL("/metrics")
	var body []byte
	answered := false
	err := c.Fetch(ctx, "/metrics", func(resp *http.Response) error {
		answered = true
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("HTTP %d (the kubeconfig's user needs get on the non-resource URL /metrics)", resp.StatusCode)
		}
		// Streamed: only the report's families are kept (promtext's
		// bounds), and the reader's byte cap and deadline hold throughout.
		var err error
		body, err = promtext.Filter(resp.Body, reportFamilies...)
		return err
	})
	switch {
	case err == nil:
		return Source{Read: true, From: u}, string(body)
	case !answered:
		return Source{From: u, Error: "unreachable: " + err.Error()}, ""
	}
	return Source{From: u, Error: err.Error()}, ""
}

// registrations lists the Service-backed webhooks and APIServices, which
// decide each webhook's route; not tried when the API server did not answer.
func registrations(ctx context.Context, c *kuberead.Reader, kas Source) (Source, []webhookprobe.Target) {
	if !kas.Read {
		return Source{Error: "not listed: the kube-apiserver's metrics could not be read either"}, nil
	}
	ts, err := webhookprobe.List(ctx, c)
	if err != nil {
		return Source{Error: err.Error()}, nil
	}
	return Source{Read: true, From: c.URL("")}, ts
}
