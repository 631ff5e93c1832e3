package bundlemodel

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
)

// checkSeparators finds a top-level key that appears twice in one YAML
// document. Almost always that is two objects joined without a `---` line
// (cat a.yaml b.yaml); the YAML parser would otherwise report, or silently
// merge, duplicate keys and blame whichever object it was building.
func checkSeparators(stream []byte) error {
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), " \t\r")
		if text == "---" || strings.HasPrefix(text, "--- ") || text == "..." {
			clear(seen)
			continue
		}
		key, ok := topLevelKey(text)
		if !ok {
			continue
		}
		first, dup := seen[key]
		if !dup {
			seen[key] = line
			continue
		}
		if key == "apiVersion" || key == "kind" {
			return errors.New(yamlguard.JoinedDocuments(key, first, line))
		}
		return fmt.Errorf("line %d: top-level key %q appears twice in one YAML document (first at line %d); if two objects were joined, put '---' on its own line between them", line, key, first)
	}
	return sc.Err()
}

// topLevelKey returns the key of a block-mapping entry at column 0.
func topLevelKey(line string) (string, bool) {
	if line == "" || strings.ContainsAny(line[:1], " \t#-[{\"'|>%!&*") {
		return "", false
	}
	key, _, ok := strings.Cut(line, ":")
	if !ok || strings.ContainsAny(key, " \t") {
		return "", false
	}
	if rest := line[len(key)+1:]; rest != "" && rest[0] != ' ' {
		return "", false // a plain scalar such as http://x, not a key
	}
	return key, true
}
