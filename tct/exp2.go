package tct

import "math"

// Exp2 is the two-term exponential task completion time model of MIMP,
// Eq. 1:
//
//	TCT(r) = A·e^(B·r) + C·e^(D·r)
//
// where r is the residual CPU capacity available to the task's slot, as a
// fraction in [0, 1] (1 = a whole dedicated slot). TCT is in the caller's time
// unit (seconds throughout schedkit). B and D are rates per unit of r. One
// model describes one job type. FitExp2 and TrainExp2 produce one from
// measurements.
//
// The zero value is the model that predicts 0 everywhere; it is valid but
// cannot be normalised (NormTCTAt reports an error for it).
type Exp2 struct {
	A, B, C, D float64
}

// TCT returns the predicted task completion time at residual capacity r
// (Eq. 1). It does not validate its argument: a NaN r or NaN parameters give
// NaN, and a huge B·r or D·r overflows to ±Inf. Call Validate once on a model
// from untrusted data. TCT allocates nothing.
func (m Exp2) TCT(r float64) float64 {
	return m.A*math.Exp(m.B*r) + m.C*math.Exp(m.D*r)
}

// NormTCT returns the normalised task completion time of Eq. 2,
//
//	NormTCT(r) = TCT(r) / TCT(1),
//
// with the dedicated slot at residual capacity 1 (the paper's r_dedicated).
// It is the hot-path form: it allocates nothing and checks nothing. For a
// model that passed Validate and has TCT(1) > 0 (every model FitExp2 returns
// for positive durations) the result is finite at every finite r that does
// not overflow TCT. When TCT(1) is 0 the ratio is undefined and the result is
// NaN or ±Inf, as IEEE division gives; use NormTCTAt to get an error instead.
// NormTCT(1) is exactly 1 whenever TCT(1) is finite and nonzero.
func (m Exp2) NormTCT(r float64) float64 {
	return m.TCT(r) / m.TCT(1)
}

// NormTCTAt is Eq. 2 with a configurable dedicated capacity: TCT(r) divided
// by TCT(dedicated), checked. It returns a *ValueError (matching ErrBadInput)
// when m has a non-finite parameter, r or dedicated is not finite,
// TCT(dedicated) is not a finite positive number ("the dedicated slot must
// take positive time"), or TCT(r) or the ratio is not finite. It allocates
// nothing on success.
func (m Exp2) NormTCTAt(r, dedicated float64) (float64, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	if !exp2Finite(r) {
		return 0, &ValueError{Field: "r", Value: r, Reason: "must be finite"}
	}
	if !exp2Finite(dedicated) {
		return 0, &ValueError{Field: "dedicated", Value: dedicated, Reason: "must be finite"}
	}
	den := m.TCT(dedicated)
	if !(den > 0) || math.IsInf(den, 0) {
		return 0, &ValueError{Field: "TCT(dedicated)", Value: den, Reason: "must be finite and positive"}
	}
	num := m.TCT(r)
	if !exp2Finite(num) {
		return 0, &ValueError{Field: "TCT(r)", Value: num, Reason: "must be finite"}
	}
	q := num / den
	if !exp2Finite(q) {
		return 0, &ValueError{Field: "NormTCT(r)", Value: q, Reason: "overflows"}
	}
	return q, nil
}

// Validate reports the first parameter of m that is NaN or infinite as a
// *ValueError naming it ("Exp2.A" …), or nil.
func (m Exp2) Validate() error {
	for _, p := range [...]struct {
		name string
		v    float64
	}{{"Exp2.A", m.A}, {"Exp2.B", m.B}, {"Exp2.C", m.C}, {"Exp2.D", m.D}} {
		if !exp2Finite(p.v) {
			return &ValueError{Field: p.name, Value: p.v, Reason: "must be finite"}
		}
	}
	return nil
}

// exp2Finite reports whether v is neither NaN nor ±Inf.
func exp2Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
