package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/statetest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// TestOwnerMarker: a root's first render picks a random owner id, records
// it in the state and marks every cluster object with it (and nothing
// else); later renders reuse it, so a re-run writes nothing.
func TestOwnerMarker(t *testing.T) {
	owners := map[string]bool{}
	for range 2 {
		root := t.TempDir()
		opts := baseOpts(root)
		opts.ownerID = "" // the real, random id
		mustRun(t, opts)
		st, err := statetest.Read(root)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(st.Owner) {
			t.Fatalf("state owner %q is not a 128-bit hex id", st.Owner)
		}
		owners[st.Owner] = true
		marker := hostlayout.AnnotationOwner + ": '" + st.Owner + "'"
		for _, rel := range bundlePaths {
			has := strings.Contains(readFile(t, root, rel), st.Owner)
			cluster := strings.HasPrefix(rel, "opt/openshift/manifests/")
			if cluster && !strings.Contains(readFile(t, root, rel), marker) && !strings.Contains(readFile(t, root, rel), hostlayout.AnnotationOwner+": "+st.Owner) {
				t.Errorf("%s lacks the owner marker", rel)
			}
			if !cluster && has {
				t.Errorf("%s is not a cluster object but carries the owner id", rel)
			}
		}
		if rep := mustRun(t, opts); rep.Changed() {
			t.Errorf("a re-run changed %+v", rep.Files)
		}
		if again, _ := statetest.Read(root); again.Owner != st.Owner {
			t.Errorf("owner changed from %s to %s", st.Owner, again.Owner)
		}
	}
	if len(owners) != 2 {
		t.Errorf("two roots got the same owner id")
	}
}
