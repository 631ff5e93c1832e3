package usage

// Metric families of kube-apiserver v1.35 that the report reads, each seen
// on the real binary's /metrics (docs/troubleshooting.md, "What used the
// tunnel"). The admission families carry the webhook's name and type
// (validating, or admit for mutating); the egress dialer's carry protocol
// and transport only, so they count every call through the tunnel together.
const (
	kasWebhookRequests  = "apiserver_admission_webhook_request_total"              // name, type, operation, code, rejected
	kasWebhookRejection = "apiserver_admission_webhook_rejection_count"            // ..., error_type, rejection_code
	kasWebhookFailOpen  = "apiserver_admission_webhook_fail_open_count"            // name, type: failed calls that failurePolicy Ignore let through
	kasWebhookDuration  = "apiserver_admission_webhook_admission_duration_seconds" // histogram: name, type, operation, rejected
	kasEgressStarts     = "apiserver_egress_dialer_dial_start_total"               // protocol, transport
	kasEgressDuration   = "apiserver_egress_dialer_dial_duration_seconds"          // histogram of successful dials
	kasEgressFailures   = "apiserver_egress_dialer_dial_failure_count"             // protocol, transport, stage (connect or proxy)
	kasAPIServiceDown   = "aggregator_unavailable_apiservice"                      // gauge: name; 1 while the APIService is unavailable
)

// rejectionAnswered is the rejection_count error_type of a webhook that
// answered and refused; the others (calling_webhook_error,
// apiserver_internal_error) are calls that got no usable answer.
const rejectionAnswered = "no_error"

// webhookKey is a webhook as the metrics name it: names are unique within
// one configuration only, so a validating and a mutating webhook may share one.
type webhookKey struct{ typ, name string }

// webhookType turns the metrics' type label into the configuration's word.
func webhookType(label string) string {
	if label == "admit" {
		return "mutating"
	}
	return label
}

// webhooksFrom totals the admission-webhook families per webhook.
func webhooksFrom(f families) map[webhookKey]*Webhook {
	out := map[webhookKey]*Webhook{}
	get := func(s sample) *Webhook {
		k := webhookKey{webhookType(s.labels["type"]), s.labels["name"]}
		w := out[k]
		if w == nil {
			w = &Webhook{Name: k.name, Type: k.typ, Codes: map[string]int{}}
			out[k] = w
		}
		return w
	}
	for _, s := range f.series(kasWebhookRequests) {
		w := get(s)
		w.Calls += s.count()
		w.Codes[s.labels["code"]] += s.count()
	}
	for _, s := range f.series(kasWebhookRejection) {
		w := get(s)
		if s.labels["error_type"] == rejectionAnswered {
			w.Refused += s.count()
		} else {
			w.Failed += s.count()
		}
	}
	for _, s := range f.series(kasWebhookFailOpen) {
		get(s).Failed += s.count()
	}
	hists := map[webhookKey]*histogram{}
	for _, s := range f.series(kasWebhookDuration) {
		k := webhookKey{webhookType(s.labels["type"]), s.labels["name"]}
		get(s)
		if hists[k] == nil {
			hists[k] = &histogram{}
		}
		hists[k].add(s.metric)
	}
	for k, w := range out {
		w.Allowed = max(0, w.Calls-w.Refused-w.Failed)
		if h := hists[k]; h != nil {
			w.Latency = h.latency()
		}
	}
	return out
}

// egressFrom totals the egress dialer per protocol and transport.
func egressFrom(f families) []EgressDials {
	byKey := map[string]*EgressDials{}
	hists := map[string]*histogram{}
	get := func(s sample) *EgressDials {
		k := s.labels["protocol"] + "/" + s.labels["transport"]
		d := byKey[k]
		if d == nil {
			d = &EgressDials{Protocol: s.labels["protocol"], Transport: s.labels["transport"], FailedByStage: map[string]int{}}
			byKey[k], hists[k] = d, &histogram{}
		}
		return d
	}
	for _, s := range f.series(kasEgressStarts) {
		get(s).Started += s.count()
	}
	for _, s := range f.series(kasEgressFailures) {
		d := get(s)
		d.Failed += s.count()
		d.FailedByStage[s.labels["stage"]] += s.count()
	}
	for _, s := range f.series(kasEgressDuration) {
		get(s)
		hists[s.labels["protocol"]+"/"+s.labels["transport"]].add(s.metric)
	}
	out := make([]EgressDials, 0, len(byKey))
	for _, k := range sortedKeys(byKey) {
		d := byKey[k]
		d.Succeeded = int(hists[k].count)
		d.Latency = hists[k].latency()
		out = append(out, *d)
	}
	return out
}

// unavailableFrom reads which APIServices the aggregator marks unavailable:
// name -> true while unavailable. The kube-apiserver counts no calls per
// APIService; they are in the egress dials.
func unavailableFrom(f families) map[string]bool {
	out := map[string]bool{}
	for _, s := range f.series(kasAPIServiceDown) {
		out[s.labels["name"]] = s.value > 0
	}
	return out
}
