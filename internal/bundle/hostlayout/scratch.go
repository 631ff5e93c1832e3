package hostlayout

import (
	"crypto/rand"
	"encoding/hex"
	"path"
	"strings"
)

// Render's scratch names: the hidden names a file is written to before it
// is renamed into place, or kept under while it is replaced. They are names
// both sides agree on, not file operations: the writers make them, and a
// state or journal entry may never be one (CheckPlacement).

// TempName is the hidden name a new version of rel is written to first.
func TempName(rel string) string { return hidden(rel, "kb-tmp") }

// BackupName is the hidden name the old version of rel is kept under.
func BackupName(rel string) string { return hidden(rel, "kb-bak") }

// StagedName is the hidden name, holding StagedMark, a directory tree is
// built (or torn down) under before it is renamed into place (or removed).
func StagedName(rel string) string {
	return path.Join(path.Dir(rel), "."+path.Base(rel)+StagedMark+randomSuffix())
}

func hidden(rel, kind string) string {
	dir, base := path.Split(rel)
	return path.Join(dir, "."+base+"."+kind+"-"+randomSuffix())
}

// randomSuffix keeps two runs' scratch names of one path apart.
func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// IsScratch reports whether a file name is one of the hidden names above.
func IsScratch(name string) bool {
	return strings.HasPrefix(name, ".") && (strings.Contains(name, ".kb-tmp-") || strings.Contains(name, ".kb-bak-"))
}
