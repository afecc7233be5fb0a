package perf

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// names returns the test case names of a rewritten configuration.
func names(t *testing.T, out []byte) []string {
	t.Helper()
	var cases []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(out, &cases); err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, c := range cases {
		ns = append(ns, c.Name)
	}
	return ns
}

// TestRounds: the hand-worked order of two workloads, one with three
// profiles, over three rounds; every other field kept.
func TestRounds(t *testing.T) {
	const config = `
- name: A_default
  workloads: &w [{name: w1, params: {p: 5000}}]
- name: A_schedkit
  workloads: *w
  schedulerConfigPath: x.yaml
- name: B_default
  workloads: *w
- name: B_leastworklost
  workloads: *w
- name: B_schedkit
  workloads: *w
`
	out, err := rounds([]byte(config), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"A_default_1", "A_schedkit_1", "A_schedkit_2", "A_default_2", "A_default_3", "A_schedkit_3",
		"B_default_1", "B_leastworklost_1", "B_schedkit_1",
		"B_schedkit_2", "B_leastworklost_2", "B_default_2",
		"B_default_3", "B_leastworklost_3", "B_schedkit_3",
	}
	if got := names(t, out); !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	var cases []map[string]any
	if err := json.Unmarshal(out, &cases); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(cases[3]["workloads"], cases[3]["schedulerConfigPath"]); got != "[map[name:w1 params:map[p:5000]]] <nil>" {
		t.Errorf("A_default_2 = %s", got)
	}
	if got := fmt.Sprint(cases[2]["schedulerConfigPath"]); got != "x.yaml" {
		t.Errorf("A_schedkit_2's schedulerConfigPath = %s, want x.yaml", got)
	}
	one, err := rounds([]byte(config), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(t, one); !slices.Equal(got, []string{"A_default", "A_schedkit", "B_default", "B_leastworklost", "B_schedkit"}) {
		t.Errorf("one round: %v, want the names unchanged", got)
	}
}

// TestRoundsBalance checks, exhaustively over 1–4 workloads of 1–4
// profiles and 1–6 rounds, that every test case runs once per round under
// its round's name, that each workload's runs follow each other in the
// file's workload order, that a round runs its profiles forward when odd
// and reversed when even, and that over an even number of rounds every
// profile of a workload has the same mean position.
func TestRoundsBalance(t *testing.T) {
	for workloads := 1; workloads <= 4; workloads++ {
		for profiles := 1; profiles <= 4; profiles++ {
			var b strings.Builder
			for w := range workloads {
				for p := range profiles {
					fmt.Fprintf(&b, "- {name: W%d_p%d, workloads: [{name: w1}]}\n", w, p)
				}
			}
			for n := 1; n <= 6; n++ {
				out, err := rounds([]byte(b.String()), n)
				if err != nil {
					t.Fatal(err)
				}
				got := names(t, out)
				if n == 1 {
					continue
				}
				if len(got) != workloads*profiles*n {
					t.Fatalf("%d workloads, %d profiles, %d rounds: %d test cases", workloads, profiles, n, len(got))
				}
				i := 0
				for w := range workloads {
					position := make([]int, profiles)
					for r := 1; r <= n; r++ {
						for k := range profiles {
							p := k
							if r%2 == 0 {
								p = profiles - 1 - k
							}
							if want := fmt.Sprintf("W%d_p%d_%d", w, p, r); got[i] != want {
								t.Fatalf("%d workloads, %d profiles, %d rounds: test case %d is %s, want %s", workloads, profiles, n, i, got[i], want)
							}
							position[p] += k
							i++
						}
					}
					if n%2 == 0 && slices.Min(position) != slices.Max(position) {
						t.Errorf("%d profiles, %d rounds: positions summed %v, want equal", profiles, n, position)
					}
				}
			}
		}
	}
}

// TestRoundsBadInput: each bad input gives an error naming what is wrong.
func TestRoundsBadInput(t *testing.T) {
	const good = "- {name: A_default, workloads: [{name: w1}]}\n"
	for _, c := range []struct {
		name, config string
		n            int
		want         string
	}{
		{"no rounds", good, 0, "rounds = 0: want 1 to 64"},
		{"negative rounds", good, -2, "rounds = -2"},
		{"too many rounds", good, 65, "rounds = 65"},
		{"not YAML", "- [unclosed", 2, "scheduler_perf configuration"},
		{"not a list", "name: A_default", 2, "not a list of test cases"},
		{"empty", "", 2, "no test cases"},
		{"empty list", "[]", 2, "no test cases"},
		{"a null test case", "- null", 2, "test case 0: name missing"},
		{"no name", "- {workloads: []}", 2, "test case 0: name missing"},
		{"a name not a string", "- {name: [a]}", 2, "test case 0: name missing"},
		{"no profile", "- {name: A}", 2, `test case 0: name "A" is not <workload>_<profile>`},
		{"empty profile", "- {name: A_}", 2, `name "A_" is not`},
		{"empty workload", "- {name: _default}", 2, `name "_default" is not`},
		{"a round already", "- {name: A_default_1}", 2, `name "A_default_1" is not`},
		{"a name twice", good + good, 2, `test case 1: name "A_default" given twice`},
		{"a workload split", good + "- {name: B_default}\n- {name: A_schedkit}\n", 2, "test case 2 (A_schedkit): workload A's test cases do not follow each other"},
	} {
		_, err := rounds([]byte(c.config), c.n)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestRoundsConfig: the package's own configuration is one that rounds
// takes, and two rounds of it run every test case twice.
func TestRoundsConfig(t *testing.T) {
	config, err := os.ReadFile("performance-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	one, err := rounds(config, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, err := rounds(config, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := len(names(t, one)), len(names(t, two)); a != 7 || b != 14 {
		t.Errorf("%d test cases, %d in two rounds; want 7 and 14", a, b)
	}
}

// FuzzRounds: any document and round count gives either an error or a
// list of test cases, n of them per test case of the document.
func FuzzRounds(f *testing.F) {
	f.Add([]byte("- {name: A_default}\n- {name: A_schedkit}\n"), 2)
	f.Add([]byte("- {name: A_default}\n- {name: B_default}\n- {name: A_x}\n"), 3)
	f.Add([]byte("{}"), 1)
	f.Fuzz(func(t *testing.T, config []byte, n int) {
		out, err := rounds(config, n)
		if err != nil {
			return
		}
		in, err := rounds(config, 1)
		if err != nil {
			t.Fatalf("%d rounds accepted, one refused: %v", n, err)
		}
		var a, b []json.RawMessage
		if json.Unmarshal(in, &a) != nil || json.Unmarshal(out, &b) != nil || len(b) != len(a)*n {
			t.Fatalf("%d test cases in %d rounds of %d", len(b), n, len(a))
		}
	})
}
