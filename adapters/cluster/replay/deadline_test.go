package replay

import (
	"math"
	"math/rand/v2"
	"testing"
)

// fixed is a rand source whose Float64 is u.
type fixed struct{ u float64 }

func (f fixed) Uint64() uint64 { return uint64(f.u * (1 << 53)) }

// TestDrawFactor: the case study's arrival rates 1/200, 1/300, 1/360,
// 1/300 and 1/300 s⁻¹ sum to 0.0177… s⁻¹, so Pi holds [0, 0.28125) of
// the unit interval, Sort [0.28125, 0.46875), TeraSort [0.46875, 0.625),
// WordCount [0.625, 0.8125) and GrepSearch the rest (worked by hand).
func TestDrawFactor(t *testing.T) {
	for _, c := range []struct{ u, want float64 }{
		{0, 5.463}, {0.28, 5.463}, {0.2813, 4.719}, {0.4687, 4.719}, {0.469, 4.945},
		{0.6249, 4.945}, {0.626, 6.709}, {0.8124, 6.709}, {0.8126, 5.356}, {0.999999, 5.356},
	} {
		if got := drawFactor(rand.New(fixed{c.u})); got != c.want {
			t.Errorf("u = %g: factor %g, want %g", c.u, got, c.want)
		}
	}
	// Over 100,000 draws of seed 1 the mean is the shares' mean,
	// 0.28125·5.463 + 0.1875·(4.719 + 6.709 + 5.356) + 0.15625·4.945.
	rng := rand.New(rand.NewPCG(1, 0xdead))
	var sum float64
	for range 100000 {
		sum += drawFactor(rng)
	}
	want := 0.28125*5.463 + 0.1875*(4.719+6.709+5.356) + 0.15625*4.945
	if mean := sum / 100000; math.Abs(mean-want) > 0.01 {
		t.Errorf("mean factor %.4f, want %.4f", mean, want)
	}
}
