package gate

import (
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gather"
)

// Printed is what the wait command prints: the verdict, then in text the
// kubeconfig line (in JSON the verdict's own "kubeconfig").
type Printed struct{ *Verdict }

// WriteText writes the verdict and the kubeconfig read.
func (p Printed) WriteText(w io.Writer) error {
	if err := p.Verdict.WriteText(w); err != nil || p.Kubeconfig == nil {
		return err
	}
	return p.Kubeconfig.WriteText(w)
}

// JSONDocument is the verdict's.
func (p Printed) JSONDocument() any { return p.Verdict.JSONDocument() }

// Gather writes the verdict as --output json does into dir/wait.json,
// atomically, as status --gather writes status.json.
func (v *Verdict) Gather(dir gather.Dir) error {
	files := gather.Files{}
	if err := files.AddJSON(gather.WaitFile, v); err != nil {
		return err
	}
	return dir.Write(files)
}
