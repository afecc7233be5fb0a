package main

import (
	"slices"
	"testing"

	"github.com/schedkit/schedkit/adapters/kubesched/perf"
)

// TestBatchCells: the counts of a run, flushes most first and ties by
// name; a run without counts gives zeros and no flush.
func TestBatchCells(t *testing.T) {
	for _, c := range []struct {
		rec  perf.RunRecord
		want []string
	}{
		{perf.RunRecord{}, []string{"0", "0", "0", ""}},
		{perf.RunRecord{
			Batch:        map[string]float64{"hint_used": 12, "no_hint": 2088},
			BatchFlushes: map[string]float64{"pod_not_batchable": 2100, "expired": 3, "empty_list": 3},
		}, []string{"12", "0", "2088", "pod_not_batchable 2100, empty_list 3, expired 3"}},
	} {
		if got := batchCells(c.rec); !slices.Equal(got, c.want) {
			t.Errorf("batchCells(%+v) = %q, want %q", c.rec, got, c.want)
		}
	}
}
