package tracefile

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// traces is ../shared/traces beside the repository.
var traces = filepath.Join("..", "..", "..", "..", "shared", "traces")

func open(t *testing.T, rel string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(traces, rel))
	if err != nil {
		t.Fatalf("the shared trace is required: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// readShared reads the shared trace rel with read, failing t on an error.
func readShared[J any](t *testing.T, rel string, read func(io.Reader) ([]J, error)) []J {
	t.Helper()
	jobs, err := read(open(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// TestSWIMRealTrace reads the SWIM Facebook 2009 day: 5,894 jobs, 75.5 %
// of them map-only, submitted from 49 s to 86,404 s, the first three as
// the file's first lines say (../shared/traces/README.md §1).
func TestSWIMRealTrace(t *testing.T) {
	jobs := readShared(t, "swim-facebook/FB-2009_samples_24_times_1hr_0.tsv", ReadSWIM)
	mapOnly := 0
	for _, j := range jobs {
		if j.Shuffle == 0 {
			mapOnly++
		}
	}
	first := SWIMJob{ID: "job0", Submit: 49, Input: 740773, Shuffle: 2339561, Output: 627471}
	if len(jobs) != 5894 || jobs[0] != first || jobs[2].Submit != 122 || jobs[len(jobs)-1].Submit != 86404 {
		t.Fatalf("%d jobs, first %+v, third at %v, last at %v", len(jobs), jobs[0], jobs[2].Submit, jobs[len(jobs)-1].Submit)
	}
	if share := float64(mapOnly) / float64(len(jobs)); math.Abs(share-0.755) > 0.0005 {
		t.Errorf("map-only share %.4f, want 0.755", share)
	}
}

// TestSWIMMaps: ⌈input / split⌉, at least 1, capped.
func TestSWIMMaps(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		input, split int64
		limit, want  int
	}{
		{0, 128 * mib, 0, 1},
		{740773, 128 * mib, 0, 1},
		{128 * mib, 128 * mib, 0, 1},
		{128*mib + 1, 128 * mib, 0, 2},
		{7_500_000_000_000, 128 * mib, 0, 55880},
		{7_500_000_000_000, 128 * mib, 15, 15},
		{math.MaxInt64, 1, 0, math.MaxInt32},
		{math.MaxInt64, 2, 0, math.MaxInt32},
		{10, 0, 0, 10},
	} {
		if got := (SWIMJob{Input: c.input}).Maps(c.split, c.limit); got != c.want {
			t.Errorf("Maps(input %d, split %d, limit %d) = %d, want %d", c.input, c.split, c.limit, got, c.want)
		}
	}
}

// TestGoogleRealTrace reads the first task_events shard of
// clusterdata-2011-2: 914 jobs submitted after the window opened
// (../shared/traces/README.md §3), 589 of them with every task run from
// SCHEDULE to FINISH inside the shard.
func TestGoogleRealTrace(t *testing.T) {
	jobs := readShared(t, "google-clusterdata-2011/task_events-part-00000-of-00500.csv.gz", ReadGoogle)
	complete := 0
	for i, j := range jobs {
		if j.Finished == j.Tasks {
			complete++
		}
		if j.Tasks < 1 || j.Finished > j.Tasks || !(j.Submit > 0 && j.Submit < 5612) || j.Run < 0 || i > 0 && j.Submit < jobs[i-1].Submit {
			t.Fatalf("job %d: %+v", i, j)
		}
	}
	if len(jobs) != 914 || complete != 589 {
		t.Errorf("%d jobs, %d complete; want 914, 589", len(jobs), complete)
	}
}

// TestSWFRealTrace reads the KTH SP2 log: 27,992 jobs, none skipped
// (../shared/traces/README.md §5).
func TestSWFRealTrace(t *testing.T) {
	jobs, skipped, err := ReadSWF(open(t, "pwa-swf/KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 27992 || skipped != 0 {
		t.Errorf("%d jobs, %d skipped; want 27992, 0", len(jobs), skipped)
	}
}
