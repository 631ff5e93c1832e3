package cli

import (
	"context"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/imageref"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/adminkubeconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// The flags several commands share (--output, --root, --bootstrap-ip,
// --image, --gather, --quiet, --kubeconfig) are declared only here, so each is spelled, defaulted, checked
// and explained the same way in every command; TestSharedFlags walks every
// command to keep it so. README "Commands" describes them.

// sharedAnnotation marks a flag declared by these helpers;
// requiredAnnotation one that runCommand refuses to leave empty;
// valuesAnnotation lists the values a flag takes, which completion offers
// (completion.go).
const (
	sharedAnnotation   = "konnectivity-bundle/shared"
	requiredAnnotation = "konnectivity-bundle/required"
	valuesAnnotation   = "konnectivity-bundle/values"
)

// rootUse is how a command uses --root, which decides its default.
type rootUse int

const (
	// rootReads: the command reads under the root, or writes only beneath
	// a path the user names (certs --dir): --root defaults to /.
	rootReads rootUse = iota
	// rootPlaces: the command itself picks the host paths it writes or
	// removes under the root: --root is required, so a forgotten flag
	// never lands the bundle on, or removes it from, the wrong host.
	rootPlaces
)

// rootFlag declares --root with the default use gives it; what says what
// the command does under it, so each command's help says what --root is
// there. The rule itself (required by the commands that place host paths,
// / for the others) is stated once, in docs/commands.md.
func rootFlag(fs *pflag.FlagSet, p *string, what string, use rootUse) {
	def := "/"
	if use == rootPlaces {
		def, what = "", what+" (required)"
	}
	fs.StringVar(p, "root", def, what)
	markShared(fs, "root")
	if use == rootPlaces {
		markRequired(fs, "root")
	}
}

// outputFlag declares -o/--output with the formats the command writes, the
// first being the default. Another value fails when the flags are read
// (output.Choice), naming --output and the formats.
func outputFlag(fs *pflag.FlagSet, formats ...output.Format) *output.Choice {
	c := output.NewChoice(formats...)
	fs.VarP(c, "output", "o", "output format: "+output.Join(formats, ", "))
	markShared(fs, "output")
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	markValues(fs, "output", names)
	return c
}

// imageEnv is where every command that builds takes the image from when
// --image is not given (the generator reads it).
const imageEnv = "$KONNECTIVITY_IMAGE"

// imageFlag declares --image, and --override-pin and --keep-pin, which say
// what it does to an image the overlay pins (an error without either);
// note adds what this command does with it.
func imageFlag(fs *pflag.FlagSet, p *string, pin *kustbuild.PinPolicy, note string) {
	fs.Var(imageref.Flag{P: p}, "image", joinHelp("apiserver-network-proxy image reference (default "+imageEnv+")", note))
	markShared(fs, "image")
	pinFlags(fs, pin)
}

// pinFlags declares --override-pin and --keep-pin, which set pin.
func pinFlags(fs *pflag.FlagSet, pin *kustbuild.PinPolicy) {
	for _, f := range []struct {
		want       kustbuild.PinPolicy
		name, help string
	}{
		{kustbuild.PinOverride, kustbuild.OverridePinFlag, "--image (or " + imageEnv + ") replaces an image the overlay pins (images: or spec.image), which is otherwise an error"},
		{kustbuild.PinKeep, kustbuild.KeepPinFlag, "an image the overlay pins wins over --image (or " + imageEnv + "), which then only serves an overlay that pins none"},
	} {
		fl := fs.VarPF(&pinValue{p: pin, want: f.want}, strings.TrimPrefix(f.name, "--"), "", f.help)
		fl.NoOptDefVal = "true"
		markShared(fs, fl.Name)
	}
}

// pinValue is --override-pin or --keep-pin: a boolean flag that sets the
// pin policy, and refuses the other one's.
type pinValue struct {
	p    *kustbuild.PinPolicy
	want kustbuild.PinPolicy
}

func (v *pinValue) String() string { return strconv.FormatBool(v.p != nil && *v.p == v.want) }

func (v *pinValue) Type() string { return "bool" }

func (v *pinValue) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	switch {
	case !on && *v.p == v.want:
		*v.p = kustbuild.PinRefuse
	case on && *v.p != kustbuild.PinRefuse && *v.p != v.want:
		return fmt.Errorf("%s and %s contradict each other: give one", kustbuild.OverridePinFlag, kustbuild.KeepPinFlag)
	case on:
		*v.p = v.want
	}
	return nil
}

