package deadlinecheck

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
	"github.com/schedkit/schedkit/tct/jct"
	"gonum.org/v1/gonum/floats/scalar"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func params(spec v1alpha1.DeadlineParametersSpec) *v1alpha1.DeadlineParameters {
	return &v1alpha1.DeadlineParameters{ObjectMeta: metav1.ObjectMeta{Name: "models"}, Spec: spec}
}

func ptr[T any](v T) *T { return &v }

func TestModelsFor(t *testing.T) {
	p := params(v1alpha1.DeadlineParametersSpec{
		ResidualCapacity: ptr(0.5),
		JobTypes: []v1alpha1.JobType{
			{Name: "etl", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 600, StdDevSeconds: 120}},
			{Name: "fixed", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 300}},
			// TCT(0.5) = 100·e^(−1) + 20·e^(0.05) = 36.788 + 21.025 = 57.813 s.
			{Name: "sort", Exp2: &v1alpha1.Exp2Model{A: 100, B: -2, C: 20, D: 0.1, Sigma: 0.25}},
		},
	})
	m := CompileModels(p)

	rt, err := m.For("etl", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Eq. 5.1: σ² = ln(1 + 120²/600²) = ln 1.04, μ = ln 600 − σ²/2.
	s2 := math.Log(1.04)
	if !scalar.EqualWithinAbsOrRel(rt.Pod.Sigma, math.Sqrt(s2), 1e-12, 1e-12) ||
		!scalar.EqualWithinAbsOrRel(rt.Pod.Mu, math.Log(600)-s2/2, 1e-12, 1e-12) {
		t.Errorf("etl = %+v, want σ = %v, μ = %v", rt.Pod, math.Sqrt(s2), math.Log(600)-s2/2)
	}
	if !scalar.EqualWithinAbsOrRel(rt.Pod.Mean(), 600, 0, 1e-12) || !scalar.EqualWithinAbsOrRel(rt.Pod.StdDev(), 120, 0, 1e-12) {
		t.Errorf("etl moments = %v, %v, want 600, 120", rt.Pod.Mean(), rt.Pod.StdDev())
	}
	if rt.Source != `job type "etl"` {
		t.Errorf("source %q", rt.Source)
	}

	rt, err = m.For("fixed", true, nil)
	if err != nil || rt.Pod.Sigma != 0 || !scalar.EqualWithinAbsOrRel(rt.Pod.Median(), 300, 0, 1e-12) {
		t.Errorf("fixed = %+v, %v; want a fixed 300 s", rt.Pod, err)
	}

	rt, err = m.For("sort", true, nil)
	want := 100*math.Exp(-1) + 20*math.Exp(0.05)
	if err != nil || !scalar.EqualWithinAbsOrRel(rt.Pod.Median(), want, 0, 1e-12) || rt.Pod.Sigma != 0.25 {
		t.Errorf("sort = %+v, %v; want median %v s, σ 0.25", rt.Pod, err, want)
	}

	// No annotation, no default: spec.maximumExecutionTimeSeconds.
	rt, err = m.For("", false, ptr(int32(3600)))
	if err != nil || rt.Pod != (jct.Lognormal{Mu: math.Log(3600)}) || rt.Source != "spec.maximumExecutionTimeSeconds 3600" {
		t.Errorf("fallback = %+v, %v", rt, err)
	}
	if _, err := m.For("", false, nil); !errors.Is(err, ErrNoEstimate) {
		t.Errorf("no model: err = %v, want ErrNoEstimate", err)
	}
	// The annotation wins over the fallback.
	if rt, _ := m.For("fixed", true, ptr(int32(5))); rt.Pod.Median() < 299 {
		t.Errorf("annotation did not win over maximumExecutionTimeSeconds: %+v", rt)
	}

	// A check without parameters: only the fallback.
	none := CompileModels(nil)
	if _, err := none.For("", false, ptr(int32(60))); err != nil {
		t.Error(err)
	}
	if _, err := none.For("etl", true, nil); err == nil || !strings.Contains(err.Error(), "no DeadlineParameters") {
		t.Errorf("job type without parameters: err = %v", err)
	}
}

