// Package strictobj decodes the objects of a bundle into the Go types of
// the Kubernetes API they belong to, strictly, with the API machinery's
// decoder (sigs.k8s.io/json, what kube-apiserver's strict field validation
// uses), and names every field the type does not have with the field meant
// (internal/krm/fieldhint). The API server drops an unknown field of a
// DaemonSet patch without a word at apply time (a misspelled nodeSelector
// leaves the agents unrestricted); build and check refuse it instead.
//
// The KubeAPIServerConfig override (kubecontrolplane.config.openshift.io/v1)
// has no Go type this module can link (the OpenShift API modules are not
// among its dependencies), so it is not checked here: functions/check reads
// the fields of it the tunnel needs.
package strictobj

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/fieldhint"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Problem is one field of an object that its type does not have.
type Problem struct {
	Path    string // spec.template.spec.nodeSelecter
	Message string // unknown field, duplicate field
	Hint    string // did you mean "nodeSelector"?
}

func (p Problem) String() string {
	path, msg := textsafe.Value(p.Path), textsafe.Value(p.Message)
	if p.Hint == "" {
		return fmt.Sprintf("%s: %s", path, msg)
	}
	return fmt.Sprintf("%s: %s (%s)", path, msg, textsafe.Value(p.Hint))
}

// egressObject is the EgressSelectorConfiguration as the bundle carries it:
// the kube-apiserver's file (egressconfig mirrors its type) with the
// metadata kustomize needs, which render strips before writing the file.
type egressObject struct {
	metav1.TypeMeta  `json:",inline"`
	Metadata         metav1.ObjectMeta        `json:"metadata,omitempty"`
	EgressSelections []egressconfig.Selection `json:"egressSelections"`
}

// types are the kinds a bundle holds, by "apiVersion kind", plus the
// workload kinds a user overlay most often adds.
var types = map[string]reflect.Type{
	"v1 Pod":             reflect.TypeFor[corev1.Pod](),
	"v1 Namespace":       reflect.TypeFor[corev1.Namespace](),
	"v1 Secret":          reflect.TypeFor[corev1.Secret](),
	"v1 ConfigMap":       reflect.TypeFor[corev1.ConfigMap](),
	"v1 ServiceAccount":  reflect.TypeFor[corev1.ServiceAccount](),
	"apps/v1 DaemonSet":  reflect.TypeFor[appsv1.DaemonSet](),
	"apps/v1 Deployment": reflect.TypeFor[appsv1.Deployment](),
}

func init() {
	for _, v := range egressconfig.Versions {
		types[v+" "+egressconfig.Kind] = reflect.TypeFor[egressObject]()
	}
}

// Known says whether Check has a type for apiVersion and kind.
func Known(apiVersion, kind string) bool {
	_, ok := types[apiVersion+" "+kind]
	return ok
}

// Check decodes obj (JSON) strictly into the type of apiVersion and kind
// and returns every unknown or duplicate field, in path order. Nothing for
// a kind without a type (Known). The error is for a value the type cannot
// hold (a string where a number goes), which the caller reports as such.
func Check(apiVersion, kind string, obj []byte) ([]Problem, error) {
	t, ok := types[apiVersion+" "+kind]
	if !ok {
		return nil, nil
	}
	strict, err := kjson.UnmarshalStrict(obj, reflect.New(t).Interface())
	if err != nil {
		return nil, err
	}
	out := make([]Problem, 0, len(strict))
	for _, e := range strict {
		p := Problem{Message: e.Error()}
		if fe, ok := e.(kjson.FieldError); ok {
			p.Path = fe.FieldPath()
			p.Message = messageOf(e.Error(), p.Path)
			p.Hint = fieldhint.For(t, p.Path)
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// messageOf is the error's kind ("unknown field") without the quoted path
// the decoder appends.
func messageOf(msg, path string) string {
	return strings.TrimSuffix(msg, " "+strconv.Quote(path))
}
