package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestThesisScenario runs the default scenario and asserts the shape the
// issue asks for: TARA no worse than every heuristic and the best random
// candidate.
func TestThesisScenario(t *testing.T) {
	rep, err := run(config{Seed: 1, Random: 300, Evals: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range rep.Policies {
		names = append(names, p.Name)
		if !(p.CompletionS > 0) {
			t.Errorf("%s: completion %v", p.Name, p.CompletionS)
		}
	}
	want := []string{"RR-R", "RR-S", "H-1", "H-2", "random-best", "random-mean", "random-worst", "TARA"}
	if !slices.Equal(names, want) {
		t.Fatalf("policies %v, want %v", names, want)
	}
	tara := rep.completion("TARA")
	for _, n := range []string{"RR-R", "RR-S", "H-1", "H-2", "random-best"} {
		if !(tara <= rep.completion(n)) {
			t.Errorf("TARA %.1f s worse than %s %.1f s", tara, n, rep.completion(n))
		}
	}
	if b, m, w := rep.completion("random-best"), rep.completion("random-mean"), rep.completion("random-worst"); !(b <= m && m <= w) {
		t.Errorf("random best %v, mean %v, worst %v", b, m, w)
	}
	if len(rep.Random) != 300 || rep.Evaluations != 10_000 {
		t.Errorf("%d random candidates, %d evaluations", len(rep.Random), rep.Evaluations)
	}
	// The thesis's ordering of the extremes holds in the model too: RR-S is
	// the worst heuristic.
	for _, n := range []string{"RR-R", "H-1", "H-2"} {
		if !(rep.completion(n) < rep.completion("RR-S")) {
			t.Errorf("%s %.1f s not better than RR-S %.1f s", n, rep.completion(n), rep.completion("RR-S"))
		}
	}
	var text bytes.Buffer
	writeText(&text, rep)
	for _, n := range want {
		if !strings.Contains(text.String(), n) {
			t.Errorf("text output lacks %s:\n%s", n, text.String())
		}
	}
}

func TestJSONSchema(t *testing.T) {
	rep, err := run(config{Seed: 3, Random: 20, Evals: 300})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string][]map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if len(doc) != 1 || len(doc["policies"]) != 8 {
		t.Fatalf("unexpected document %s", b)
	}
	for _, p := range doc["policies"] {
		_, isName := p["name"].(string)
		_, isTime := p["completion_s"].(float64)
		if len(p) != 2 || !isName || !isTime {
			t.Fatalf("policy %v is not {name, completion_s}", p)
		}
	}
}

func TestPlot(t *testing.T) {
	rep, err := run(config{Seed: 1, Random: 50, Evals: 200})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writePlot(filepath.Join(dir, "sub"), rep); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sub", "fig3_10.png"))
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatalf("no PNG written: %v", err)
	}
}

func TestBadConfig(t *testing.T) {
	if _, err := run(config{Random: 0, Evals: 10}); err == nil {
		t.Fatal("zero random candidates accepted")
	}
	if _, err := run(config{Random: 10, Evals: 0}); err == nil {
		t.Fatal("zero evaluations accepted")
	}
}
