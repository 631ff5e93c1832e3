package kustbuild

import (
	"regexp"
	"strings"
)

// The shapes kustomize's loader (api v0.21.2) takes for something to fetch
// rather than a path in the tree: FileLoader.Load downloads an http or https
// URL, and FileLoader.New (resources, bases, components, generators,
// transformers, validators) clones whatever git.NewRepoSpecFromURL parses,
// by running git, before it looks for a local directory of that name.
// remoteShape is a superset of both: where kustomize's parse is narrow (a
// github.com path of one segment, a scheme it does not clone) it refuses
// too, since a local path of that shape is not worth the doubt.
// TestRemoteShapesMatchKustomize runs kustomize itself on each shape.
var (
	// urlScheme is any URL scheme with "//" (ssh://, file://, ftp://) and
	// http or https with or without it (url.Parse("https:x") is a URL).
	urlScheme = regexp.MustCompile(`^(?i)([a-z][a-z0-9+.-]*://|https?:)`)
	// scpUser is NewRepoSpecFromURL's user@ of an scp-style git@host:path.
	scpUser = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]*@`)
)

// remoteShape says why kustomize would fetch entry instead of reading it
// from the tree ("" when it would not).
func remoteShape(entry string) string {
	s := strings.TrimSpace(entry) // kustomize would keep a block scalar's newline in a clone URL
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "git::"):
		return "a go-getter git:: URL, which kustomize clones with git"
	case strings.HasPrefix(lower, "http://"), strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "http:"), strings.HasPrefix(lower, "https:"):
		return "a URL kustomize downloads, or clones with git"
	case strings.HasPrefix(lower, "ssh://"):
		return "an ssh URL, which kustomize clones with git over ssh"
	case strings.HasPrefix(lower, "file://"):
		return "a file:// URL, which kustomize clones with git"
	case urlScheme.MatchString(s):
		return "a URL, not a path in the tree"
	case strings.HasPrefix(lower, "github.com/"), strings.HasPrefix(lower, "github.com:"):
		return "a github.com repository, which kustomize clones with git before it looks for a local directory of that name"
	case scpGit(s):
		return "an scp-style git address (user@host:path), which kustomize clones with git over ssh"
	}
	return ""
}

// scpGit is NewRepoSpecFromURL's test for user@host:org/repo (or
// user@host/org/repo): a user, then a host, then a repository path of two
// segments or one that ends in .git. user@name with nothing after the host
// (a file called deploy@v2.yaml) is a local path to kustomize too.
func scpGit(s string) bool {
	s, _, _ = strings.Cut(s, "?")
	user := scpUser.FindString(s)
	if user == "" {
		return false
	}
	rest := s[len(user):]
	sep := strings.IndexAny(rest, "/:")
	if sep < 0 {
		return false
	}
	path := rest[sep+1:]
	return strings.Contains(path, "/") || strings.Contains(path, ".git")
}
