package deadlinecheck

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/tct"
	"github.com/schedkit/schedkit/tct/jct"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// maxLogSpan bounds Mu + 40·Sigma of a pod's run-time lognormal, as tct
// bounds its job models, so that no draw overflows.
const maxLogSpan = 600

// A RunTime is the run-time model of one pod of a workload: a lognormal
// duration in seconds (jct.Lognormal; Sigma = 0 is a fixed time), and where
// it came from, for messages.
type RunTime struct {
	Pod jct.Lognormal
	// Exact is the run time in seconds as given when the model has no
	// spread (Pod.Sigma 0), 0 otherwise: draws use it rather than
	// e^Pod.Mu, which rounds (e^ln 30 is 30.000000000000004), so that a
	// run time exactly as long as the time to a deadline meets it, as it
	// does for the kube-scheduler plugins.
	Exact  float64
	Source string // e.g. `job type "etl"`, `spec.maximumExecutionTimeSeconds 3600`
}

// Models are the run-time models of one DeadlineParameters object, checked
// once. A bad job type does not spoil the others: only the workloads that
// use it are rejected, with the field and value named.
type Models struct {
	params      string // the DeadlineParameters name, "" when the check has none
	byType      map[string]modelEntry
	names       []string // job type names, sorted
	defaultType string
	defaultErr  error
}

type modelEntry struct {
	rt  RunTime
	err error
}

// CompileModels checks every job type of p (nil: a check without
// parameters, whose workloads fall back to spec.maximumExecutionTimeSeconds).
func CompileModels(p *v1alpha1.DeadlineParameters) Models {
	m := Models{byType: map[string]modelEntry{}}
	if p == nil {
		return m
	}
	m.params = p.Name
	field := func(f string) string { return fmt.Sprintf("DeadlineParameters %s %s", p.Name, f) }

	r := 1.0
	var rErr error
	if p.Spec.ResidualCapacity != nil {
		r = *p.Spec.ResidualCapacity
		if !(r > 0 && r <= 1) {
			rErr = &InputError{Field: field("spec.residualCapacity"), Value: strconv.FormatFloat(r, 'g', -1, 64),
				Reason: "must be in (0, 1]"}
		}
	}
	for i, jt := range p.Spec.JobTypes {
		f := func(s string) string { return field(fmt.Sprintf("spec.jobTypes[%d]%s", i, s)) }
		if err := annotation.ValidJobType(jt.Name); err != nil {
			m.byType[jt.Name] = modelEntry{err: &InputError{Field: f(".name"), Value: jt.Name, Reason: err.Error()}}
			continue
		}
		if _, dup := m.byType[jt.Name]; dup {
			m.byType[jt.Name] = modelEntry{err: &InputError{Field: f(".name"), Value: jt.Name, Reason: "names a job type twice"}}
			continue
		}
		e := modelEntry{}
		src := fmt.Sprintf("job type %q", jt.Name)
		switch {
		case (jt.Lognormal == nil) == (jt.Exp2 == nil):
			e.err = &InputError{Field: f(""), Value: jt.Name, Reason: "needs exactly one of lognormal and exp2"}
		case jt.Lognormal != nil:
			e.rt, e.err = lognormalModel(*jt.Lognormal, f(".lognormal"))
			e.rt.Source = src
		default:
			if rErr != nil {
				e.err = rErr
				break
			}
			e.rt, e.err = exp2Model(*jt.Exp2, r, f(".exp2"))
			e.rt.Source = src
		}
		m.byType[jt.Name] = e
		m.names = append(m.names, jt.Name)
	}
	slices.Sort(m.names)
	if d := p.Spec.DefaultJobType; d != "" {
		m.defaultType = d
		if _, ok := m.byType[d]; !ok {
			m.defaultErr = &InputError{Field: field("spec.defaultJobType"), Value: d, Reason: m.unknownReason()}
		}
	}
	return m
}

func (m Models) unknownReason() string {
	if len(m.names) == 0 {
		if m.params == "" {
			return "the check has no DeadlineParameters"
		}
		return fmt.Sprintf("DeadlineParameters %s lists no job types", m.params)
	}
	return fmt.Sprintf("names no job type of DeadlineParameters %s (%s)", m.params, strings.Join(m.names, ", "))
}

