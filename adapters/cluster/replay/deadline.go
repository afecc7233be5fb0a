package replay

import "math/rand/v2"

// A mimpType is a job type of MIMP's case study (000 §6.6) with a
// deadline: its relative deadline is its mean inter-arrival Period, and
// Factor that deadline over the type's time alone on the case-study
// cluster.
type mimpType struct {
	Name           string
	Period, Factor float64
}

// mimpTypes are the five case-study types with a deadline (KMeans has
// none), as examples/internal/hadoopsim encodes them (CaseStudyTypes on
// CaseStudyCluster: 40 slots, every type asking for one sixth of the
// paper's slot occupancy). A type's alone time is its waves,
// ⌈maps / 40⌉, times its mean task time over the cluster's slots at
// mid-band web load; hadoopsim's TestCaseStudyDeadlineFactors pins these
// figures.
var mimpTypes = [...]mimpType{
	{"Pi", 200, 5.463},
	{"Sort", 300, 4.719},
	{"TeraSort", 360, 4.945},
	{"WordCount", 300, 6.709},
	{"GrepSearch", 300, 5.356},
}

// drawFactor draws a job's deadline factor as MIMP §6.6 gives deadlines:
// a job type with probability in proportion to its arrival rate
// (1 / Period, the case study's Poisson mix), and that type's deadline
// over its alone time. One Float64 of rng per call.
func drawFactor(rng *rand.Rand) float64 {
	var total float64
	for _, t := range mimpTypes {
		total += 1 / t.Period
	}
	u := rng.Float64() * total
	for _, t := range mimpTypes {
		if u -= 1 / t.Period; u < 0 {
			return t.Factor
		}
	}
	return mimpTypes[len(mimpTypes)-1].Factor
}
