package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/schedkit/schedkit/adapters/kubesched/perf"
)

// readRuns reads a -schedkit-runs file (perf.RunRecord lines) into each run's record. A line that
// is not a record, or one whose name is not a run, is an error naming the
// line.
func readRuns(path string) (map[run]perf.RunRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[run]perf.RunRecord{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var rec perf.RunRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		r := parse(rec.Name)
		if r.profile == "" {
			return nil, fmt.Errorf("%s:%d: name %q is no run", path, line, rec.Name)
		}
		out[r] = rec
	}
	return out, sc.Err()
}
