#!/usr/bin/env bash
# Real-tier tests of the adapters: builds the components of the simulated
# cluster (kube-apiserver, etcd, kube-controller-manager, kube-scheduler,
# kubectl, kwok, Kueue; adapters/cluster/components.sh) from the Go module
# proxy (no binary downloads) into a cache directory once, then runs, in
# every adapter module (adapters/*/go.mod, in its workspace: the go.work
# beside it builds it with the core of this tree), the packages that have
# tests with the build tag e2e, with KUBEBUILDER_ASSETS pointing at kube-apiserver
# and etcd, and Hadoop's ResourceManager running for the YARN adapter
# (adapters/yarn/minirm). (The other packages' tests are the fast tier, run
# by CI first.)
#
#   bash adapters/test-e2e.sh            build (if needed) and test
#   bash adapters/test-e2e.sh -build     only build the binaries
#
# SCHEDKIT_E2E_CACHE sets the cache directory (default
# $HOME/.cache/schedkit-e2e). The binaries are rebuilt when the versions
# pinned in adapters/cluster/components.sh change. A cold build takes about
# 20 minutes on two cores.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# shellcheck source=cluster/components.sh
. "$here/cluster/components.sh"
components_build
"$(components_path kube-apiserver)" --version
"$(components_path etcd)" --version | sed -n 1p # sed reads it all: no SIGPIPE under pipefail
export KUBEBUILDER_ASSETS=$ASSETS_BIN

# YARN: Hadoop's own ResourceManager (MiniYARNCluster) for adapters/yarn's
# real tier, built with Maven (cached in ~/.m2) and started here; stopped
# when this script exits. A cluster that cannot start fails the run.
bash "$here/yarn/minirm/minirm.sh" build
if [ "${1:-}" = "-build" ]; then
	exit 0
fi
# The cluster tier's clusters (adapters/cluster/up.sh) keep their state in
# their tests' temporary directories: here under one directory of this run
# (TMPDIR of adapters/cluster's tests). A test binary stopped by its
# timeout runs no cleanup, so any cluster still up when this script exits
# is stopped by its pids there.
e2e_tmp=$(mktemp -d)
stop_clusters() {
	local p
	for p in "$e2e_tmp"/*/*/*/pids; do
		[ -d "$p" ] || continue
		echo "== stopping the cluster left in $(dirname "$p")"
		bash "$here/cluster/down.sh" -dir "$(dirname "$p")" || true
	done
	rm -rf "$e2e_tmp"
}
trap stop_clusters EXIT
yarn_env=$(bash "$here/yarn/minirm/minirm.sh" start)
trap 'bash "$here/yarn/minirm/minirm.sh" stop; stop_clusters' EXIT
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
	echo "== $name: go test -tags e2e -timeout 45m" $pkgs
	tmp=${TMPDIR:-/tmp}
	[ "$name" = cluster ] && tmp=$e2e_tmp
	# The YARN replay runs two fresh clusters one after the other: more
	# than go test's default 10 minutes on a busy machine.
	# shellcheck disable=SC2086 # one argument per package
	(cd "$dir" && TMPDIR=$tmp go test -tags e2e -count=1 -timeout 45m $pkgs) || status=1
done
# The replay's small slice (adapters/cluster/e2e TestReplay, build tag
# replay): 30 Jobs of the KTH day on two fresh clusters one after the
# other, asserting that at most 3 % of the admitted Jobs miss (about 4
# minutes).
echo "== cluster: go test -tags 'e2e replay' -run '^TestReplay\$' ./e2e"
(cd "$here/cluster" && TMPDIR=$e2e_tmp go test -tags 'e2e replay' -count=1 -timeout 20m -run '^TestReplay$' -v ./e2e) || status=1
# kube-scheduler's scheduler_perf on the schedkit plugins, 100 nodes (its own module).
PATH=$(dirname "$(components_path etcd)"):$PATH bash "$here/kubesched/perf/slice.sh" || status=1
exit $status
