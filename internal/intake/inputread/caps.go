package inputread

import "fmt"

// Kind is one kind of input and the most of it a command holds in memory.
type Kind struct {
	Name    string // what the input is, in errors: "a bundle stream"
	Cap     int64  // bytes
	Readers string // which commands read it, for docs/commands.md
}

// MaxYAML is the cap of every YAML input (a bundle stream, a kustomization's
// file, a function's input): a bundle is tens of kilobytes, so 8 MiB is far
// above any real one and far below what exhausts a bootstrap host's memory.
// internal/intake/yamlguard holds bytes already in memory to the same size.
const MaxYAML = 8 << 20

// The kinds of input and their caps; caps lists them all.
var (
	Bundle = Kind{"a bundle stream", MaxYAML,
		"check, diff and ports: a bundle FILE or - (stdin)"}
	HelpText = Kind{"a proxy-server --help text", 1 << 20,
		"proxy-version --from-help FILE or - (a real one is under 8 KiB)"}
	FunctionInput = Kind{"a KRM function's input", MaxYAML,
		"fn: the ResourceList on stdin; the legacy exec plugin: the resources on stdin and the config file"}
	KustomizationFile = Kind{"a file a kustomization build reads", MaxYAML,
		"build, check, diff, ports and render --overlay DIR: every kustomization, resource, patch and generator file"}
	HostFile = Kind{"a file under a host root or certificate directory", MaxYAML,
		"every command that reads a file under --root, a host root argument, certs --dir or check --cert-dir"}
	// Kubeconfig: the installer's admin kubeconfig, its certificates
	// inline, is under 20 KiB; a certificate bundle or a token file is
	// smaller still.
	Kubeconfig = Kind{"a kubeconfig or a file it names", 1 << 20,
		"status, wait, probe and teardown: each kubeconfig (--kubeconfig, every file of $KUBECONFIG, the root's admin kubeconfig), " +
			"each file one names (token-file, certificate-authority, client-certificate, client-key), and an exec plugin's standard output"}
)

// caps is the one table of input caps, in the order docs/commands.md lists
// them.
var caps = []Kind{Bundle, HelpText, FunctionInput, KustomizationFile, HostFile, Kubeconfig}

// formatCap writes a cap as people read it: "8 MiB", else bytes.
func formatCap(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
