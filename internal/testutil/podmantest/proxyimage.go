package podmantest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

var proxyImages sync.Map // version name -> image reference

// ProxyImage builds, once per test process, an apiserver-network-proxy
// image of version v FROM scratch with the built proxy-server and
// proxy-agent at the paths OpenShift's image has them (nothing is pulled),
// and returns its reference. Its tag names no OpenShift release, as an
// image by digest would not: what runs in it is learnt by asking it.
func ProxyImage(tb testing.TB, v *proxyversion.Version) string {
	tb.Helper()
	ref := "localhost/apiserver-network-proxy:test-" + v.Name
	if _, done := proxyImages.Load(v.Name); done {
		return ref
	}
	Require(tb)
	dir := tb.TempDir()
	file := "FROM scratch\n"
	for _, name := range []string{"proxy-server", "proxy-agent"} {
		data, err := os.ReadFile(tooltest.ProxyBin(tb, v, name))
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
			tb.Fatal(err)
		}
		file += fmt.Sprintf("COPY %s /usr/bin/%s\n", name, name)
	}
	if err := os.WriteFile(filepath.Join(dir, "Containerfile"), []byte(file), 0o644); err != nil {
		tb.Fatal(err)
	}
	MustPodman(tb, "build", "--quiet", "--pull=never", "-t", ref, dir)
	proxyImages.Store(v.Name, true)
	return ref
}
