package tunneltest

import (
	"os"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
)

// TestRootFitsFromADeepCheckout: the root New renders into is made the
// same way from a working directory over 100 bytes deep, and the server's
// socket under it fits a Unix socket path. (A whole tunnel run from a deep
// copy of the checkout is e2e's TestDeepCheckout.)
func TestRootFitsFromADeepCheckout(t *testing.T) {
	deep := shortroot.DeepDir(t, "konnectivity-bundle")
	t.Chdir(deep)
	root := newRoot(t)
	if shortroot.Under(root, deep) || !strings.HasPrefix(root, "/tmp/") {
		t.Fatalf("the root is %s; want a directory directly under /tmp", root)
	}
	if err := shortroot.Fits(root, defaultSocket); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("the root was not made: %v", err)
	}
}