func TestModelsDefaultJobType(t *testing.T) {
	m := CompileModels(params(v1alpha1.DeadlineParametersSpec{
		DefaultJobType: "etl",
		JobTypes:       []v1alpha1.JobType{{Name: "etl", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 60}}},
	}))
	rt, err := m.For("", false, ptr(int32(5)))
	if err != nil || rt.Source != `job type "etl"` {
		t.Errorf("default = %+v, %v", rt, err)
	}
	bad := CompileModels(params(v1alpha1.DeadlineParametersSpec{DefaultJobType: "nope"}))
	_, err = bad.For("", false, nil)
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "DeadlineParameters models spec.defaultJobType" || ie.Value != "nope" {
		t.Errorf("unknown default: err = %v", err)
	}
}

// Every bad field is an *InputError naming the field and the value; only
// the workloads of that job type are affected.
func TestModelsBad(t *testing.T) {
	good := v1alpha1.JobType{Name: "good", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 10}}
	tests := []struct {
		name    string
		spec    v1alpha1.DeadlineParametersSpec
		jobType string
		field   string
		value   string
	}{
		{"mean zero", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Lognormal: &v1alpha1.LognormalModel{}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].lognormal.meanSeconds", "0"},
		{"mean negative", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{good, {Name: "a", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: -5}}}},
			"a", "DeadlineParameters models spec.jobTypes[1].lognormal.meanSeconds", "-5"},
		{"mean NaN", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: math.NaN()}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].lognormal.meanSeconds", "NaN"},
		{"mean Inf", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: math.Inf(1)}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].lognormal.meanSeconds", "+Inf"},
		{"sd negative", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 5, StdDevSeconds: -1}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].lognormal.stdDevSeconds", "-1"},
		{"sd overflows", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 5, StdDevSeconds: 1e200}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].lognormal.stdDevSeconds", "1e+200"},
		{"sd too wide", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Lognormal: &v1alpha1.LognormalModel{MeanSeconds: 1, StdDevSeconds: 1e150}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].lognormal", "mean 1, sd 1e+150"},
		{"no model", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a"}}},
			"a", "DeadlineParameters models spec.jobTypes[0]", "a"},
		{"two models", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Lognormal: good.Lognormal, Exp2: &v1alpha1.Exp2Model{A: 1}}}},
			"a", "DeadlineParameters models spec.jobTypes[0]", "a"},
		{"duplicate", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{good, good}},
			"good", "DeadlineParameters models spec.jobTypes[1].name", "good"},
		{"exp2 negative time", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Exp2: &v1alpha1.Exp2Model{A: -1}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].exp2", "a=-1 b=0 c=0 d=0"},
		{"exp2 overflow", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Exp2: &v1alpha1.Exp2Model{A: 1, B: 1000}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].exp2", "a=1 b=1000 c=0 d=0"},
		{"exp2 NaN", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Exp2: &v1alpha1.Exp2Model{A: 1, C: math.NaN()}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].exp2", "{A:1 B:0 C:NaN D:0 Sigma:0}"},
		{"exp2 sigma", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{{Name: "a", Exp2: &v1alpha1.Exp2Model{A: 1, Sigma: -0.1}}}},
			"a", "DeadlineParameters models spec.jobTypes[0].exp2.sigma", "-0.1"},
		{"residual capacity", v1alpha1.DeadlineParametersSpec{ResidualCapacity: ptr(1.5), JobTypes: []v1alpha1.JobType{{Name: "a", Exp2: &v1alpha1.Exp2Model{A: 1}}}},
			"a", "DeadlineParameters models spec.residualCapacity", "1.5"},
		{"unknown job type", v1alpha1.DeadlineParametersSpec{JobTypes: []v1alpha1.JobType{good}},
			"etl", "annotation " + JobTypeAnnotation, "etl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := CompileModels(params(tt.spec))
			_, err := m.For(tt.jobType, true, ptr(int32(60)))
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("For(%q) error = %v, want *InputError", tt.jobType, err)
			}
			if ie.Field != tt.field || ie.Value != tt.value {
				t.Errorf("error names %s = %q, want %s = %q (%v)", ie.Field, ie.Value, tt.field, tt.value, err)
			}
			if tt.name != "duplicate" && tt.jobType != "good" {
				if _, err := m.For("good", true, nil); len(tt.spec.JobTypes) > 1 && err != nil {
					t.Errorf("a bad job type spoiled a good one: %v", err)
				}
			}
		})
	}
	if _, err := CompileModels(nil).For("", false, ptr(int32(0))); err == nil {
		t.Error("maximumExecutionTimeSeconds = 0 accepted")
	}
}
