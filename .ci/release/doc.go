// Package release holds the checks that stand between the tree and a tag
// (RELEASING.md at the repository's root):
//
//   - TestInstallByVersion installs each command of the adapters that a user
//     can take by version (Kueue, YARN) the way a user would: go install
//     path@version in module mode, outside any workspace, from a module
//     proxy directory that serves the core and the adapter built from this
//     tree (WriteProxy) at the versions their go.mod files require.
//   - apicheck.sh compares the core's exported API with that of its last
//     release (the last v* tag; before the first, the baseline recorded in
//     api/) with golang.org/x/exp/cmd/apidiff, a tool of this module.
//
// It is a module of its own so that the tools it needs never enter the
// core's or an adapter's go.mod; its path is not served by any proxy.
package release
