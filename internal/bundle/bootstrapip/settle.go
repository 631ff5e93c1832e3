package bootstrapip

import (
	"fmt"
	"net/netip"
)

// The fields a settle error names: the flag, or the overlay's own address.
const (
	FlagField = "--bootstrap-ip"
	specField = "overlay spec.bootstrapIP"
)

// Given is every source of one KonnectivityBundle config's bootstrap IP,
// for the settle policy (Settle for a build, Resolve for render). Which
// wins, strongest first: --bootstrap-ip, or auto's detection when the
// overlay names no address; the overlay's own spec.bootstrapIP; and, when
// Settle leaves the zero Addr, $KONNECTIVITY_BOOTSTRAP_IP, which the
// generator reads itself. A flag and spec.bootstrapIP naming two addresses
// is a ConflictError: neither silently wins.
type Given struct {
	Flag    netip.Addr // --bootstrap-ip as parsed; the zero Addr: not given
	From    string     // where Flag came from when not from --bootstrap-ip ("" = the flag); see ConflictError
	Auto    bool       // --bootstrap-ip auto (Resolve); Flag is ignored then
	Spec    string     // the config's own spec.bootstrapIP, "" for none
	Family  Family     // the config's spec.ipFamily
	Enabled bool       // false: the config generates nothing, or there is none
	Overlay string     // the overlay as messages name it
}

// ConflictError is a --bootstrap-ip that disagrees with the overlay's own
// spec.bootstrapIP (or names an address beside an unusable one): the one
// wording of that conflict, for every command. From, when set, says the
// address was not the flag's but one settled earlier (another config of
// the same overlay, or auto's detection), so the flag is not blamed.
type ConflictError struct {
	Flag    netip.Addr
	From    string
	Spec    string
	Overlay string
}

// Field is what the conflict blames: the flag, or the overlay's address.
func (e *ConflictError) Field() string {
	if e.From != "" {
		return specField
	}
	return FlagField
}

// Message is the conflict as a sentence that follows Field.
func (e *ConflictError) Message() string {
	if e.From != "" {
		return fmt.Sprintf("%s disagrees with %s, the address from %s (overlay %s)", e.Spec, e.Flag, e.From, e.Overlay)
	}
	return fmt.Sprintf("%s disagrees with overlay %s's spec.bootstrapIP %s", e.Flag, e.Overlay, e.Spec)
}

// Fix says what to change.
func (e *ConflictError) Fix() string {
	if e.From != "" {
		return "give every KonnectivityBundle config of the overlay the same spec.bootstrapIP, or none"
	}
	return "drop --bootstrap-ip to use the overlay's address, or pass the same address, or change spec.bootstrapIP in the overlay"
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s %s (fix: %s)", e.Field(), e.Message(), e.Fix())
}

// MissingError is an enabled config with no address from any source render
// takes: no --bootstrap-ip and no spec.bootstrapIP. The flag is what is
// missing (a usage error).
type MissingError struct {
	Overlay string
}

// Message is the fault as a sentence that follows the flag's name.
func (e *MissingError) Message() string {
	return fmt.Sprintf("was not given, and overlay %s sets no spec.bootstrapIP: agents dial that address and the server certificate names it", e.Overlay)
}

// Fix says what to change.
func (e *MissingError) Fix() string {
	return "pass --bootstrap-ip IP (the bootstrap node's address) or --bootstrap-ip auto, or set spec.bootstrapIP in the overlay"
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s %s (fix: %s)", FlagField, e.Message(), e.Fix())
}

