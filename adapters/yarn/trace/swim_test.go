package trace

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestSWIMRealTrace reads the SWIM Facebook 2009 day: 5,894 jobs, 75.5 %
// of them map-only, submitted from 49 s to 86,404 s, the first three as
// the file's first lines say (../shared/traces/README.md §1).
func TestSWIMRealTrace(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(slsData, "..", "swim-facebook", "FB-2009_samples_24_times_1hr_0.tsv"))
	if err != nil {
		t.Fatalf("the shared trace is required: %v", err)
	}
	jobs, err := ReadSWIM(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
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

// TestSWIMBadInput: every malformed line is an error naming its line and
// field.
func TestSWIMBadInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"job0\t1\t1\t2\t3", "swim job 1: 5 tab-separated fields"},
		{"\n\t1\t1\t2\t3\t4", "swim job 2: new_unique_job_id: empty"},
		{"j\tx\t1\t2\t3\t4", `submit_time_seconds: "x" is not a finite number`},
		{"j\t-1\t1\t2\t3\t4", `submit_time_seconds: "-1"`},
		{"j\tNaN\t1\t2\t3\t4", `submit_time_seconds: "NaN"`},
		{"j\t+Inf\t1\t2\t3\t4", `submit_time_seconds: "+Inf"`},
		{"j\t1\t1\t2.5\t3\t4", `map_input_bytes: "2.5" is not an integer`},
		{"j\t1\t1\t2\t-3\t4", `shuffle_bytes: "-3"`},
		{"j\t1\t1\t2\t3\t99999999999999999999", `reduce_output_bytes: "99999999999999999999"`},
		{"j\t1\t1\t2\t3\t" + strings.Repeat("4", 2<<20), "swim job 1: bufio.Scanner: token too long"},
	} {
		_, err := ReadSWIM(strings.NewReader(c.in))
		if err == nil || !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// propSWIM: any bytes give an error matching ErrBadRecord or jobs with an
// ID, a finite submit time ≥ 0 and byte counts ≥ 0, whose map count is in
// [1, limit].
func propSWIM(t *rapid.T) {
	b := rapid.OneOf(traceBytes(), rapid.Custom(func(t *rapid.T) []byte {
		fields := rapid.SliceOfN(rapid.SampledFrom([]string{"job1", "", "0", "12.5", "-1", "NaN", "7500000000000", "x"}), 0, 7).Draw(t, "fields")
		return []byte(strings.Join(fields, "\t"))
	})).Draw(t, "input")
	jobs, err := ReadSWIM(bytes.NewReader(b))
	if err != nil {
		if !errors.Is(err, ErrBadRecord) {
			t.Fatalf("error %v does not match ErrBadRecord", err)
		}
		return
	}
	limit := rapid.IntRange(0, 100).Draw(t, "limit")
	for _, j := range jobs {
		if j.ID == "" || !(j.Submit >= 0) || math.IsInf(j.Submit, 0) || j.Input < 0 || j.Shuffle < 0 || j.Output < 0 {
			t.Fatalf("invalid job %+v", j)
		}
		if m := j.Maps(128<<20, limit); m < 1 || (limit > 0 && m > limit) {
			t.Fatalf("%+v: %d maps with limit %d", j, m, limit)
		}
	}
}

func TestPropSWIM(t *testing.T) { rapid.Check(t, propSWIM) }
func FuzzSWIM(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propSWIM)) }
