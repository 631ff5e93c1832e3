package netreq

import (
	"fmt"
	"path"
	"strings"
)

// HostPath maps a path inside the container to the host path behind it,
// through the container's volumeMounts and the pod's hostPath volumes. ok
// is false when no hostPath mount covers it.
func (w *Workload) HostPath(containerPath string) (string, bool) {
	volumes := map[string]string{}
	vs, _ := w.PodSpec["volumes"].([]any)
	for _, v := range vs {
		m, _ := v.(map[string]any)
		if hp, ok := m["hostPath"].(map[string]any); ok {
			volumes[fmt.Sprint(m["name"])] = fmt.Sprint(hp["path"])
		}
	}
	best, bestLen := "", -1
	mounts, _ := w.Container["volumeMounts"].([]any)
	for _, mt := range mounts {
		m, _ := mt.(map[string]any)
		mp := path.Clean(fmt.Sprint(m["mountPath"]))
		host, ok := volumes[fmt.Sprint(m["name"])]
		if !ok || len(mp) <= bestLen {
			continue
		}
		if rel, ok := under(containerPath, mp); ok {
			best, bestLen = path.Join(host, rel), len(mp)
		}
	}
	return best, bestLen >= 0
}

// under returns p relative to dir when p is dir or inside it.
func under(p, dir string) (string, bool) {
	p = path.Clean(p)
	if p == dir {
		return "", true
	}
	if dir == "/" {
		return strings.TrimPrefix(p, "/"), true
	}
	rel, ok := strings.CutPrefix(p, dir+"/")
	return rel, ok
}