// FieldError is an unusable address (Err) from one source, Field
// (FlagField or specField).
type FieldError struct {
	Field string
	Err   *Error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

// DetectError is auto finding no usable address.
type DetectError struct{ Err error }

func (e *DetectError) Error() string { return "auto: " + e.Err.Error() }

func (e *DetectError) Unwrap() error { return e.Err }

// Settle is the policy for a build, which leaves what it cannot decide to
// the generator: the address config g generates with, or the zero Addr for
// the generator's own sources ($KONNECTIVITY_BOOTSTRAP_IP), and its own
// checks (family, an unusable spec.bootstrapIP, which it names). A disabled
// config generates nothing, so needs no address.
func Settle(g Given) (netip.Addr, error) {
	if !g.Enabled {
		return netip.Addr{}, nil
	}
	return settle(g.Flag.Unmap(), g)
}

// settle is the flag against the config's own address: either alone is
// used; both must be the same address. The zero Addr when neither names a
// usable one.
func settle(flag netip.Addr, g Given) (netip.Addr, error) {
	if g.Spec == "" {
		return flag, nil
	}
	own, err := Validate(g.Spec, "")
	switch {
	case !flag.IsValid() && err != nil:
		return netip.Addr{}, nil
	case !flag.IsValid():
		return own, nil
	case err != nil || own != flag:
		return netip.Addr{}, &ConflictError{Flag: flag, From: g.From, Spec: g.Spec, Overlay: g.Overlay}
	}
	return own, nil
}

// Resolve is the policy for render, which decides the address before the
// build and so checks everything Settle leaves to the generator: the
// address and where it came from (auto's detection only), or a
// *MissingError, *ConflictError, *FieldError or *DetectError. detect finds
// an address of a family (auto). Auto detects only when the overlay names
// no address of its own: its own beats a guess.
func Resolve(g Given, detect func(Family) (Detection, error)) (Detection, error) {
	flag := g.Flag.Unmap()
	if g.Auto {
		flag = netip.Addr{}
		if g.Spec == "" && g.Enabled {
			det, err := detect(g.Family.primary())
			if err != nil {
				return det, &DetectError{Err: err}
			}
			return det, nil
		}
	}
	ip, err := resolve(flag, g)
	det := Detection{Addr: ip}
	if g.Auto { // the address, if any, is the overlay's own
		det.Source = "the overlay's spec.bootstrapIP (auto detects only when the overlay names none)"
	}
	return det, err
}

// resolve is Resolve once the flag is known: the flag's address alone is
// checked against the config's family; the config's own address is parsed
// once (settle), and then only its family is checked.
func resolve(flag netip.Addr, g Given) (netip.Addr, error) {
	if g.Spec == "" {
		if !flag.IsValid() && g.Enabled {
			return flag, &MissingError{Overlay: g.Overlay}
		}
		return checkFlag(flag, g.Family)
	}
	ip, err := settle(flag, g)
	switch {
	case err != nil:
		return ip, err
	case !ip.IsValid():
		_, err := Validate(g.Spec, g.Family) // the overlay's own address is unusable: say why
		return ip, &FieldError{Field: specField, Err: AsError(err)}
	}
	field := FlagField
	if !flag.IsValid() {
		field = specField
	}
	if err := CheckFamily(ip, g.Family); err != nil {
		return netip.Addr{}, &FieldError{Field: field, Err: AsError(err)}
	}
	return ip, nil
}

// checkFlag applies Validate's rules to the flag's address, which the CLI
// checked as it read the flag but any other caller may not have, against
// the family the flag could not know. The zero Addr passes as it is.
func checkFlag(flag netip.Addr, fam Family) (netip.Addr, error) {
	if !flag.IsValid() {
		return flag, nil
	}
	if err := Check(flag, fam); err != nil {
		return netip.Addr{}, &FieldError{Field: FlagField, Err: AsError(err)}
	}
	return flag, nil
}

// Settled is an address decided before the build (render's Resolve) and
// what it was decided against, handed to the build as one value: From says
// where the address came from when not from --bootstrap-ip (see
// ConflictError), Spec is the spec.bootstrapIP text Resolve read (the
// overlay's first config's own, or ""). A config whose own text is Spec
// takes Addr as it is, neither parsed nor settled again; only another
// config naming another address is settled against it (Settle).
type Settled struct {
	Addr netip.Addr
	From string
	Spec string
}

// For is the address config g generates with, given the address settled
// before the build: g's Flag and From are the settled ones.
func (s Settled) For(g Given) (netip.Addr, error) {
	if !g.Enabled {
		return netip.Addr{}, nil
	}
	if s.Addr.IsValid() && g.Spec == s.Spec {
		return s.Addr, nil
	}
	g.Flag, g.From = s.Addr, s.From
	return Settle(g)
}
