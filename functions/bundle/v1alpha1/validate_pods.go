package v1alpha1

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// Namespaces the bundle must never use: teardown deletes the agent
// namespace, so it must be one the bundle owns alone. Shared ones
// (default, openshift) and the platform's prefixes (kube-*, openshift-*)
// are refused, except the bundle's own dedicated DefaultNamespace.
var (
	reservedNamespaces        = []string{"default", "openshift"}
	reservedNamespacePrefixes = []string{"kube-", "openshift-"}
)

// ReservedNamespace says why ns may not hold the agents, or returns "".
func ReservedNamespace(ns string) string {
	if ns == defaultNamespace {
		return ""
	}
	for _, r := range reservedNamespaces {
		if ns == r {
			return fmt.Sprintf("%q is a shared namespace", ns)
		}
	}
	for _, p := range reservedNamespacePrefixes {
		if strings.HasPrefix(ns, p) {
			return fmt.Sprintf("%q is reserved for the platform (%s*)", ns, p)
		}
	}
	return ""
}

// ReservedNamespaceFix is the fix for a reserved agent namespace.
const ReservedNamespaceFix = "use " + defaultNamespace + " or a namespace of your own outside default, openshift, kube-* and openshift-*: teardown deletes the agent namespace with everything in it"

func (v *validator) namespace(ns string) {
	if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
		v.add("spec.namespace", "use a lowercase DNS label such as "+defaultNamespace, "%q is not a valid namespace: %s", ns, strings.Join(errs, "; "))
		return
	}
	if why := ReservedNamespace(ns); why != "" {
		v.add("spec.namespace", ReservedNamespaceFix, "%s", why)
	}
}

// bindAddress keeps the agent listener where agents dial: check's
// agent-bind-address rule refuses any other address, so the generator does too.
func (v *validator) bindAddress(family, bind string) {
	ip, ok := bootstrapip.ParseAddr(bind)
	if !ok || !v.ip.IsValid() || ip.IsUnspecified() || ip == v.ip.Unmap() {
		return
	}
	if wrongFamily(family, ip) {
		return // bindFamily reported it
	}
	bootstrapIP := v.ip.String()
	v.add("spec.server.agentBindAddress", fmt.Sprintf("set it to spec.bootstrapIP (%s), or leave it empty to listen on all addresses", bootstrapIP),
		"agents dial spec.bootstrapIP %s but the server would accept them only on %s", bootstrapIP, bind)
}

// podSettings checks what the API server would reject only when
// cluster-bootstrap applies the objects, long after the build.
func (v *validator) podSettings(prefix, priorityClass string, res *corev1.ResourceRequirements) {
	if errs := validation.IsDNS1123Subdomain(priorityClass); len(errs) > 0 {
		v.add(prefix+".priorityClassName", "use a PriorityClass name such as "+defaultPriorityClass, "%q is not a valid PriorityClass name: %s", priorityClass, strings.Join(errs, "; "))
	}
	if res == nil {
		return
	}
	for _, l := range []struct {
		field string
		list  corev1.ResourceList
	}{{prefix + ".resources.requests", res.Requests}, {prefix + ".resources.limits", res.Limits}} {
		for _, name := range sortedNames(l.list) {
			if q := l.list[name]; q.Sign() < 0 {
				v.add(l.field+"."+string(name), "give a quantity of 0 or more, e.g. 10m for CPU or 50Mi for memory", "%s is negative", q.String())
			}
		}
	}
	for _, name := range sortedNames(res.Requests) {
		req := res.Requests[name]
		if lim, ok := res.Limits[name]; ok && req.Cmp(lim) > 0 {
			v.add(prefix+".resources.requests."+string(name), "make the request at most the limit, or raise the limit", "request %s is above the limit %s", req.String(), lim.String())
		}
	}
}

func (v *validator) nodeSelector(sel map[string]string) {
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		field := fmt.Sprintf("spec.agent.nodeSelector[%q]", k)
		if errs := validation.IsQualifiedName(k); len(errs) > 0 {
			v.add(field, "use a label key such as node-role.kubernetes.io/master or kubernetes.io/os", "%q is not a valid label key: %s", k, strings.Join(errs, "; "))
		}
		if errs := validation.IsValidLabelValue(sel[k]); len(errs) > 0 {
			v.add(field, "use a label value: at most 63 characters, alphanumerics, '-', '_' or '.'", "%q is not a valid label value: %s", sel[k], strings.Join(errs, "; "))
		}
	}
}

func sortedNames(l corev1.ResourceList) []corev1.ResourceName {
	out := make([]corev1.ResourceName, 0, len(l))
	for n := range l {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
