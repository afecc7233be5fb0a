package main

import (
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// testCase is the part of a scheduler_perf test case that says how many
// pods a workload measures: the createPods operations with collectMetrics,
// each creating count pods, or the workload's parameter countParam names
// ("$measurePods").
type testCase struct {
	Name             string `json:"name"`
	WorkloadTemplate []struct {
		Opcode         string `json:"opcode"`
		Count          int    `json:"count"`
		CountParam     string `json:"countParam"`
		CollectMetrics bool   `json:"collectMetrics"`
	} `json:"workloadTemplate"`
	Workloads []struct {
		Name   string         `json:"name"`
		Params map[string]int `json:"params"`
	} `json:"workloads"`
}

// measured maps "<test case>/<workload>" ("Preemption_default/100Nodes")
// to the number of pods its measured operations create.
type measured map[string]int

// readMeasured reads the measured pod counts of every workload of a
// scheduler_perf configuration file.
func readMeasured(path string) (measured, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []testCase
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m := measured{}
	for _, tc := range cases {
		for _, w := range tc.Workloads {
			n := 0
			for _, op := range tc.WorkloadTemplate {
				if op.Opcode != "createPods" || !op.CollectMetrics {
					continue
				}
				c := op.Count
				if op.CountParam != "" {
					v, ok := w.Params[strings.TrimPrefix(op.CountParam, "$")]
					if !ok {
						return nil, fmt.Errorf("%s: workload %s/%s has no parameter %s", path, tc.Name, w.Name, op.CountParam)
					}
					c = v
				}
				n += c
			}
			m[tc.Name+"/"+w.Name] = n
		}
	}
	return m, nil
}

// pods returns the measured pod count of the run a data item's Name
// ("BenchmarkPerfScheduling/<case>[_<round>]/<workload>/<namespace>")
// belongs to.
func (m measured) pods(name string) (int, bool) {
	r := parse(name)
	if r.profile == "" {
		return 0, false
	}
	n, ok := m[r.testCase()]
	return n, ok
}
