# shellcheck shell=bash
# The components of the simulated cluster, built from the Go module proxy (no
# binary downloads) into a cache directory, one directory per pinned version:
# a component is rebuilt only when its version below changes. Sourced by
# adapters/cluster/up.sh and adapters/test-e2e.sh; call components_build with
# the names wanted (or none for all).
#
#   etcd                    go.etcd.io/etcd/server/v3 (etcdmain)
#   kube-apiserver          k8s.io/kubernetes/cmd/..., all four from one
#   kube-controller-manager   module whose go.mod requires k8s.io/kubernetes
#   kube-scheduler            and pins every staging module, as kubernetes'
#   kubectl                   own go.mod replaces them with ./staging/src
#   kwok                    go install sigs.k8s.io/kwok/cmd/kwok@version
#   kueue                   go install sigs.k8s.io/kueue/cmd/kueue@version
#                           (its own dependency pins), with the module's
#                           CRDs (crd/) and webhook kustomization (webhook/)
#                           from its config/components
#
# SCHEDKIT_E2E_CACHE sets the cache directory (default
# $HOME/.cache/schedkit-e2e). Cold, on two idle cores, the Kubernetes four
# take about 12 minutes, Kueue about 5, kwok about 2, etcd about 1.

K8S_VERSION=v1.37.2 # k8s.io/kubernetes; staging modules at STAGING_VERSION
STAGING_VERSION=v0.37.2
ETCD_VERSION=v3.7.0 # go.etcd.io/etcd/server/v3
KWOK_VERSION=v0.8.0
KUEUE_VERSION=v0.19.2

COMPONENTS_CACHE=${SCHEDKIT_E2E_CACHE:-$HOME/.cache/schedkit-e2e}
K8S_BIN=$COMPONENTS_CACHE/kubernetes-$K8S_VERSION
ETCD_BIN=$COMPONENTS_CACHE/etcd-$ETCD_VERSION
KWOK_BIN=$COMPONENTS_CACHE/kwok-$KWOK_VERSION
KUEUE_BIN=$COMPONENTS_CACHE/kueue-$KUEUE_VERSION
# KUBEBUILDER_ASSETS for envtest: kube-apiserver and etcd side by side.
ASSETS_BIN=$COMPONENTS_CACHE/assets-$K8S_VERSION-etcd-$ETCD_VERSION

# components_path NAME prints where the binary NAME is kept.
components_path() {
	case $1 in
	etcd) echo "$ETCD_BIN/etcd" ;;
	kube-apiserver | kube-controller-manager | kube-scheduler | kubectl) echo "$K8S_BIN/$1" ;;
	kwok) echo "$KWOK_BIN/kwok" ;;
	kueue) echo "$KUEUE_BIN/kueue" ;;
	*)
		echo "components: unknown component $1" >&2
		return 1
		;;
	esac
}

_components_build_kubernetes() { # $1: the command to build
	local dir=$COMPONENTS_CACHE/src-kubernetes-$K8S_VERSION
	if [ ! -f "$dir/.tidy" ]; then
		rm -rf "$dir" && mkdir -p "$dir"
		(
			cd "$dir"
			go mod init schedkit.local/kubernetes >/dev/null 2>&1
			local kmod mods
			kmod=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
			# Every staging module kubernetes' own go.mod replaces with ./staging/src.
			mods=$(sed -n 's#^[[:space:]]*\(k8s.io/[^[:space:]]*\) => ./staging/src/.*#\1#p' "$kmod")
			{
				echo
				echo "require k8s.io/kubernetes $K8S_VERSION"
				for m in $mods; do echo "replace $m => $m $STAGING_VERSION"; done
			} >>go.mod
			{
				printf 'package main\n\nimport (\n'
				for c in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
					printf '\t_ "k8s.io/kubernetes/cmd/%s"\n' "$c"
				done
				printf ')\n'
			} >tools.go
			GOFLAGS=-mod=mod go mod tidy >/dev/null
		) || return 1
		touch "$dir/.tidy"
	fi
	mkdir -p "$K8S_BIN"
	(cd "$dir" && go build -trimpath -o "$K8S_BIN/$1.tmp" \
		-ldflags "-X k8s.io/component-base/version.gitVersion=$K8S_VERSION" \
		"k8s.io/kubernetes/cmd/$1") || return 1
	mv "$K8S_BIN/$1.tmp" "$K8S_BIN/$1"
}

