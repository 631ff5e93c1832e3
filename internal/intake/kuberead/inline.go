package kuberead

import (
	"context"
	"fmt"
	"strings"

	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// inline keeps the current context with its cluster and user, the only
// entries client-go would use, and puts the bytes of every file they name
// into the config (certificate-authority, client-certificate, client-key,
// token-file), clearing the paths; an exec plugin is run now, its
// credentials put in as static ones (execPlugin), and an auth-provider is
// refused. The config that comes out names no file and no command.
func (l *loaded) inline(ctx context.Context) (*clientcmdapi.Config, error) {
	name := l.cfg.CurrentContext
	kctx, ok := l.cfg.Contexts[name]
	switch {
	case name == "":
		return nil, fmt.Errorf("no current-context: set one (kubectl config use-context NAME)")
	case !ok:
		return nil, fmt.Errorf("current-context %q is not among its contexts", name)
	}
	cluster, ok := l.cfg.Clusters[kctx.Cluster]
	if !ok {
		return nil, fmt.Errorf("contexts[%s] names cluster %q, which no clusters entry defines", name, kctx.Cluster)
	}
	cluster = cluster.DeepCopy()
	if err := l.file(ctx, field{"clusters", kctx.Cluster, "certificate-authority"}, cluster.LocationOfOrigin,
		&cluster.CertificateAuthority, &cluster.CertificateAuthorityData); err != nil {
		return nil, err
	}
	out := clientcmdapi.NewConfig()
	out.CurrentContext = name
	out.Contexts[name] = kctx.DeepCopy()
	out.Clusters[kctx.Cluster] = cluster
	if user, ok := l.cfg.AuthInfos[kctx.AuthInfo]; ok { // none: client-go reads anonymously
		user = user.DeepCopy()
		if err := l.user(ctx, kctx.AuthInfo, user, cluster); err != nil {
			return nil, err
		}
		out.AuthInfos[kctx.AuthInfo] = user
	}
	return out, nil
}

// user inlines one user's files and runs its exec plugin.
func (l *loaded) user(ctx context.Context, name string, u *clientcmdapi.AuthInfo, cluster *clientcmdapi.Cluster) error {
	origin := u.LocationOfOrigin
	if err := l.file(ctx, field{"users", name, "client-certificate"}, origin, &u.ClientCertificate, &u.ClientCertificateData); err != nil {
		return err
	}
	if err := l.file(ctx, field{"users", name, "client-key"}, origin, &u.ClientKey, &u.ClientKeyData); err != nil {
		return err
	}
	if u.TokenFile != "" {
		// client-go reads a token file over a token set beside it, and
		// trims it.
		var token []byte
		if err := l.file(ctx, field{"users", name, "token-file"}, origin, &u.TokenFile, &token); err != nil {
			return err
		}
		u.Token = strings.TrimSpace(string(token))
	}
	if u.AuthProvider != nil {
		return l.fieldError(field{"users", name, "auth-provider"}, origin, fmt.Errorf("auth-provider %q is not supported: this tool links no auth-provider plugin; "+
			"use an exec credential plugin (users[].user.exec), as kubectl's current providers do", u.AuthProvider.Name))
	}
	if u.Exec == nil {
		return nil
	}
	if why := l.src.noPlugins(); why != "" {
		return l.fieldError(field{"users", name, "exec"}, origin, fmt.Errorf("exec plugin %q not run: %s", u.Exec.Command, why))
	}
	cred, err := runPlugin(ctx, l.src, origin, u.Exec, cluster)
	if err != nil {
		return l.fieldError(field{"users", name, "exec"}, origin, err)
	}
	u.Exec = nil
	if cred.Token != "" {
		u.Token = cred.Token
	}
	if cred.ClientCertificateData != "" {
		u.ClientCertificateData, u.ClientKeyData = []byte(cred.ClientCertificateData), []byte(cred.ClientKeyData)
	}
	return nil
}

// field names a kubeconfig field as messages do: users[admin].client-key.
type field struct{ section, name, key string }

func (f field) String() string { return fmt.Sprintf("%s[%s].%s", f.section, f.name, f.key) }

// file reads the file *path names, if any, into *data and clears *path. A
// file beside inline data is refused, as client-go refuses it.
func (l *loaded) file(ctx context.Context, f field, origin string, path *string, data *[]byte) error {
	if *path == "" {
		return nil
	}
	if len(*data) > 0 {
		return l.fieldError(f, origin, fmt.Errorf("both %s and %s-data are set: keep one", f.key, f.key))
	}
	name, err := l.src.resolve(origin, *path)
	if err != nil {
		return l.fieldError(f, origin, err)
	}
	b, err := l.src.read(ctx, name)
	if err != nil {
		return l.fieldError(f, origin, err)
	}
	*path, *data = "", b
	return nil
}

// fieldError is err of field f, naming the kubeconfig that set f when the
// config was merged from more than one.
func (l *loaded) fieldError(f field, origin string, err error) error {
	if len(l.names) > 1 {
		return fmt.Errorf("%s (set in %s): %w", f, l.src.show(origin), err)
	}
	return fmt.Errorf("%s: %w", f, err)
}
