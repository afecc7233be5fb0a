package edf

import "math"

// lin is a test model TCT(r) = A − B·r (positive on [0,1] when A > B ≥ 0).
type lin struct{ A, B float64 }

func (m lin) TCT(r float64) float64 { return m.A - m.B*r }

// exp2 is MIMP Eq. 1, redeclared so edf's tests do not import tct.
type exp2 struct{ A, B, C, D float64 }

func (m exp2) TCT(r float64) float64 { return m.A*math.Exp(m.B*r) + m.C*math.Exp(m.D*r) }

// bad predicts NaN everywhere.
type bad struct{}

func (bad) TCT(float64) float64 { return math.NaN() }

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// flat is a test model with the same task time at every residual capacity.
type flat float64

func (m flat) TCT(float64) float64 { return float64(m) }

// riskWith is the at-risk test of a queue with margin m under an MP call
// with TCTError e.
func riskWith(m float64, e TCTError) risk {
	q := Queue{cfg: Config{Margin: m}}
	return q.riskOf(MPOptions{TCTError: e})
}
