#!/usr/bin/env bash
# Real-tier tests of the adapters: builds a real kube-apiserver and etcd from
# the Go module proxy (no binary downloads) into a cache directory once, then
# runs, in every adapter module (adapters/*/go.mod), the packages that have
# tests with the build tag e2e, with KUBEBUILDER_ASSETS pointing at that
# directory, and Hadoop's ResourceManager running for the YARN adapter
# (adapters/yarn/minirm). (The other packages' tests are the fast tier, run
# by CI first.)
#
#   bash adapters/test-e2e.sh            build (if needed) and test
#   bash adapters/test-e2e.sh -build     only build the binaries
#
# SCHEDKIT_E2E_CACHE sets the cache directory (default
# $HOME/.cache/schedkit-e2e). The binaries are rebuilt when the pinned
# versions below change. A cold build takes about 8 minutes on two cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

K8S_VERSION=v1.37.2     # k8s.io/kubernetes; staging modules at v0.37.2
STAGING_VERSION=v0.37.2
ETCD_VERSION=v3.7.0     # go.etcd.io/etcd/server/v3

cache=${SCHEDKIT_E2E_CACHE:-$HOME/.cache/schedkit-e2e}
assets=$cache/bin-$K8S_VERSION-etcd-$ETCD_VERSION

build_apiserver() {
	local dir=$cache/src-apiserver
	rm -rf "$dir" && mkdir -p "$dir"
	cd "$dir"
	go mod init schedkit.local/e2e-apiserver >/dev/null 2>&1
	go mod download -json "k8s.io/kubernetes@$K8S_VERSION" >/dev/null
	local kmod
	kmod=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
	# Every staging module kubernetes' own go.mod replaces with ./staging/src.
	local mods
	mods=$(sed -n 's#^[[:space:]]*\(k8s.io/[^[:space:]]*\) => ./staging/src/.*#\1#p' "$kmod")
	{
		echo
		echo "require k8s.io/kubernetes $K8S_VERSION"
		for m in $mods; do echo "replace $m => $m $STAGING_VERSION"; done
	} >>go.mod
	printf 'package main\n\nimport _ "k8s.io/kubernetes/cmd/kube-apiserver"\n' >tools.go
	GOFLAGS=-mod=mod go mod tidy >/dev/null
	go build -trimpath -o "$assets/kube-apiserver.tmp" \
		-ldflags "-X k8s.io/component-base/version.gitVersion=$K8S_VERSION" \
		k8s.io/kubernetes/cmd/kube-apiserver
	mv "$assets/kube-apiserver.tmp" "$assets/kube-apiserver"
}

build_etcd() {
	local dir=$cache/src-etcd
	rm -rf "$dir" && mkdir -p "$dir"
	cd "$dir"
	go mod init schedkit.local/e2e-etcd >/dev/null 2>&1
	cat >main.go <<'GO'
// Command etcd is etcd's own server entry point, built from the module proxy.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
	GOFLAGS=-mod=mod go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >/dev/null 2>&1
	GOFLAGS=-mod=mod go mod tidy >/dev/null
	go build -trimpath -o "$assets/etcd.tmp" .
	mv "$assets/etcd.tmp" "$assets/etcd"
}

mkdir -p "$assets"
if [ ! -x "$assets/etcd" ]; then
	echo "== building etcd $ETCD_VERSION into $assets"
	(build_etcd)
fi
if [ ! -x "$assets/kube-apiserver" ]; then
	echo "== building kube-apiserver $K8S_VERSION into $assets (cold: ~8 min)"
	(build_apiserver)
fi
"$assets/kube-apiserver" --version
"$assets/etcd" --version | sed -n 1p # sed reads it all: no SIGPIPE under pipefail
export KUBEBUILDER_ASSETS=$assets

# YARN: Hadoop's own ResourceManager (MiniYARNCluster) for adapters/yarn's
# real tier, built with Maven (cached in ~/.m2) and started here; stopped
# when this script exits. A cluster that cannot start fails the run.
bash "$here/yarn/minirm/minirm.sh" build
if [ "${1:-}" = "-build" ]; then
	exit 0
fi
yarn_env=$(bash "$here/yarn/minirm/minirm.sh" start)
trap 'bash "$here/yarn/minirm/minirm.sh" stop' EXIT
eval "$yarn_env"

# The packages of a module that the e2e tag changes: those with real-tier
# test files. The others' tests are the fast tier, which CI runs already.
e2e_packages() {
	local f='{{.ImportPath}} {{join .TestGoFiles ","}} {{join .XTestGoFiles ","}}'
	comm -13 <(go list -f "$f" ./... | sort) <(go list -tags e2e -f "$f" ./... | sort) | cut -d' ' -f1 | sort -u
}

status=0
for mod in "$here"/*/go.mod; do
	dir=$(dirname "$mod")
	name=$(basename "$dir")
	pkgs=$(cd "$dir" && e2e_packages) || { status=1; continue; }
	if [ -z "$pkgs" ]; then
		echo "== $name: no real-tier tests (build tag e2e)"
		continue
	fi
	echo "== $name: go test -tags e2e -timeout 30m" $pkgs
	# The YARN replay runs two fresh clusters one after the other: more
	# than go test's default 10 minutes on a busy machine.
	# shellcheck disable=SC2086 # one argument per package
	(cd "$dir" && go test -tags e2e -count=1 -timeout 30m $pkgs) || status=1
done
exit $status