_components_build_etcd() {
	local dir=$COMPONENTS_CACHE/src-etcd-$ETCD_VERSION
	rm -rf "$dir" && mkdir -p "$dir" "$ETCD_BIN"
	(
		cd "$dir"
		go mod init schedkit.local/etcd >/dev/null 2>&1
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
		go build -trimpath -o "$ETCD_BIN/etcd.tmp" .
	) || return 1
	mv "$ETCD_BIN/etcd.tmp" "$ETCD_BIN/etcd"
}

_components_build_kwok() {
	mkdir -p "$KWOK_BIN/tmp"
	GOBIN=$KWOK_BIN/tmp go install "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION" || return 1
	mv "$KWOK_BIN/tmp/kwok" "$KWOK_BIN/kwok"
	rmdir "$KWOK_BIN/tmp"
}

# Kueue's manager with its own go.mod's pins (its batch/Job integration
# builds against those), and beside it what an install needs from the
# module: the CRDs and the webhook configurations of config/components.
_components_build_kueue() {
	mkdir -p "$KUEUE_BIN/tmp"
	# Kueue v0.19 requires a pseudo-version of sigs.k8s.io/scheduler-library
	# that the checksum database does not serve.
	GONOSUMDB=sigs.k8s.io/scheduler-library GOBIN=$KUEUE_BIN/tmp \
		go install "sigs.k8s.io/kueue/cmd/kueue@$KUEUE_VERSION" || return 1
	local src
	src=$(GONOSUMDB=sigs.k8s.io/scheduler-library go mod download -json "sigs.k8s.io/kueue@$KUEUE_VERSION" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
	rm -rf "$KUEUE_BIN/crd" "$KUEUE_BIN/webhook"
	cp -r "$src/config/components/crd/bases" "$KUEUE_BIN/crd"
	cp -r "$src/config/components/webhook" "$KUEUE_BIN/webhook"
	chmod -R u+w "$KUEUE_BIN/crd" "$KUEUE_BIN/webhook"
	mv "$KUEUE_BIN/tmp/kueue" "$KUEUE_BIN/kueue"
	rmdir "$KUEUE_BIN/tmp"
}

# components_build [NAME...] builds each named component (default: all)
# that the cache does not hold yet, one at a time, and links kube-apiserver
# and etcd into ASSETS_BIN. Concurrent callers wait for each other.
components_build() {
	local names=("$@")
	[ ${#names[@]} -gt 0 ] || names=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok kueue)
	mkdir -p "$COMPONENTS_CACHE"
	(
		if command -v flock >/dev/null; then
			flock 9
		fi
		for n in "${names[@]}"; do
			local bin
			bin=$(components_path "$n") || exit 1
			[ -x "$bin" ] && continue
			local t0=$SECONDS
			echo "== building $n into $(dirname "$bin")"
			case $n in
			etcd) _components_build_etcd ;;
			kwok) _components_build_kwok ;;
			kueue) _components_build_kueue ;;
			*) _components_build_kubernetes "$n" ;;
			esac || {
				echo "components: building $n failed" >&2
				exit 1
			}
			echo "== built $n in $((SECONDS - t0)) s"
		done
		if [ -x "$K8S_BIN/kube-apiserver" ] && [ -x "$ETCD_BIN/etcd" ]; then
			mkdir -p "$ASSETS_BIN"
			ln -sf "$K8S_BIN/kube-apiserver" "$ASSETS_BIN/kube-apiserver"
			ln -sf "$ETCD_BIN/etcd" "$ASSETS_BIN/etcd"
		fi
	) 9>"$COMPONENTS_CACHE/.lock"
}

# components_build_tree NAME OUT builds schedkit-deadline or
# schedkit-scheduler from this tree and copies it to OUT. It is linked in
# the cache (tree/NAME), where go build skips linking when nothing changed.
components_build_tree() {
	local name=$1 out=$2 repo mod ldflags=
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	case $name in
	schedkit-deadline) mod=kueue ;;
	schedkit-scheduler)
		mod=kubesched
		ldflags="-X k8s.io/component-base/version.gitVersion=$K8S_VERSION"
		;;
	*)
		echo "components: unknown schedkit command $name" >&2
		return 1
		;;
	esac
	mkdir -p "$COMPONENTS_CACHE/tree"
	(
		if command -v flock >/dev/null; then
			flock 9
		fi
		cd "$repo/adapters/$mod" &&
			go build -ldflags "$ldflags" -o "$COMPONENTS_CACHE/tree/$name" "./cmd/$name" &&
			cp "$COMPONENTS_CACHE/tree/$name" "$out"
	) 9>"$COMPONENTS_CACHE/.lock"
}
