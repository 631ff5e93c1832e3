package kustbuild

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/types"
)

// remoteWalk collects the remote entries of a kustomization and of every
// local kustomization and plugin config file it includes, read through the
// build's own filesystem (guardedRead: capped, YAML-guarded), so the walk
// reads what the build would read, before the build fetches or runs
// anything.
type remoteWalk struct {
	f    *fnFS
	seen map[string]bool // kustomization directories walked, resolved
	refs []RemoteRef
}

// refuseRemote walks the kustomization in dir; a remote entry anywhere is a
// RemoteError naming every one. The embedded tree is ours and names none.
func (f *fnFS) refuseRemote(dir string) error {
	if f.immutable {
		return nil
	}
	w := &remoteWalk{f: f, seen: map[string]bool{}}
	if err := w.dir(dir, false); err != nil {
		return err
	}
	if len(w.refs) > 0 {
		return &RemoteError{Refs: w.refs}
	}
	return nil
}

// dir walks the kustomization in dir. plugins: its resources are plugin
// configs (it is listed under generators, transformers or validators).
func (w *remoteWalk) dir(dir string, plugins bool) error {
	confirmed, _, err := w.f.FileSystem.CleanedAbs(dir)
	if err != nil || w.seen[confirmed.String()] {
		return nil // kustomize reports a directory it cannot resolve
	}
	w.seen[confirmed.String()] = true
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		file := filepath.Join(dir, name)
		if !w.f.FileSystem.Exists(file) || w.f.FileSystem.IsDir(file) {
			continue
		}
		if err := w.kustomization(dir, file, plugins); err != nil {
			return err
		}
	}
	return nil
}

// kustomization walks one kustomization file: its own remote entries, then
// the local directories and plugin config files it names.
func (w *remoteWalk) kustomization(dir, file string, plugins bool) error {
	k, err := w.f.readKustomization(file)
	if err != nil || k == nil {
		return err
	}
	w.refs = append(w.refs, remoteRefs(file, k)...)
	for _, r := range kustomizationRefs(k) {
		plugin := isPluginField(r.field)
		included := plugin || r.field == "resources" || r.field == "bases" || r.field == "components"
		if !included || remoteShape(r.entry) != "" {
			continue
		}
		if err := w.entry(dir, r, plugin || plugins); err != nil {
			return err
		}
	}
	return nil
}

// entry follows one local entry: a directory is walked, a plugin config
// file is read for the paths its plugin loads.
func (w *remoteWalk) entry(dir string, r listedRef, plugin bool) error {
	if plugin && strings.Contains(strings.TrimSpace(r.entry), "\n") {
		return nil // an inline config, which remoteRefs judged with its kustomization
	}
	path := r.entry
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if w.f.FileSystem.IsDir(path) {
		return w.dir(path, plugin)
	}
	if !plugin || !w.f.FileSystem.Exists(path) || !insideDir(dir, path) {
		return nil // kustomize refuses a file outside dir (OutsideFileError)
	}
	data, err := w.f.guardedRead(path)
	if err != nil {
		return guardRefusal(err)
	}
	for _, c := range parseConfigs(data) {
		w.refs = append(w.refs, pluginRefs(path, r.field, c)...)
	}
	return nil
}

// readKustomization decodes a kustomization file as kustomize does
// (types.Kustomization.Unmarshal: YAML to JSON, keys matched as
// encoding/json matches them); nil when it does not decode, which
// kustomize reports in its own words.
func (f *fnFS) readKustomization(file string) (*types.Kustomization, error) {
	data, err := f.guardedRead(file)
	if err != nil {
		return nil, guardRefusal(err)
	}
	var k types.Kustomization
	if err := k.Unmarshal(data); err != nil {
		return nil, nil
	}
	return &k, nil
}

// guardRefusal keeps the errors the guard raises (a file over its cap, a
// YAML bomb), which fail the build anyway, and drops the rest, which
// kustomize reports in context.
func guardRefusal(err error) error {
	if errors.As(err, new(*yamlguard.Error)) || errors.Is(err, inputread.ErrTooLarge) {
		return err
	}
	return nil
}
