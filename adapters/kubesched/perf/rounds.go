package perf

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// maxRounds bounds -schedkit-rounds: each round runs every selected
// workload under every profile again.
const maxRounds = 64

// rounds rewrites a scheduler_perf configuration (a YAML list of test
// cases) so that each workload's profiles run n times in alternating order.
// A test case is named <workload>_<profile>; the test cases of one
// workload follow each other, and their order in the file is the forward
// order. The result keeps the workloads in the file's order and, for each,
// lists round 1 in the forward order, round 2 in the reverse order, round
// 3 forward, and so on (for two profiles A and B and four rounds: AB BA AB
// BA), each test case renamed <workload>_<profile>_<round>. Over an even
// number of rounds every profile's mean position is the same, so a load
// that rises or falls linearly during the runs slows every profile alike.
// n = 1 returns the test cases as they are, with their names unchanged.
//
// Errors: n outside [1, maxRounds]; a document that is not a list of test
// cases; a test case without a name of the form <workload>_<profile> (both
// parts non-empty, no further "_"); a name given twice; a workload whose
// test cases do not follow each other.
func rounds(config []byte, n int) ([]byte, error) {
	if n < 1 || n > maxRounds {
		return nil, fmt.Errorf("rounds = %d: want 1 to %d", n, maxRounds)
	}
	raw, err := yaml.YAMLToJSON(config)
	if err != nil {
		return nil, fmt.Errorf("scheduler_perf configuration: %w", err)
	}
	var cases []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &cases); err != nil {
		return nil, fmt.Errorf("scheduler_perf configuration: not a list of test cases: %w", err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("scheduler_perf configuration: no test cases")
	}
	type group struct {
		workload string
		cases    []map[string]json.RawMessage
		profiles []string
	}
	var groups []group
	seen := map[string]bool{}
	for i, tc := range cases {
		var name string
		if tc == nil || json.Unmarshal(tc["name"], &name) != nil {
			return nil, fmt.Errorf("test case %d: name missing or not a string", i)
		}
		workload, profile, ok := strings.Cut(name, "_")
		if !ok || workload == "" || profile == "" || strings.Contains(profile, "_") {
			return nil, fmt.Errorf("test case %d: name %q is not <workload>_<profile>", i, name)
		}
		if seen[name] {
			return nil, fmt.Errorf("test case %d: name %q given twice", i, name)
		}
		seen[name] = true
		if len(groups) == 0 || groups[len(groups)-1].workload != workload {
			if slices.ContainsFunc(groups, func(g group) bool { return g.workload == workload }) {
				return nil, fmt.Errorf("test case %d (%s): workload %s's test cases do not follow each other", i, name, workload)
			}
			groups = append(groups, group{workload: workload})
		}
		g := &groups[len(groups)-1]
		g.cases = append(g.cases, tc)
		g.profiles = append(g.profiles, profile)
	}
	if n == 1 {
		return json.Marshal(cases)
	}
	out := make([]map[string]json.RawMessage, 0, len(cases)*n)
	for _, g := range groups {
		for r := 1; r <= n; r++ {
			for k := range g.cases {
				i := k
				if r%2 == 0 {
					i = len(g.cases) - 1 - k
				}
				tc := maps.Clone(g.cases[i])
				name, err := json.Marshal(fmt.Sprintf("%s_%s_%d", g.workload, g.profiles[i], r))
				if err != nil {
					return nil, err
				}
				tc["name"] = name
				out = append(out, tc)
			}
		}
	}
	return json.Marshal(out)
}