// proxyVersionHelp says what --proxy-version decides and where it defaults from.
var proxyVersionHelp = fmt.Sprintf("the apiserver-network-proxy version the image runs, which decides the flags rendered: %s (default $%s, else the image's OpenShift tag :4.N)",
	strings.Join(proxyversion.VersionNames(), " or "), proxyversion.EnvProxyVersion)

// proxyVersionFlag declares --proxy-version, checked when the flags are
// read: an unknown version fails there, naming the supported ones.
func proxyVersionFlag(fs *pflag.FlagSet, p **proxyversion.Version) {
	fs.Var(&versionValue{p: p}, "proxy-version", proxyVersionHelp)
	markShared(fs, "proxy-version")
	markValues(fs, "proxy-version", proxyversion.VersionNames())
}

// proxyVersionPairFlag is diff's --proxy-version: one for both sides, or A,B.
func proxyVersionPairFlag(fs *pflag.FlagSet, p *[]*proxyversion.Version) {
	fs.Var(&versionListValue{p: p}, "proxy-version", proxyVersionHelp+"; VERSION_A,VERSION_B gives each side its own")
	markShared(fs, "proxy-version")
	markValues(fs, "proxy-version", proxyversion.VersionNames())
}

// versionValue is one --proxy-version.
type versionValue struct{ p **proxyversion.Version }

func (v *versionValue) String() string {
	if v.p == nil || *v.p == nil {
		return ""
	}
	return (*v.p).Name
}
func (v *versionValue) Type() string { return "version" }

func (v *versionValue) Set(s string) error {
	got, err := proxyversion.Lookup(s)
	if err != nil {
		return err
	}
	*v.p = got
	return nil
}

// versionListValue is VERSION or VERSION_A,VERSION_B.
type versionListValue struct{ p *[]*proxyversion.Version }

func (v *versionListValue) String() string {
	if v.p == nil {
		return ""
	}
	names := make([]string, 0, len(*v.p))
	for _, got := range *v.p {
		names = append(names, got.Name)
	}
	return strings.Join(names, ",")
}
func (v *versionListValue) Type() string { return "versions" }

func (v *versionListValue) Set(s string) error {
	var out []*proxyversion.Version
	for _, item := range strings.Split(s, ",") {
		got, err := proxyversion.Lookup(strings.TrimSpace(item))
		if err != nil {
			return err
		}
		out = append(out, got)
	}
	*v.p = out
	return nil
}

// kubeconfigRule is the one lookup of the kubeconfig (kuberead.Find), in
// short: every command that reads the kube-apiserver ends its --kubeconfig
// help with it, and docs/commands.md states it in full, once.
const kubeconfigRule = `found as: --kubeconfig, else $KUBECONFIG (merged, as kubectl does), else ROOT/opt/openshift/auth/kubeconfig when render wrote --root, never ~/.kube/config; "" reads no cluster (docs/commands.md, "Shared flags")`

// kubeconfigValue is --kubeconfig as given, and whether it was given at
// all: an explicit "" means "read no cluster", not "look elsewhere".
type kubeconfigValue struct {
	fs    *pflag.FlagSet
	value string
}

// kubeconfigFlag declares --kubeconfig; what says what the cluster is read
// for in this command.
func kubeconfigFlag(fs *pflag.FlagSet, what string) *kubeconfigValue {
	k := &kubeconfigValue{fs: fs}
	fs.StringVar(&k.value, "kubeconfig", "", "kubeconfig of the bootstrap kube-apiserver: "+what+"; "+kubeconfigRule)
	markShared(fs, "kubeconfig")
	return k
}

