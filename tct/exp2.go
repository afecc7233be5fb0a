package tct

import "math"

// Exp2 is the two-term exponential task completion time model of paper 000,
// Eq. 1:
//
//	TCT(r) = A·e^(B·r) + C·e^(D·r)
//
// where r is the residual CPU capacity available to the task's slot, as a
// fraction in [0, 1] (1 = a whole dedicated slot). TCT is in the caller's time
// unit (seconds throughout schedkit). One model describes one job type.
//
// The zero value is the model that predicts 0 everywhere; it is valid but
// useless for normalisation (NormTCT of it is an error).
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

// Validate reports the first parameter of m that is NaN or infinite as a
// *ValueError naming it ("Exp2.A" …), or nil.
func (m Exp2) Validate() error {
	for _, p := range [...]struct {
		name string
		v    float64
	}{{"Exp2.A", m.A}, {"Exp2.B", m.B}, {"Exp2.C", m.C}, {"Exp2.D", m.D}} {
		if math.IsNaN(p.v) || math.IsInf(p.v, 0) {
			return &ValueError{Field: p.name, Value: p.v, Reason: "must be finite"}
		}
	}
	return nil
}
