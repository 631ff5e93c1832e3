// Command pairs prints the tools the release-pair table
// (internal/proxyversion.Pairs) needs built, for tools/build.sh and the
// Makefile, so the list of pairs is written once, in code. One line each:
//
//	caller MINOR TOOL APISERVER          the pair's release caller (tools/kas-caller/k8s-MINOR.mod)
//	kube-apiserver MINOR TOOL KUBERNETES the pair's whole kube-apiserver (tools/TOOL)
//
// Usage: go run ./tools/pairs
package main

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

func main() {
	for _, p := range proxyversion.Pairs {
		if p.Proof == proxyversion.ReleaseCaller {
			fmt.Println("caller", p.Kubernetes, p.Tool(), p.APIServer)
		}
		if tool := p.KubeAPIServerTool(); tool != "" {
			fmt.Println("kube-apiserver", p.Kubernetes, tool, p.KubeAPIServer)
		}
	}
}
