// Package hostlayout is the contract between the bundle and the bootstrap
// host: the annotations that say where an object goes, the names the host
// and the cluster agree on, and the shape of render's state file. The
// generator writes to it; check, render, teardown, status and probe read
// it, so each name is declared here once. It does no file I/O: reading and
// writing the state is internal/rootdir/statefile's, reading what render
// wrote internal/rootdir/renderedroot's.
package hostlayout

// AnnotationPrefix marks the internal annotations: render strips every key
// under it, so none reaches a written file or the cluster.
const AnnotationPrefix = "bundle.konnectivity.io/"

// Internal annotations (docs/bundle-shape.md).
const (
	// AnnotationPlacement says which kind of host file an object becomes.
	AnnotationPlacement = AnnotationPrefix + "placement"
	// AnnotationHostPath is the absolute host path render writes the object to.
	AnnotationHostPath = AnnotationPrefix + "host-path"
	// AnnotationKASConfigMount is HOSTDIR:CONTAINERDIR, how the bootstrap
	// kube-apiserver sees the directory of the egress file.
	AnnotationKASConfigMount = AnnotationPrefix + "kas-config-mount"
)

// AnnotationOwner marks the cluster objects render writes with the id of
// the root that wrote them (State.Owner). It lies outside AnnotationPrefix
// because it must reach the written files: the live objects carry it, and
// teardown deletes only objects that prove to be its own.
const AnnotationOwner = "konnectivity-bundle.io/owner"

// Placements: where on the bootstrap host an object or file ends up.
const (
	PlacementStaticPod         = "static-pod"          // the kubelet's static pod directory
	PlacementClusterManifest   = "cluster-manifest"    // the installer's manifests, applied by cluster-bootstrap
	PlacementKASEgressConfig   = "kas-egress-config"   // the kube-apiserver's egress selector file
	PlacementKASConfigOverride = "kas-config-override" // the KubeAPIServerConfig override
	PlacementCertificate       = "certificate"         // a file of the certificate directory
	PlacementState             = "state"               // render's own record
)

// Labels every emitted object carries; teardown and check rely on them.
const (
	LabelBootstrapOnly = "openshift.io/bootstrap-only"
	LabelApp           = "app"
	AppServer          = "konnectivity-server"
	AppAgent           = "konnectivity-agent"
)
