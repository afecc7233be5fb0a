package edf

import (
	"errors"
	"math"
	"reflect"

	"github.com/schedkit/schedkit/internal/job"
)

// A Model predicts the task completion time of one job type: TCT(r) is the
// time in seconds a map task takes on a slot with residual CPU capacity r in
// [0, 1] (1 = a whole dedicated slot). MIMP uses exp2 (Eq. 1); tct.Exp2
// satisfies Model, but any function does. edf calls TCT only with r in
// [0, 1]. A queued job's task time is valid when it is > 0 and at most
// MaxDuration (the package doc's "Jobs"); the free functions take any
// finite time > 0. Any other result is "no prediction". It is
// admission.Model too.
type Model = job.Model

// ErrNilModel is matched (with errors.Is, besides ErrBadInput) by the error
// every function returns for a nil Model: a nil interface, or a nil
// pointer, map, func or channel inside one (a "typed nil"), whose TCT
// method would otherwise panic on its receiver.
var ErrNilModel = errors.New("edf: nil model")

// nilModel reports whether m is nil or holds a nil pointer, map, func or
// channel. Such a model is rejected before any call, even one whose method
// would not touch its receiver: a nil value is almost always a
// forgotten initialisation, and rejecting it up front means no edf function
// runs caller code that is known to be unusable. The check is typed-nil
// detection rather than recovering panics: it costs one reflect kind test
// per model (at Queue.Add, not on the MP path), leaves no half-updated
// state behind, and does not turn a genuine bug inside a non-nil model into
// a bad-input error. reflect.ValueOf on an interface allocates nothing.
func nilModel(m Model) bool { return job.NilModel(m) }

// nilValue reports whether the non-nil interface value v holds a nil
// pointer, map, func or channel (nilModel's and ErrorAt's test).
func nilValue(v any) bool {
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

// nilModelError is the error for a nil model in field.
func nilModelError(field string) error {
	return &ValueError{Field: field, Value: 0, Reason: "model is nil (a nil interface or a nil pointer, map, func or channel)", Err: ErrNilModel}
}

// validTime reports whether t is finite and > 0 (a time the free
// functions accept, or a ratio such as NormTCT).
func validTime(t float64) bool { return t > 0 && t <= math.MaxFloat64 }

// validTaskTime reports whether t is a valid task time of a queued job's
// model: > 0 and at most MaxDuration, as package admission requires.
func validTaskTime(t float64) bool { return t > 0 && t <= MaxDuration }

// checkFraction validates a residual capacity r ∈ [0, 1].
func checkFraction(field string, r float64) error {
	if !(r >= 0 && r <= 1) {
		return &ValueError{Field: field, Value: r, Reason: "must be a residual capacity in [0, 1]"}
	}
	return nil
}

// modelTCT evaluates m at r and checks the result.
func modelTCT(field string, m Model, r float64) (float64, error) {
	if nilModel(m) {
		return 0, nilModelError("Model")
	}
	t := m.TCT(r)
	if !validTime(t) {
		return 0, &ValueError{Field: field, Value: t, Reason: "model predicts a non-finite or non-positive task time at this residual capacity"}
	}
	return t, nil
}

// NormTCT returns MIMP Eq. 2, TCT(r) / TCT(rDedicated): how many times
// longer a task runs on a slot with residual capacity r than on a dedicated
// slot. rDedicated is usually 1. Both r and rDedicated must lie in [0, 1], and
// the model must predict a finite positive time at both; otherwise the error
// matches ErrBadInput. The result is dimensionless and > 0.
func NormTCT(m Model, r, rDedicated float64) (float64, error) {
	if err := checkFraction("r", r); err != nil {
		return 0, err
	}
	if err := checkFraction("rDedicated", rDedicated); err != nil {
		return 0, err
	}
	t, err := modelTCT("TCT(r)", m, r)
	if err != nil {
		return 0, err
	}
	d, err := modelTCT("TCT(rDedicated)", m, rDedicated)
	if err != nil {
		return 0, err
	}
	n := t / d
	if !validTime(n) {
		return 0, &ValueError{Field: "NormTCT", Value: n, Reason: "ratio overflows"}
	}
	return n, nil
}

// IOLoad returns MIMP Eq. 5, IO_j(r) = read90 / NormTCT_j(r): the
// read rate a new task puts on the data nodes, where read90 is the 90th
// percentile read rate of a task on a dedicated worker (per data node, in the
// caller's unit) and normTCT is Eq. 2 for the slot. A slower task reads at a
// proportionally lower rate. read90 must be finite and ≥ 0, normTCT finite and
// > 0; otherwise the error matches ErrBadInput.
func IOLoad(read90, normTCT float64) (float64, error) {
	if !(read90 >= 0 && read90 <= math.MaxFloat64) {
		return 0, &ValueError{Field: "read90", Value: read90, Reason: "must be finite and >= 0"}
	}
	if !validTime(normTCT) {
		return 0, &ValueError{Field: "normTCT", Value: normTCT, Reason: "must be finite and > 0"}
	}
	io := read90 / normTCT
	if !(io <= math.MaxFloat64) {
		return 0, &ValueError{Field: "IO", Value: io, Reason: "overflows"}
	}
	return io, nil
}
