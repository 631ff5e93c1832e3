package proxyversion

import "testing"

// TestCrossings: a version written as text at either crossing reads back
// as itself, and each reader tells "not named" from "named wrongly".
func TestCrossings(t *testing.T) {
	empty := func(string) string { return "" }
	for _, v := range Versions {
		env := WithEnv(empty, v)
		if got, err := Lookup(EnvName(env)); got != v || err != nil {
			t.Errorf("%s through the environment read back as %v (%v)", v, got, err)
		}
		annotations := map[string]string{}
		Annotate(annotations, v)
		if got, named, err := FromAnnotations(annotations); got != v || !named || err != nil {
			t.Errorf("%s through the annotation read back as %v, named %v (%v)", v, got, named, err)
		}
	}
	if EnvName(WithEnv(empty, nil)) != "" {
		t.Error("WithEnv(nil) named a version")
	}
	if base := WithEnv(func(k string) string { return k }, Newest); base("OTHER") != "OTHER" {
		t.Error("WithEnv hid the rest of the environment")
	}
	if _, named, err := FromAnnotations(nil); named || err != nil {
		t.Errorf("no annotation: named %v (%v)", named, err)
	}
	if v, named, err := FromAnnotations(map[string]string{AnnotationProxyVersion: "v9"}); v != nil || !named || err == nil {
		t.Errorf("an unknown name: got %v, named %v, err %v; want named, with an error", v, named, err)
	}
}
