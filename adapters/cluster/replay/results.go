package replay

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// maxRep bounds a result's repetition in a file ReadResults reads, so that
// numbering the repetitions on cannot overflow.
const maxRep = 1_000_000

// ReadResults reads the results of replays written with -json, one file
// each, and pools them: the repetitions of each file are numbered on from
// the last repetition of the files before it, so that every (repetition,
// load) still pairs a configuration with the stock run of its own replay.
// A path given twice is refused.
func ReadResults(paths []string) ([]Result, error) {
	var out []Result
	last := 0
	for i, p := range paths {
		if slices.Contains(paths[:i], p) {
			return nil, fmt.Errorf("%s: given twice (its repetitions would count twice)", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var rs []Result
		if err := json.Unmarshal(b, &rs); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if len(rs) == 0 {
			return nil, fmt.Errorf("%s: no results", p)
		}
		top := last
		for _, r := range rs {
			if r.Rep < 1 || r.Rep > maxRep {
				return nil, fmt.Errorf("%s: rep %d: want 1 to %d", p, r.Rep, maxRep)
			}
			if _, err := ParseConfigs(string(r.Config)); err != nil || r.Load == "" {
				return nil, fmt.Errorf("%s: rep %d: configuration %q, load %q: want a configuration the replay runs and a load", p, r.Rep, r.Config, r.Load)
			}
			r.Rep += last
			top = max(top, r.Rep)
			out = append(out, r)
		}
		last = top
	}
	return out, nil
}
