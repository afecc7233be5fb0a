#!/usr/bin/env bash
# The CI slice of the scheduler_perf runs (package doc, doc.go): the
# workloads labelled ci (100 nodes) under the default, schedkit and
# leastworklost profiles, in one process, in SCHEDKIT_PERF_ROUNDS rounds
# (default 2) that alternate the profiles' order (round 1 default first,
# round 2 default last: -schedkit-rounds); it fails when the harness fails
# (a measured pod not scheduled in time, a workload's error) or when
# perftable -check finds a round's profile, a throughput or a schedkit
# plugin's figures missing, and prints the tables (the first: each
# workload's median ratio over the rounds and its range). It asserts no
# speed: the figures are for reading. Needs etcd on PATH
# (adapters/test-e2e.sh puts its own build there).
set -euo pipefail
cd "$(dirname "$0")"
rounds=${SCHEDKIT_PERF_ROUNDS:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go test -count=1 . ./cmd/perftable
echo "== scheduler_perf, label ci, $rounds rounds (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
if ! go test -run '^$' -bench BenchmarkPerfScheduling -benchtime 1x -timeout 40m . \
	-args -perf-scheduling-label-filter ci -schedkit-rounds "$rounds" -schedkit-runs "$out/runs.jsonl" \
	-data-items-dir "$out" >"$out/log" 2>&1; then
	grep -E '^(---|FAIL|panic)|Error|error running' "$out/log" | tail -40
	tail -20 "$out/log"
	exit 1
fi
echo "== done (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
go run ./cmd/perftable -check "$out"/BenchmarkPerfScheduling_benchmark_*.json
go run ./cmd/perftable -runs "$out/runs.jsonl" "$out"/BenchmarkPerfScheduling_benchmark_*.json
