package render

import "fmt"

// TEMPORARY SEAM (pendingDependency): internal/kustbuild, functions/certs,
// functions/check and internal/bootstrapip are being written in parallel
// against contracts 1-3. Until they land, realDeps reports which one is
// missing; this file is replaced by deps_real.go wiring the real packages.
func realDeps() *deps {
	return &deps{
		build: func(string, string, string, func(string) string) ([]byte, error) {
			return nil, pendingDependency("internal/kustbuild")
		},
		planCerts: func(string, string) (*certPlan, error) {
			return nil, pendingDependency("functions/certs")
		},
		agentSecret: func(*certPlan, string, string) ([]byte, error) {
			return nil, pendingDependency("functions/certs")
		},
		check: func([]byte, map[string][]byte, bool) ([]Finding, error) {
			return nil, pendingDependency("functions/check")
		},
		detectIP: func(string, func(string) string) (string, error) {
			return "", pendingDependency("internal/bootstrapip")
		},
	}
}

func pendingDependency(pkg string) error {
	return fmt.Errorf("pendingDependency: package %s is not in this build yet", pkg)
}
