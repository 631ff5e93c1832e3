package strictobj

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		name string
		obj  string
		want []string // Problem.String() of each, in order; nil = clean
	}{
		{"clean DaemonSet", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: a}\nspec: {template: {spec: {nodeSelector: {a: b}}}}\n", nil},
		{"misspelled nodeSelector", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: a}\nspec: {template: {spec: {nodeSelecter: {a: b}}}}\n",
			[]string{`spec.template.spec.nodeSelecter: unknown field (did you mean "nodeSelector"?)`}},
		{"in a list item", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c}, {name: d, imagee: x}]}\n",
			[]string{`spec.containers[1].imagee: unknown field (did you mean "image"?)`}},
		{"misplaced into its parent", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {image: x}\n",
			[]string{`spec.image: unknown field (it belongs at spec.containers[].image or spec.ephemeralContainers[].image or spec.initContainers[].image or spec.volumes[].image)`}},
		{"two at once, in path order", "apiVersion: v1\nkind: Namespace\nmetadata: {name: a, lables: {}}\nspecs: {}\n",
			[]string{`metadata.lables: unknown field (did you mean "labels"?)`, `specs: unknown field (did you mean "spec"?)`}},
		{"wrong case is unknown", "apiVersion: v1\nkind: Secret\nmetadata: {name: a}\nStringData: {k: v}\n",
			[]string{`StringData: unknown field (did you mean "stringData"?)`}},
		{"egress file", "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\nmetadata: {name: e}\negressSelections: [{name: cluster, connection: {proxyProtocal: GRPC}}]\n",
			[]string{`egressSelections[0].connection.proxyProtocal: unknown field (did you mean "proxyProtocol"?)`}},
		{"a kind without a type", "apiVersion: example.com/v1\nkind: Widget\nspecc: {}\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			js, err := yaml.YAMLToJSON([]byte(tc.obj))
			if err != nil {
				t.Fatal(err)
			}
			var tm struct{ APIVersion, Kind string }
			if err := yaml.Unmarshal([]byte(tc.obj), &tm); err != nil {
				t.Fatal(err)
			}
			ps, err := Check(tm.APIVersion, tm.Kind, js)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestCheckTypeError(t *testing.T) {
	if _, err := Check("v1", "Pod", []byte(`{"spec":{"hostNetwork":"yes"}}`)); err == nil {
		t.Fatal("a string for a bool decoded without error")
	}
}
