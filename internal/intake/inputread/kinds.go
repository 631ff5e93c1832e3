package inputread

import "io/fs"

// kindNames says what a path is, for errors: the one table of file kinds,
// which every reader that refuses a kind names it by (hostfs under --root,
// kuberead for a kubeconfig, kustbuild for a kustomization's file).
var kindNames = map[fs.FileMode]string{
	fs.ModeSymlink:                    "a symbolic link",
	fs.ModeNamedPipe:                  "a FIFO (named pipe)",
	fs.ModeDevice:                     "a block device",
	fs.ModeDevice | fs.ModeCharDevice: "a character device",
	fs.ModeSocket:                     "a socket",
	fs.ModeDir:                        "a directory",
	0:                                 "a regular file",
}

// KindName names a file's type: "a FIFO (named pipe)", "a symbolic link", ...
func KindName(m fs.FileMode) string {
	if s, ok := kindNames[m.Type()]; ok {
		return s
	}
	return "a special file (" + m.Type().String() + ")"
}
