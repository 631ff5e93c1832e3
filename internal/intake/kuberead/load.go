package kuberead

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// loaded is the kubeconfig a Reader is built from: the current context,
// its cluster and its user, every file they name read into the config and
// any exec plugin already run, so client-go opens no file and runs nothing.
type loaded struct {
	src   source
	names []string // the files read, in order, as src names them
	cfg   *clientcmdapi.Config
}

// loadConfig reads c's kubeconfigs as client-go's loading rules do (one
// named file must exist; of $KUBECONFIG's list, missing files are skipped,
// the rest merged, the first file to set a value winning), but each
// through the capped reader within ctx, and then keeps only what the
// current context uses, with its files inlined (inline). No in-cluster
// configuration is tried: the tool reads the cluster its user named.
func loadConfig(ctx context.Context, c Choice) (*clientcmdapi.Config, error) {
	l := &loaded{src: userFiles{}, names: c.Paths}
	if c.From == fromRoot {
		l.src, l.names = rootFiles{root: c.Root}, []string{c.Root.Name()}
	}
	var configs []*clientcmdapi.Config
	for _, name := range l.names {
		cfg, err := l.readOne(ctx, name)
		if c.From == fromEnv && errors.Is(err, fs.ErrNotExist) {
			continue // as client-go skips a missing file of the list
		}
		if err != nil {
			return nil, err
		}
		configs = append(configs, cfg)
	}
	merged := mergeFirstWins(configs)
	if clientcmdapi.IsConfigEmpty(merged) {
		return nil, errors.New("no configuration in it (missing or empty)")
	}
	l.cfg = merged
	return l.inline(ctx)
}

// readOne reads and parses one kubeconfig, marking each entry with the
// file it came from (its paths resolve against that file's directory).
func (l *loaded) readOne(ctx context.Context, name string) (*clientcmdapi.Config, error) {
	data, err := l.src.read(ctx, name)
	if err != nil {
		return nil, err
	}
	cfg, err := clientcmd.Load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.src.show(name), err)
	}
	for _, e := range cfg.Clusters {
		e.LocationOfOrigin = name
	}
	for _, e := range cfg.AuthInfos {
		e.LocationOfOrigin = name
	}
	for _, e := range cfg.Contexts {
		e.LocationOfOrigin = name
	}
	return cfg, nil
}

// mergeFirstWins merges configs as client-go's loading rules do: each map
// entry (cluster, user, context, extension) whole from the first file that
// has it, and each other value from the first file that sets it.
func mergeFirstWins(configs []*clientcmdapi.Config) *clientcmdapi.Config {
	out := clientcmdapi.NewConfig()
	for _, c := range configs {
		if out.CurrentContext == "" {
			out.CurrentContext = c.CurrentContext
		}
		//nolint:staticcheck // Preferences is deprecated, but client-go still merges it
		out.Preferences.Colors = out.Preferences.Colors || c.Preferences.Colors
		addMissing(out.Clusters, c.Clusters)
		addMissing(out.AuthInfos, c.AuthInfos)
		addMissing(out.Contexts, c.Contexts)
		addMissing(out.Extensions, c.Extensions)
		addMissing(out.Preferences.Extensions, c.Preferences.Extensions)
	}
	return out
}

// addMissing copies to dst each entry of src whose key dst lacks.
func addMissing[V any](dst, src map[string]V) {
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = v
		}
	}
}
