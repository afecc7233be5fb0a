package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/adapters/kubesched/perf"
)

// batchCells formats a run's opportunistic batching counts: the pods
// placed on a hint from the previous pod's cached results, the hints that
// failed their filters, the pods without a hint, and the cache flushes by
// reason (most first, then by name).
func batchCells(rec perf.RunRecord) []string {
	reasons := slices.SortedFunc(maps.Keys(rec.BatchFlushes), func(a, b string) int {
		return cmp.Or(cmp.Compare(rec.BatchFlushes[b], rec.BatchFlushes[a]), strings.Compare(a, b))
	})
	flushes := make([]string, len(reasons))
	for i, r := range reasons {
		flushes[i] = fmt.Sprintf("%s %.0f", r, rec.BatchFlushes[r])
	}
	return []string{
		fmt.Sprintf("%.0f", rec.Batch["hint_used"]),
		fmt.Sprintf("%.0f", rec.Batch["hint_not_used"]),
		fmt.Sprintf("%.0f", rec.Batch["no_hint"]),
		strings.Join(flushes, ", "),
	}
}

// printBatching prints each run's opportunistic batching counts (whole run:
// the initial pods and the measured ones); nothing when no record has
// any.
func printBatching(items []item, recs map[run]perf.RunRecord) {
	if !slices.ContainsFunc(slices.Collect(maps.Values(recs)), func(r perf.RunRecord) bool {
		return r.Batch != nil || r.BatchFlushes != nil
	}) {
		return
	}
	fmt.Println()
	fmt.Println("| workload | round | profile | pods on a batch hint | hints failing their filters | pods without a hint | cache flushes by reason |")
	fmt.Println("| --- | ---: | --- | ---: | ---: | ---: | --- |")
	for _, r := range runOrder(items) {
		rec, ok := recs[r]
		if !ok {
			continue
		}
		fmt.Printf("| %s | %d | %s | %s |\n", r.workload, r.round, r.profile, strings.Join(batchCells(rec), " | "))
	}
}
