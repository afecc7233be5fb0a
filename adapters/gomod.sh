#!/usr/bin/env bash
# Runs a go command that edits an adapter module's go.mod and go.sum (go get,
# go mod tidy) on its own, outside its workspace, as a user's build sees it:
#
#   bash adapters/gomod.sh adapters/kueue mod tidy
#   bash adapters/gomod.sh adapters/kueue get k8s.io/api@v0.36.2
#
# An adapter requires the core (and crosscheck the adapters it tests) at the
# version of its next release (RELEASING.md), which the module proxy does not
# serve before that release is tagged. The adapter's go.work replaces that
# version with the tree; go get and go mod tidy read go.mod alone, so for
# the length of the command this copies go.work's replace lines into go.mod,
# then removes them again, with the go.sum lines of the replaced modules
# (a hash of an untagged tree must never be committed).
set -euo pipefail
dir=${1:?usage: gomod.sh ADAPTER-DIR GO-ARGS...}
shift
cd "$dir"
[ -f go.work ] || {
	echo "gomod.sh: $dir has no go.work" >&2
	exit 1
}
# "replace PATH VERSION => DIR" lines of go.work, one a line or in a block.
mapfile -t reps < <(sed -n 's#^[[:space:]]*\(replace[[:space:]]\+\)\?\([^[:space:]()]\+\)[[:space:]]\+\(v[^[:space:]]\+\)[[:space:]]\+=>[[:space:]]\+\([^[:space:]]\+\)[[:space:]]*$#\2@\3=\4#p' go.work)
restore() {
	local r
	for r in "${reps[@]}"; do
		go mod edit -dropreplace="${r%%=*}"
		sed -i "\#^${r%%@*} #d" go.sum
	done
}
trap restore EXIT
for r in "${reps[@]}"; do
	go mod edit -replace="$r"
done
GOWORK=off GONOSUMDB=${GONOSUMDB:-sigs.k8s.io/scheduler-library} go "$@"
