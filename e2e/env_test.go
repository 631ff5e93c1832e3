//go:build e2e

package e2e

import "testing"

// env is a bootstrap host with the rendered bundle mapped, the bootstrap KAS
// running with the rendered egress selector, the rendered cluster objects
// applied and the webhook registered; server and agent are not started.
type env struct {
	name, mode string
	fam        family
	tp         *topology
	root       string
	h          *bootstrapHost
	wh         *webhook
	kas        *apiserver
}

func newEnv(t *testing.T, mode string, fam family) *env {
	t.Helper()
	return newEnvOn(t, mode+"/"+fam.name, mode, newTopology(t, fam))
}

// newEnvOn is newEnv on a topology the caller built (the scale suite's
// many-node one); the webhook listens on tp.fam.webhookIP in tp.pod.
func newEnvOn(t *testing.T, name, mode string, tp *topology) *env {
	t.Helper()
	fam := tp.fam
	e := &env{name: name, mode: mode, fam: fam, tp: tp, root: shortRoot(t)}
	renderInto(t, e.root, mode, fam)
	e.startCluster(t)
	return e
}

// startCluster maps what render wrote under e.root and starts the cluster
// side around it: the webhook in the pod network and the bootstrap KAS
// configured by the rendered egress file, with the bundle's cluster objects
// applied and the webhook registered. The KAS starts before the server, as
// on a real bootstrap node.
func (e *env) startCluster(t *testing.T) {
	t.Helper()
	e.h = mapBundle(t, e.tp, e.root)
	e.wh = startWebhook(t, e.tp.pod, e.fam.webhookIP)
	e.kas = startAPIServer(t, e.tp.boot, "bootstrap-kas", e.fam, e.fam.bootIP, "--egress-selector-config-file="+e.h.kasEgress)
	applyDocs(t, e.kas, e.h.b.clusterDocs)
	dryRunStaticPod(t, e.kas, e.h.serverPod())
	registerWebhook(t, e.kas.client, e.wh)
}

// figure records one of this case's figures.
func (e *env) figure(name string, value any) { figures.add(e.name, name, value) }
