// Command pairs prints what the release-pair table
// (internal/proxyversion.Pairs) needs, for tools/build.sh, the Makefile and
// the docs, so the list of pairs is written once, in code.
//
// Usage: go run ./tools/pairs [MINOR...]   the tools of every pair (or of the
//
//	pairs of those Kubernetes minors, each of which must have one), a line each:
//	caller MINOR TOOL APISERVER          its release caller (tools/kas-caller/k8s-MINOR.mod)
//	kube-apiserver MINOR TOOL KUBERNETES its full kube-apiserver (tools/TOOL)
//	node MINOR TOOL KUBERNETES MODULE COMPONENT
//	                                     a node tool of its minor (cmd/COMPONENT in tools/MODULE)
//
// go run ./tools/pairs -docs   the rows of docs/proxy-versions.md's "Release pairs" table
package main

import (
	"fmt"
	"os"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

func main() {
	args := os.Args[1:]
	if len(args) == 1 && args[0] == "-docs" {
		for _, p := range proxyversion.Pairs {
			fmt.Println(p.DocsRow())
		}
		return
	}
	pairs := proxyversion.Pairs
	if len(args) > 0 {
		pairs = nil
		for _, minor := range args {
			p, err := proxyversion.LookupPair(minor)
			if err == nil && p.Proof == proxyversion.NotRun && p.KubeAPIServer == "" {
				err = fmt.Errorf("pair %s has no tool to run it (no ReleaseCaller, no KubeAPIServer)", p)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "pairs:", err)
				os.Exit(2)
			}
			pairs = append(pairs, p)
		}
	}
	for _, p := range pairs {
		if p.Proof == proxyversion.ReleaseCaller {
			fmt.Println("caller", p.Kubernetes, p.Tool(), p.APIServer)
		}
		if tool := p.KubeAPIServerTool(); tool != "" {
			fmt.Println("kube-apiserver", p.Kubernetes, tool, p.KubeAPIServer)
			for _, c := range proxyversion.NodeComponents {
				fmt.Println("node", p.Kubernetes, p.NodeTool(c), p.KubeAPIServer, tool, c)
			}
		}
	}
}
