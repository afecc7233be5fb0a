package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// A stat is a figure over several traces: its mean and range.
type stat struct {
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
}

// statOf summarises xs (the zero stat for none).
func statOf(xs []float64) stat {
	if len(xs) == 0 {
		return stat{}
	}
	s := stat{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, x := range xs {
		s.Mean += x
		s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
	}
	s.Mean /= float64(len(xs))
	return s
}

// cell formats s as "mean [min–max]" with prec decimals for the mean and
// rangePrec for the range; a stat of one trace shows its value only.
func (s stat) cell(prec, rangePrec int) string {
	if s.Min == s.Max {
		return fmt.Sprintf("%.*f", rangePrec, s.Min)
	}
	return fmt.Sprintf("%.*f [%.*f–%.*f]", prec, s.Mean, rangePrec, s.Min, rangePrec, s.Max)
}

// rounded returns s with every field rounded to prec decimals (for JSON).
func (s stat) rounded(prec int) stat {
	return stat{round(s.Mean, prec), round(s.Min, prec), round(s.Max, prec)}
}

func round(x float64, prec int) float64 {
	p := math.Pow(10, float64(prec))
	return math.Round(x*p) / p
}

// percentile returns the nearest-rank p-quantile of xs (0 for none).
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.SortFunc(s, cmp.Compare[float64])
	k := int(math.Ceil(p*float64(len(s)))) - 1
	return s[min(max(k, 0), len(s)-1)]
}

// saving returns 100·(1 − mp/edf), MP's task-time saving over EDF in
// percent (0 when EDF used no time).
func saving(edf, mp float64) float64 {
	if edf <= 0 {
		return 0
	}
	return 100 * (1 - mp/edf)
}
