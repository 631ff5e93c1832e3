package bundlediff

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// argEntry is one item of an argument list with the key it is matched by:
// the flag's name (with #n for repeats), the flag whose value it is, or its
// position among positionals.
type argEntry struct {
	key, sel string
	raw      string
}

// argvFields are a container's command and args, read together as one
// command line the way the program they start reads it (proxyversion.Running): an
// ANP flag given as --name=value or as --name value, by its long name or its
// shorthand, is matched by its long name either way.
var argvFields = map[string]int{"command": 0, "args": 1}

// containerArgv reads a container's command and args (lists of strings, or
// absent) as one command line and returns the entries of each list.
func containerArgv(c map[string]any) ([2][]argEntry, bool) {
	var lists [2][]string
	for i, field := range []string{"command", "args"} {
		v, present := c[field]
		if !present {
			continue
		}
		items, ok := v.([]any)
		if !ok {
			return [2][]argEntry{}, false
		}
		for _, it := range items {
			s, ok := it.(string)
			if !ok {
				return [2][]argEntry{}, false
			}
			lists[i] = append(lists[i], s)
		}
	}
	if lists[0] == nil && lists[1] == nil {
		return [2][]argEntry{}, false
	}
	command := lists[0]
	if command == nil {
		command = []string{""} // the image's entrypoint, unknown here
	}
	argv := append(append([]string{}, command...), lists[1]...)
	all := argvEntries(proxyversion.Newest.Running(argv), argv)
	n := len(command)
	return [2][]argEntry{numberPositionals(all[:len(lists[0])]), numberPositionals(all[n:])}, true
}

// argList reads a list of strings that is not a container's command line
// (a flag list elsewhere) as the arguments of an unknown program.
func argList(items []any) []argEntry {
	argv := []string{""}
	for _, it := range items {
		argv = append(argv, it.(string))
	}
	return numberPositionals(argvEntries(proxyversion.AnyProgram, argv)[1:])
}

// argvEntries keys every entry of argv as bin.Parse reads it; positionals
// are numbered later, per list.
func argvEntries(bin *proxyversion.Binary, argv []string) []argEntry {
	c := bin.Parse(argv)
	out := make([]argEntry, len(argv))
	for i, s := range argv {
		out[i] = argEntry{raw: s}
	}
	if c.End < len(argv) {
		out[c.End].key = "--"
	}
	count := map[string]int{}
	for _, u := range sortedUses(c) {
		written, _, _ := strings.Cut(argv[u.Arg], "=")
		key := written
		if _, known := bin.Flags[u.Name]; known {
			key = "--" + u.Name // -v and --v are one flag
		}
		count[key]++
		sel := written
		if n := count[key]; n > 1 {
			key, sel = fmt.Sprintf("%s#%d", key, n), fmt.Sprintf("%s#%d", written, n)
		}
		out[u.Arg].key, out[u.Arg].sel = key, sel
		if u.ValueArg != 0 {
			out[u.ValueArg].key = key + "="
		}
	}
	return out
}

// sortedUses are every flag of c in argv order.
func sortedUses(c *proxyversion.CommandLine) []proxyversion.Use {
	uses := slices.Concat(c.Uses, c.Unknown, c.Missing)
	slices.SortFunc(uses, func(a, b proxyversion.Use) int { return cmp.Compare(a.Arg, b.Arg) })
	return uses
}

// numberPositionals keys the entries that are no flag by their position
// among the list's positionals, and selects every entry that is no flag
// name by its index in the list.
func numberPositionals(entries []argEntry) []argEntry {
	pos := 0
	for i := range entries {
		e := &entries[i]
		if e.key == "" {
			e.key = fmt.Sprintf("#pos%d", pos)
			pos++
		}
		if e.sel == "" {
			e.sel = strconv.Itoa(i)
		}
	}
	return entries
}

// diffFlags matches flags by name, so a changed value is one change and a
// reordering is none; positional arguments match by position.
func diffFlags(p path, ea, eb []argEntry, out *[]Change) {
	byKey := map[string]argEntry{}
	for _, e := range eb {
		byKey[e.key] = e
	}
	inA := map[string]bool{}
	for _, e := range ea {
		inA[e.key] = true
		if m, ok := byKey[e.key]; !ok {
			*out = append(*out, Change{Op: opRemove, Path: p.item(e.sel).String(), Old: e.raw})
		} else if m.raw != e.raw {
			*out = append(*out, Change{Op: opChange, Path: p.item(m.sel).String(), Old: e.raw, New: m.raw})
		}
	}
	for _, e := range eb {
		if !inA[e.key] {
			*out = append(*out, Change{Op: opAdd, Path: p.item(e.sel).String(), New: e.raw})
		}
	}
}
