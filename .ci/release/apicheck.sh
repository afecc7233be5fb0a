#!/usr/bin/env bash
# The core module's exported API against its last release, with
# golang.org/x/exp/cmd/apidiff (a tool of this directory's module):
#
#   bash .ci/release/apicheck.sh           print the report
#   bash .ci/release/apicheck.sh -record   record the tree's API as the baseline
#
# The last release is the highest core tag vX.Y.Z (adapters' tags are
# adapters/<name>/vX.Y.Z); until the first, the baseline recorded in
# api/baseline (apidiff's export data of every non-internal package of the
# core) at the commit named in api/baseline.commit. The report lists every
# incompatible change, then the compatible ones. At major version 0 it is
# information (exit 0); from v1.0.0 an incompatible change fails the check.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
core=github.com/schedkit/schedkit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -C "$here" -o "$tmp/apidiff" golang.org/x/exp/cmd/apidiff

# apidiff notes each internal package it leaves out on stderr; anything
# else there is an error, printed whole.
apidiff() {
	local rc=0
	"$tmp/apidiff" "$@" 2>"$tmp/stderr" || rc=$?
	grep -v '^Ignoring internal package ' "$tmp/stderr" >&2 || true
	return $rc
}

if [ "${1:-}" = -record ]; then
	(cd "$root" && apidiff -m -w "$here/api/baseline" "$core")
	git -C "$root" rev-parse HEAD >"$here/api/baseline.commit"
	echo "recorded the API of $core at $(cat "$here/api/baseline.commit") in $here/api/baseline"
	exit 0
fi

last=$(git -C "$root" tag --list 'v[0-9]*' --sort=-version:refname | head -n 1)
if [ -n "$last" ]; then
	mkdir "$tmp/base"
	git -C "$root" archive "$last" | tar -x -C "$tmp/base"
	(cd "$tmp/base" && apidiff -m -w "$tmp/old" "$core")
	old=$tmp/old
	against="release $last"
else
	old=$here/api/baseline
	against="the baseline recorded at $(cat "$here/api/baseline.commit") (no release tag yet)"
fi
report=$(cd "$root" && apidiff -m "$old" "$core")
echo "API of $core against $against:"
if [ -z "$report" ]; then
	echo "no change"
	exit 0
fi
echo "$report"
major=${last#v}
major=${major%%.*}
if [ "${major:-0}" -ge 1 ] && grep -q '^Incompatible changes:' <<<"$report"; then
	echo "apicheck: incompatible changes in major version $major: they need a new major version (module path $core/v$((major + 1)))"
	exit 1
fi
[ "${major:-0}" -ge 1 ] || echo "(major version 0: information only)"
