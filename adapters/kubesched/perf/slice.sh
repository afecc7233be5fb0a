#!/usr/bin/env bash
# The CI slice of the scheduler_perf runs (package doc, doc.go): the
# workloads labelled ci (100 nodes) under the default, schedkit and
# leastworklost profiles, in one process; it fails when the harness fails
# (a measured pod not scheduled in time, a workload's error) or when
# perftable -check finds a profile, a throughput or a schedkit plugin's
# figures missing, and prints the tables. It asserts no speed: the figures
# are for reading. Needs etcd on PATH (adapters/test-e2e.sh puts its own
# build there).
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go test -count=1 ./cmd/perftable
echo "== scheduler_perf, label ci (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
if ! go test -run '^$' -bench BenchmarkPerfScheduling -benchtime 1x -timeout 20m . \
	-args -perf-scheduling-label-filter ci -data-items-dir "$out" >"$out/log" 2>&1; then
	grep -E '^(---|FAIL|panic)|Error|error running' "$out/log" | tail -40
	tail -20 "$out/log"
	exit 1
fi
go run ./cmd/perftable -check "$out"/BenchmarkPerfScheduling_benchmark_*.json
go run ./cmd/perftable "$out"/BenchmarkPerfScheduling_benchmark_*.json
