package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// initOnly makes the test binary print the collector's setting as every
// package has left it, before gctune.Tune turns it back on, and exit.
const initOnly = "KB_TEST_INIT_ONLY"

// runMain makes the test binary run main itself, so tests run the commands
// as processes of this very build (fips_test.go).
const runMain = "KB_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(initOnly) == "1":
		fmt.Printf("gcpercent %d\n", debug.SetGCPercent(100))
		os.Exit(0)
	case os.Getenv(runMain) == "1":
		main()
	case os.Getenv(fipsControl) == "1":
		reportEnforcement()
	}
	os.Exit(m.Run())
}

// TestInitOrder: gctune's init runs before the costliest package
// initialisers and leaves the collector off, so no collection runs while
// the libraries initialise (with the default GOGC, one did in `version`).
// The test binary links what main links.
func TestInitOrder(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), initOnly+"=1", "GODEBUG=inittrace=1,gctrace=1", "GOGC=", "GOMEMLIMIT=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	pos := map[string]int{}
	gcs, percent := 0, ""
	for i, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 1 && f[0] == "init":
			pos[f[1]] = i + 1
		case len(f) > 0 && f[0] == "gc":
			gcs++
		case len(f) == 2 && f[0] == "gcpercent":
			percent = f[1]
		}
	}
	tune := pos["github.com/bootstrap-konnectivity/konnectivity-bundle/internal/gctune"]
	if tune == 0 {
		t.Fatalf("gctune did not initialise:\n%s", out)
	}
	for _, heavy := range []string{"github.com/weppos/publicsuffix-go/publicsuffix", "k8s.io/apimachinery/pkg/runtime", "sigs.k8s.io/kustomize/kyaml/openapi"} {
		if p := pos[heavy]; p != 0 && p < tune {
			t.Errorf("%s initialised at %d, before gctune at %d", heavy, p, tune)
		}
	}
	if percent != "-1" {
		t.Errorf("GC percent after initialisation %q, want -1 (off)", percent)
	}
	if gcs != 0 {
		t.Errorf("%d garbage collections while the packages initialised, want none", gcs)
	}
}
