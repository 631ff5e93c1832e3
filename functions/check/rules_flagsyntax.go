package check

import (
	"sort"
	"strconv"
	"strings"
	"time"
)

// checkFlagSyntax: flags the binary does not have (unknown-flag) and values it
// cannot parse (flag-value-invalid); either makes the binary exit at start.
func checkFlagSyntax(w *workload, bin *binary, r *report) {
	ref := w.obj.ref()
	for _, u := range w.flags.unknown {
		fix := "remove it or correct the spelling"
		if norm := strings.ReplaceAll(u.Name, "_", "-"); norm != u.Name {
			if _, ok := bin.flags[norm]; ok {
				fix = "write --" + norm + " (ANP turns klog's underscores into dashes)"
			}
		}
		r.errorf("unknown-flag", ref, u.Field, fix,
			"%s has no flag --%s and exits with `unknown flag`", bin.name, strings.TrimPrefix(u.Name, "-"))
	}
	for _, u := range w.flags.missing {
		r.errorf("flag-value-invalid", ref, u.Field, "write --"+u.Name+"=VALUE",
			"--%s needs a value and is the last argument", u.Name)
	}
	names := append([]string(nil), w.flags.order...)
	sort.Strings(names)
	for _, name := range names {
		u := w.flags.last[name]
		if msg := parseError(bin.flags[name], u.Value); msg != "" {
			r.errorf("flag-value-invalid", ref, u.Field, "give --"+name+" a valid value",
				"--%s=%q is not %s; %s refuses to start", name, u.Value, msg, bin.name)
		}
	}
}

// parseError returns what a value should have been, or "" when pflag accepts it.
func parseError(kind flagKind, v string) string {
	var err error
	switch kind {
	case kindBool:
		_, err = strconv.ParseBool(v)
		return ifErr(err, "a boolean")
	case kindInt:
		_, err = strconv.ParseInt(v, 0, 64)
		return ifErr(err, "an integer")
	case kindDuration:
		_, err = time.ParseDuration(v)
		return ifErr(err, "a duration (like 30s)")
	case kindFloat:
		_, err = strconv.ParseFloat(v, 32)
		return ifErr(err, "a number")
	}
	return ""
}

func ifErr(err error, what string) string {
	if err != nil {
		return what
	}
	return ""
}

// intFlag returns an int flag's value (def when absent) and whether it parsed.
func intFlag(s *flagSet, name string, def int) (int, bool) {
	u, ok := s.get(name)
	if !ok {
		return def, true
	}
	n, err := strconv.ParseInt(u.Value, 0, 64)
	return int(n), err == nil
}

// durationFlag returns a duration flag's value (def when absent) and whether it parsed.
func durationFlag(s *flagSet, name string, def time.Duration) (time.Duration, bool) {
	u, ok := s.get(name)
	if !ok {
		return def, true
	}
	d, err := time.ParseDuration(u.Value)
	return d, err == nil
}
