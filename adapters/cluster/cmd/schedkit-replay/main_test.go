package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -summarize pools earlier runs' results and prints their tables without
// a cluster (run from any directory, no up.sh needed).
func TestSummarize(t *testing.T) {
	dir := t.TempDir()
	// Stock met the first of two Jobs, schedkit both: +1 in each run.
	const results = `[{"config":"stock","rep":1,"load":"2×","met":1,"outcomes":[
	  {"created":"2026-11-29T12:00:00Z","deadline":"2026-11-29T12:00:10Z","finished":"2026-11-29T12:00:05Z"},
	  {"created":"2026-11-29T12:00:00Z","deadline":"2026-11-29T12:00:10Z","finished":"2026-11-29T12:00:15Z"}]},
	 {"config":"schedkit","rep":1,"load":"2×","met":2,"outcomes":[
	  {"created":"2026-11-29T12:00:00Z","deadline":"2026-11-29T12:00:10Z","finished":"2026-11-29T12:00:05Z"},
	  {"created":"2026-11-29T12:00:00Z","deadline":"2026-11-29T12:00:10Z","finished":"2026-11-29T12:00:08Z"}]}]`
	var paths []string
	for _, n := range []string{"a.json", "b.json"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(results), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var out, errs strings.Builder
	if code := run([]string{"-cluster-dir", dir, "-summarize", strings.Join(paths, ",")}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{
		"  2    2×  schedkit              1                   0                 0                  1",
		"   2×  schedkit    2   +1.0   0.0      +1.0 to +1.0           +1.0  +1 +1",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	errs.Reset()
	if code := run([]string{"-summarize", filepath.Join(dir, "none.json")}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "none.json") {
		t.Errorf("a missing file: exit %d, %q", code, errs.String())
	}
}