// find applies the rule to this run: the flag, $KUBECONFIG through the
// command's IO, then root.
func (k *kubeconfigValue) find(io IO, root string) kuberead.Choice {
	l := kuberead.Lookup{Flag: k.value, FlagGiven: k.fs.Changed("kubeconfig"), Env: io.Getenv("KUBECONFIG")}
	if root != "" {
		l.Root = adminkubeconfig.In(root)
	}
	return kuberead.Find(l)
}

// openCluster finds the kubeconfig and opens the reader bounded by
// timeout, the command's --timeout; the reader is nil when no kubeconfig
// was found. A kubeconfig that cannot be loaded is an error the command
// gives its own exit code, before anything is read or changed. Reading the
// kubeconfig and running its exec plugin stop when ctx ends (the command's
// deadline, or a share of it).
func (k *kubeconfigValue) openCluster(ctx context.Context, io IO, root string, timeout time.Duration) (kuberead.Choice, *kuberead.Reader, error) {
	c := k.find(io, root)
	if !c.Found() {
		return c, nil, nil
	}
	r, err := kuberead.Open(ctx, c, kuberead.Within(timeout))
	if err != nil {
		return c, nil, err
	}
	return c, r, nil
}

// gatherHelp starts every --gather help line: the directory is the one
// openshift-install gather bootstrap collects (docs/troubleshooting.md).
const gatherHelp = "also write "

// gatherFlag declares --gather DIR; files names what the command writes
// there, each file atomically, for the log bundle.
func gatherFlag(fs *pflag.FlagSet, p *string, files string) {
	fs.StringVar(p, "gather", "", gatherHelp+files+" into this directory, for the log bundle (docs/troubleshooting.md)")
	markShared(fs, "gather")
}

// imagePairFlag is diff's --image: one image for both sides, or IMAGE_A,IMAGE_B.
func imagePairFlag(fs *pflag.FlagSet, p *[]string) {
	fs.Var(imageref.ListFlag{P: p}, "image", "apiserver-network-proxy image reference (default "+imageEnv+"); IMAGE_A,IMAGE_B gives each side its own")
	markShared(fs, "image")
}

// bootstrapIPEnv is the variable a build falls back to without --bootstrap-ip.
const bootstrapIPEnv = "$KONNECTIVITY_BOOTSTRAP_IP"

// bootstrapIPFlag declares --bootstrap-ip, parsed once when the flags are
// read (bootstrapip.Validate): an address agents on other nodes cannot dial
// fails there, naming --bootstrap-ip. The zero Addr means not given.
func bootstrapIPFlag(fs *pflag.FlagSet, p *netip.Addr, note string) {
	fs.Var(&ipValue{addr: p}, "bootstrap-ip", joinHelp("the bootstrap node's IP that agents dial", note))
	markShared(fs, "bootstrap-ip")
}

// bootstrapIPAutoFlag is render's --bootstrap-ip, which also takes auto
// (detect the address); *auto is set instead of *p then.
func bootstrapIPAutoFlag(fs *pflag.FlagSet, p *netip.Addr, auto *bool, note string) {
	fs.Var(&ipValue{addr: p, auto: auto}, "bootstrap-ip", joinHelp("the bootstrap node's IP that agents dial, or auto", note))
	markShared(fs, "bootstrap-ip")
}

// bootstrapIPPairFlag is diff's --bootstrap-ip: one address for both
// sides, or IP_A,IP_B; each parsed as bootstrapIPFlag does.
func bootstrapIPPairFlag(fs *pflag.FlagSet, p *[]netip.Addr) {
	fs.Var(&ipListValue{addrs: p}, "bootstrap-ip", "the bootstrap node's IP that agents dial (default "+bootstrapIPEnv+"); IP_A,IP_B gives each side its own")
	markShared(fs, "bootstrap-ip")
}

// ipValue is one --bootstrap-ip.
type ipValue struct {
	addr *netip.Addr
	auto *bool // nil: auto is not accepted
}

// autoIP is the --bootstrap-ip value that asks render to detect the address.
const autoIP = "auto"

