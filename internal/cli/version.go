package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// versionFrom picks the version: the link-time value, else the module
// version the toolchain derived from VCS, else a pseudo-version made of the
// recorded vcs.revision/vcs.time/vcs.modified. It never answers "(devel)",
// which says nothing about what was built.
func versionFrom(linked string, bi *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if bi == nil {
		return "unknown"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	rev := vcs["vcs.revision"]
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	stamp := "00000000000000"
	if t, err := time.Parse(time.RFC3339, vcs["vcs.time"]); err == nil {
		stamp = t.UTC().Format("20060102150405")
	}
	v := "v0.0.0-" + stamp + "-" + rev
	if vcs["vcs.modified"] == "true" {
		v += "+dirty"
	}
	return v
}

// buildInfo is what version prints: the version versionFrom picks, and
// the VCS revision, commit time and modified flag the toolchain recorded
// (empty when it recorded none), with the Go release that built it.
type buildInfo struct {
	Program   string `json:"program"`
	Version   string `json:"version"`
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"goVersion,omitempty"`
}

// buildInfoFrom reads bi (nil: none recorded) for linked, the link-time
// version.
func buildInfoFrom(linked string, bi *debug.BuildInfo) buildInfo {
	out := buildInfo{Program: ProgramName, Version: versionFrom(strings.TrimSpace(linked), bi)}
	if bi == nil {
		return out
	}
	out.GoVersion = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			out.Revision = s.Value
		case "vcs.time":
			out.Time = s.Value
		case "vcs.modified":
			out.Modified = s.Value == "true"
		}
	}
	return out
}

// WriteText is the version on the first line, as scripts read it, then
// the revision it was built from when the toolchain recorded one. The
// values come from -ldflags and the checkout's record, so each is escaped.
func (b buildInfo) WriteText(w io.Writer) error {
	b.Version, b.Revision, b.Time, b.GoVersion = textsafe.Escape(b.Version), textsafe.Escape(b.Revision), textsafe.Escape(b.Time), textsafe.Escape(b.GoVersion)
	if _, err := fmt.Fprintf(w, "%s %s\n", b.Program, b.Version); err != nil || b.Revision == "" {
		return err
	}
	rev := "revision " + b.Revision
	if b.Modified {
		rev += " (modified)"
	}
	if b.Time != "" {
		rev += ", committed " + b.Time
	}
	if b.GoVersion != "" {
		rev += ", built with " + b.GoVersion
	}
	_, err := fmt.Fprintln(w, rev)
	return err
}

// printVersion writes the program's version, from linked (the link-time
// value, which wins when set) and Go's build info, in format.
func printVersion(io IO, linked string, format output.Format) error {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return output.Write(io.Stdout, format, buildInfoFrom(linked, bi))
}

// NewCmdVersion is version; it prints linked, the version cmd/konnectivity-bundle was
// stamped with at link time, or what versionFrom falls back to, and the
// revision Go's build info holds.
func NewCmdVersion(linked string) *command {
	return &command{
		Name:  "version",
		Short: "Print the version of konnectivity-bundle",
		Long: `Prints the version: the one make stamped from git describe, else the module
version the Go toolchain recorded from version control, else "unknown" (a
build with neither); then the VCS revision Go's build info holds, when it
holds one. ` + ProgramName + ` --version prints the same.`,
		Examples: []string{ProgramName + " version", ProgramName + " version -o json"},
		Reads:    reads{Instead: "prints its version"},
		Exits:    []exitLine{{exitSuccess, "printed"}, usageExit},
		NoArgs:   true,
		Options: func(fs *pflag.FlagSet) options {
			return &versionOptions{linked: linked, format: outputFlag(fs, output.Text, output.JSON)}
		},
	}
}

// versionOptions are version's: the link-time version and the format.
type versionOptions struct {
	takesNothing
	linked string
	format *output.Choice
}

// Run prints the version.
func (o *versionOptions) Run(io IO) error { return printVersion(io, o.linked, o.format.Format()) }
