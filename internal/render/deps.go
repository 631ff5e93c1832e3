package render

// deps are render's collaborators: the in-process build, the certificate
// library, the bundle checks and IP detection. Tests swap single functions
// to inject failures; production uses realDeps.
type deps struct {
	build       func(target, bootstrapIP, image string, getenv func(string) string) ([]byte, error)
	family      func(target string, getenv func(string) string) (string, error)
	planCerts   func(dir, bootstrapIP string) (*certPlan, error)
	agentSecret func(p *certPlan, namespace, hostPath string) ([]byte, error)
	check       func(stream []byte, certFiles map[string][]byte, allowEmpty bool) ([]Finding, error)
	detectIP    func(family string, getenv func(string) string) (string, error)
}

// certPlan is the certificate library's decision for the certificate
// directory: the six files as they are, or will be, on disk.
type certPlan struct {
	Generated bool
	Reason    string
	Files     map[string][]byte
	lib       any // the library's own result, handed back to agentSecret
}

func (o *Options) collaborators() *deps {
	if o.deps != nil {
		return o.deps
	}
	return realDeps()
}
