package result

import (
	"errors"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// FromError is a config error as the results a KRM function returns for it:
// one per field error (each error of an errors.Join, each of a list that has
// a Results method, one that has a Result method, wrapped or not), else one
// error result with the error's text.
func FromError(err error) framework.Results {
	return Function(fromError(err), nil)
}

func fromError(err error) framework.Results {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var out framework.Results
		for _, e := range joined.Unwrap() {
			out = append(out, fromError(e)...)
		}
		return out
	}
	if many, ok := err.(interface{ Results() framework.Results }); ok {
		return many.Results()
	}
	var one interface{ Result() *framework.Result }
	if errors.As(err, &one) {
		return framework.Results{one.Result()}
	}
	return framework.Results{New(framework.Error, "", "", "", err.Error(), "")}
}