func (v *ipValue) String() string {
	switch {
	case v.auto != nil && *v.auto:
		return autoIP
	case v.addr == nil || !v.addr.IsValid():
		return ""
	}
	return v.addr.String()
}

func (v *ipValue) Type() string { return "string" }

func (v *ipValue) Set(s string) error {
	if v.auto != nil && s == autoIP {
		*v.auto, *v.addr = true, netip.Addr{}
		return nil
	}
	addr, err := bootstrapip.Validate(s, "")
	if err != nil {
		return err
	}
	*v.addr = addr
	if v.auto != nil {
		*v.auto = false
	}
	return nil
}

// ipListValue is a comma-separated list of --bootstrap-ip values; a
// repeated flag adds to the list.
type ipListValue struct {
	addrs *[]netip.Addr
}

func (v *ipListValue) String() string {
	texts := make([]string, len(*v.addrs))
	for i, a := range *v.addrs {
		texts[i] = a.String()
	}
	return strings.Join(texts, ",")
}

func (v *ipListValue) Type() string { return "strings" }

func (v *ipListValue) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		addr, err := bootstrapip.Validate(part, "")
		if err != nil {
			return err
		}
		*v.addrs = append(*v.addrs, addr)
	}
	return nil
}

// keyFlags are the key choice of new certificates, shared by certs and
// render; certs.CheckKey validates them.
func keyFlags(fs *pflag.FlagSet, algorithm *string, size *int) {
	fs.StringVar(algorithm, "key-algorithm", "ecdsa", "ecdsa (P-256) or rsa")
	markValues(fs, "key-algorithm", certs.KeyAlgorithms)
	fs.IntVar(size, "key-size", 0, "RSA modulus bits: 2048 (default), 3072 or 4096; ECDSA: 256")
}

// lockTimeoutFlag is --lock-timeout of every command that changes the host
// (render, teardown, certs): they share the root's lock, so they wait alike.
func lockTimeoutFlag(fs *pflag.FlagSet, d *time.Duration) {
	fs.DurationVar(d, "lock-timeout", hostfs.DefaultLockTimeout, "how long to wait for another render, teardown or certs on the same root (0: fail at once)")
}

// quietHelp is what -q/--quiet does in every command that takes it.
const quietHelp = "print no info findings and no success report (warnings and errors still print)"

// quietFlag declares -q/--quiet: the commands that say findings (build,
// check, render) or report what they did (teardown) stay silent on a clean
// run, as a CI log wants; what fails or needs a look is always said.
func quietFlag(fs *pflag.FlagSet, p *bool) {
	fs.BoolVarP(p, "quiet", "q", false, quietHelp)
	markShared(fs, "quiet")
}

// verboseHelp is what -v/--verbose does in every command that takes it.
const verboseHelp = "also print the info findings, whose fix is nothing to set (check lists them always; -q wins)"

// verboseFlag declares -v/--verbose: the commands that build a bundle
// (build, render) say their info findings only when asked
// (result.SaysInfo), so a clean run prints nothing on stderr.
func verboseFlag(fs *pflag.FlagSet, p *bool) {
	fs.BoolVarP(p, "verbose", "v", false, verboseHelp)
	markShared(fs, "verbose")
}

// joinHelp appends a command's note to a shared help text.
func joinHelp(text, note string) string {
	if note == "" {
		return text
	}
	return text + "; " + note
}

func markShared(fs *pflag.FlagSet, name string) {
	if err := fs.SetAnnotation(name, sharedAnnotation, []string{"true"}); err != nil {
		panic(err) // the flag was declared just before: a programming error
	}
}

// markValues says which values completion offers for --name: the list
// the flag's value is checked against, never a copy of it.
func markValues(fs *pflag.FlagSet, name string, values []string) {
	if err := fs.SetAnnotation(name, valuesAnnotation, values); err != nil {
		panic(err)
	}
}

func markRequired(fs *pflag.FlagSet, name string) {
	if err := fs.SetAnnotation(name, requiredAnnotation, []string{"true"}); err != nil {
		panic(err)
	}
}
