package dispatch

import (
	"bytes"
	"fmt"
	"io"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// RunLegacy serves kustomize's legacy exec plugin protocol: the config file
// path is argv[1], resources come on stdin, the result goes to stdout as a
// plain YAML stream. A generator prints only what it generates; a validator
// echoes its input unchanged, because kustomize replaces the resources with
// whatever a legacy plugin prints (an empty output would delete everything).
func (fs Functions) RunLegacy(kind, configPath string, in io.Reader, out io.Writer, getenv func(string) string) error {
	f, ok := fs.Lookup(kind)
	if !ok {
		return fmt.Errorf("this binary serves no plugin kind %q", kind)
	}
	config, err := inputread.File(configPath, inputread.FunctionInput)
	if err == nil {
		err = yamlguard.CheckInput(configPath, config)
	}
	if err != nil {
		return fmt.Errorf("reading plugin config: %w", err)
	}
	input, err := readInput(in, "the resources on stdin")
	if err != nil {
		return err
	}
	rl := &framework.ResourceList{}
	if rl.FunctionConfig, err = yaml.Parse(string(config)); err != nil {
		return fmt.Errorf("parsing plugin config %s: %w", textsafe.Value(configPath), err) // the path as kustomize gave it
	}
	if rl.Items, err = parseStream(input); err != nil {
		return fmt.Errorf("parsing resources from stdin: %w", err)
	}
	before := len(rl.Items)
	if err := result.Collect(rl, f.Factory(bundle.Inputs{Getenv: getenv}).Process(rl)); err != nil {
		return err
	}
	if f.Role == Validator {
		_, err := out.Write(input)
		return err
	}
	var buf bytes.Buffer
	if err := (&kio.ByteWriter{Writer: &buf}).Write(rl.Items[before:]); err != nil {
		return err
	}
	_, err = out.Write(buf.Bytes())
	return err
}

// readInput reads a function's input from in (name says which, in errors)
// through the one bounded reader and the YAML guard.
func readInput(in io.Reader, name string) ([]byte, error) {
	data, err := inputread.Reader(in, name, inputread.FunctionInput)
	if err != nil {
		return nil, err
	}
	if err := yamlguard.CheckInput(name, data); err != nil {
		return nil, err
	}
	return data, nil
}
