package hadoopsim

import (
	"math"
	"testing"
)

// TestCaseStudyDeadlineFactors pins each case-study type's deadline over
// its time alone on CaseStudyCluster: Period / (⌈Maps / slots⌉ · the
// type's mean task time over the slots at mid-band web load). The cluster
// replay (adapters/cluster/replay, mimpTypes) draws the deadline factor
// of a trace job without an estimate from these figures; a change here
// must be carried there.
func TestCaseStudyDeadlineFactors(t *testing.T) {
	want := map[string]float64{"Pi": 5.463, "Sort": 4.719, "TeraSort": 4.945, "WordCount": 6.709, "GrepSearch": 5.356, "KMeans": 6.328}
	c := CaseStudyCluster()
	for _, jt := range CaseStudyTypes(c, PaperError) {
		waves := math.Ceil(float64(jt.Maps) / float64(c.Slots()))
		got := jt.Period / (waves * meanTCT(c, jt))
		if math.Abs(got-want[jt.Name]) > 0.0005 {
			t.Errorf("%s: factor %.4f, want %.3f", jt.Name, got, want[jt.Name])
		}
		if jt.HasDeadline == (jt.Name == "KMeans") {
			t.Errorf("%s: HasDeadline %v", jt.Name, jt.HasDeadline)
		}
	}
}
