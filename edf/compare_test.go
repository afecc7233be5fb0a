package edf

import (
	"testing"

	"github.com/schedkit/schedkit/internal/extremes"
	"pgregory.net/rapid"
)

// edfKey draws the three keys CompareEDF reads, from few values so that
// ties on the first and second key are common, or from any float64.
func edfKey(name string) *rapid.Generator[Job] {
	few := rapid.SampledFrom([]float64{-1, 0, 1, NoDeadline()})
	return rapid.Custom(func(t *rapid.T) Job {
		pick := rapid.OneOf(few, extremes.AnyFloat())
		return Job{
			ID:       rapid.Int64Range(-2, 2).Draw(t, name+".ID"),
			Arrival:  pick.Draw(t, name+".Arrival"),
			Deadline: pick.Draw(t, name+".Deadline"),
		}
	})
}

// propCompareEDF: CompareEDF is the order the pickers serve in (edfBefore,
// which EDF, MP's step 1 and Algorithm 2 use) on keys Add accepts, its
// first key is CompareDeadline, and on any keys, NaN included, it is
// antisymmetric, reflexive and 0 only for equal keys.
func propCompareEDF(t *rapid.T) {
	a, b := edfKey("a").Draw(t, "a"), edfKey("b").Draw(t, "b")
	c := CompareEDF(a, b)
	if c != -CompareEDF(b, a) || CompareEDF(a, a) != 0 || c < -1 || c > 1 {
		t.Fatalf("CompareEDF(%+v, %+v) = %d, reversed %d", a, b, c, CompareEDF(b, a))
	}
	if d := CompareDeadline(a.Deadline, b.Deadline); d != 0 && d != c {
		t.Fatalf("CompareDeadline = %d, CompareEDF = %d for %+v %+v", d, c, a, b)
	}
	if validateJob(&a) != nil || validateJob(&b) != nil {
		return
	}
	if (c < 0) != edfBefore(a.Deadline, a.Arrival, a.ID, b.Deadline, b.Arrival, b.ID) {
		t.Fatalf("CompareEDF(%+v, %+v) = %d disagrees with the pickers' order", a, b, c)
	}
	if c == 0 && (a.ID != b.ID || a.Arrival != b.Arrival || a.Deadline != b.Deadline || a.Tasks != b.Tasks || a.Read90 != b.Read90) {
		t.Fatalf("CompareEDF ties distinct keys %+v %+v", a, b)
	}
}

func TestPropCompareEDF(t *testing.T) { rapid.Check(t, propCompareEDF) }
func FuzzCompareEDF(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propCompareEDF)) }