// For returns the run-time model of a workload: its job type's (the
// annotation's value when jobTypeSet, else the default job type), or else
// a fixed run time of spec.maximumExecutionTimeSeconds per pod (nil: unset).
// An unknown or bad job type is an *InputError; no model at all is
// ErrNoEstimate.
func (m Models) For(jobType string, jobTypeSet bool, maxExecSeconds *int32) (RunTime, error) {
	if jobTypeSet {
		e, ok := m.byType[jobType]
		if !ok {
			return RunTime{}, &InputError{Field: "annotation " + JobTypeAnnotation, Value: jobType, Reason: m.unknownReason()}
		}
		return e.rt, e.err
	}
	if m.defaultType != "" {
		if m.defaultErr != nil {
			return RunTime{}, m.defaultErr
		}
		e := m.byType[m.defaultType]
		return e.rt, e.err
	}
	if maxExecSeconds != nil {
		s := *maxExecSeconds
		if s <= 0 {
			return RunTime{}, &InputError{Field: "spec.maximumExecutionTimeSeconds", Value: strconv.Itoa(int(s)), Reason: "must be > 0"}
		}
		return RunTime{
			Pod:    jct.Lognormal{Mu: math.Log(float64(s)), Sigma: 0},
			Exact:  float64(s),
			Source: fmt.Sprintf("spec.maximumExecutionTimeSeconds %d", s),
		}, nil
	}
	return RunTime{}, ErrNoEstimate
}

func lognormalModel(l v1alpha1.LognormalModel, field string) (RunTime, error) {
	if !(l.MeanSeconds > 0) || math.IsInf(l.MeanSeconds, 1) {
		return RunTime{}, &InputError{Field: field + ".meanSeconds", Value: fmtFloat(l.MeanSeconds), Reason: "must be a finite number > 0"}
	}
	v := l.StdDevSeconds * l.StdDevSeconds
	if !(l.StdDevSeconds >= 0) || math.IsInf(v, 1) {
		return RunTime{}, &InputError{Field: field + ".stdDevSeconds", Value: fmtFloat(l.StdDevSeconds), Reason: "must be a finite number >= 0"}
	}
	ln, err := jct.LognormalFromMoments(l.MeanSeconds, v)
	if err != nil {
		return RunTime{}, &InputError{Field: field, Value: fmt.Sprintf("mean %s, sd %s", fmtFloat(l.MeanSeconds), fmtFloat(l.StdDevSeconds)), Reason: err.Error()}
	}
	rt := RunTime{Pod: ln}
	if ln.Sigma == 0 {
		rt.Exact = l.MeanSeconds
	}
	return rt, nil
}

func exp2Model(e v1alpha1.Exp2Model, r float64, field string) (RunTime, error) {
	m := tct.Exp2{A: e.A, B: e.B, C: e.C, D: e.D}
	if err := m.Validate(); err != nil {
		return RunTime{}, &InputError{Field: field, Value: fmt.Sprintf("%+v", e), Reason: err.Error()}
	}
	t := m.TCT(r)
	if !(t > 0) || math.IsInf(t, 1) {
		return RunTime{}, &InputError{Field: field, Value: fmt.Sprintf("a=%s b=%s c=%s d=%s", fmtFloat(e.A), fmtFloat(e.B), fmtFloat(e.C), fmtFloat(e.D)),
			Reason: fmt.Sprintf("TCT(%s) = %s s: must be a finite time > 0", fmtFloat(r), fmtFloat(t))}
	}
	if !(e.Sigma >= 0) || math.IsInf(e.Sigma, 1) || math.Log(t)+40*e.Sigma > maxLogSpan {
		return RunTime{}, &InputError{Field: field + ".sigma", Value: fmtFloat(e.Sigma), Reason: "must be a finite number >= 0 small enough that draws do not overflow"}
	}
	rt := RunTime{Pod: jct.Lognormal{Mu: math.Log(t), Sigma: e.Sigma}}
	if e.Sigma == 0 {
		rt.Exact = t
	}
	return rt, nil
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
