package hostlayout

import (
	"path"
	"slices"
)

// Names of the emitted objects, which status, probe and teardown look up.
const (
	ServerPodName      = "konnectivity-server"
	ServerPodNamespace = "kube-system"
	AgentName          = "konnectivity-agent"
	// AgentNamespace is the agents' namespace unless the config names another.
	AgentNamespace = "openshift-bootstrap-konnectivity"
	// AgentSecretName is the Secret the agent DaemonSet mounts; the
	// certificate function and render make it, the generator only names it.
	AgentSecretName    = "konnectivity-agent-certs"
	EgressObjectName   = "konnectivity-egress-selector"
	OverrideObjectName = "konnectivity-config-override"
)

// The only file names cluster manifests get: the state refuses any other.
const (
	NamespaceFileName   = "konnectivity-00-namespace.yaml"
	DaemonSetFileName   = "konnectivity-agent-daemonset.yaml"
	AgentSecretFileName = AgentSecretName + "-secret.yaml"
)

// clusterFileNames lists the cluster manifest file names above.
var clusterFileNames = []string{NamespaceFileName, DaemonSetFileName, AgentSecretFileName}

// OwnClusterFile reports whether name is one of the cluster manifest file
// names render writes, which a reader of the install's manifests skips.
func OwnClusterFile(name string) bool { return slices.Contains(clusterFileNames, name) }

// The certificate directory's files (functions/certs/README.md).
const (
	CACertFile     = "ca.crt"
	CAKeyFile      = "ca.key"
	ServerCertFile = "server.crt"
	ServerKeyFile  = "server.key"
	AgentCertFile  = "agent.crt"
	AgentKeyFile   = "agent.key"
)

// CertFileNames lists the certificate directory's files in the order they
// are reported; certs, check and render all read this one list.
var CertFileNames = []string{CACertFile, CAKeyFile, ServerCertFile, ServerKeyFile, AgentCertFile, AgentKeyFile}

// The kube-apiserver configuration files: plain config, not API objects.
const (
	OverrideAPIVersion = "kubecontrolplane.config.openshift.io/v1"
	OverrideKind       = "KubeAPIServerConfig"
	// EgressFileArgument is the override's apiServerArguments key that
	// names the egress file as the kube-apiserver container sees it.
	EgressFileArgument = "egress-selector-config-file"
)

// Render's own files, relative to --root (docs/render.md).
const (
	// StatePath is render's record of what it wrote.
	StatePath = "var/lib/konnectivity-bundle/state.json"
	// JournalPath is the intent record of a transaction in progress; it
	// exists only between the first change and the last cleanup, so
	// finding it means a run was interrupted.
	JournalPath = "var/lib/konnectivity-bundle/txn.json"
	// StagedMark is in the hidden name of a directory tree render builds
	// (or tears down): a crash leaves a name the next run knows to remove,
	// never a directory nobody recorded; a state never lists one.
	StagedMark = ".kb-new-"
)

// AdminKubeconfig is the bootstrap node's admin kubeconfig, relative to
// --root, which the installer writes: the commands that read the
// kube-apiserver take it when nothing else names one (internal/intake/kuberead).
const AdminKubeconfig = "opt/openshift/auth/kubeconfig"

// InstallManifestDirs are where the installer's bootstrap Ignition puts the
// install's manifests, relative to --root: its manifests/ and openshift/
// directories, a user's additions included (openshift/installer's
// bootstrap asset; bootkube.sh, run in /opt/openshift, copies openshift/*
// into manifests/ before cluster-bootstrap applies them). render reads the
// cluster's APIServer from them (internal/rootdir/installprofile).
var InstallManifestDirs = []string{"opt/openshift/manifests", "opt/openshift/openshift"}

// StateDir holds the state and the journal.
var StateDir = path.Dir(StatePath)
