package edf

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Worked by hand with TCT(r) = 100 − 50r: TCT(1) = 50, TCT(0.5) = 75.
func TestDeadlineChecksByHand(t *testing.T) {
	m := lin{100, 50}
	R := []float64{1, 0, 0.5, 0}
	ct, err := CompletableTasks(m, 300, R)
	if err != nil || !near(ct, 300.0/50+300.0/75) { // 6 + 4 = 10; slots with R=0 count nothing
		t.Fatalf("CompletableTasks = %v, %v; want 10", ct, err)
	}
	c4, err := CompletionTime(m, 10, R)
	if err != nil || !near(c4, 10*(50.0+75)/4) { // n = 2 held slots: 10·125/2² = 312.5
		t.Fatalf("CompletionTime = %v, %v; want 312.5", c4, err)
	}
	cr, err := CompletionTimeRate(m, 10, R)
	if err != nil || !near(cr, 300) { // 10 / (1/50 + 1/75) = 300: the inverse of Eq. 3
		t.Fatalf("CompletionTimeRate = %v, %v; want 300", cr, err)
	}
	if cr > c4 {
		t.Fatalf("rate form %v above Eq. 4 %v: harmonic mean must not exceed arithmetic", cr, c4)
	}
	// Edge cases.
	if v, _ := CompletableTasks(m, -5, R); v != 0 {
		t.Errorf("past deadline: %v, want 0", v)
	}
	if v, _ := CompletionTime(m, 3, []float64{0, 0}); !math.IsInf(v, 1) {
		t.Errorf("no slots: %v, want +Inf", v)
	}
	if v, _ := CompletionTimeRate(m, 0, nil); v != 0 {
		t.Errorf("no tasks: %v, want 0", v)
	}
	n, err := NormTCT(m, 0.5, 1)
	if err != nil || !near(n, 1.5) {
		t.Errorf("NormTCT = %v, %v; want 1.5", n, err)
	}
	io, err := IOLoad(30, 1.5)
	if err != nil || !near(io, 20) {
		t.Errorf("IOLoad = %v, %v; want 20", io, err)
	}
}

func TestDeadlineBadInput(t *testing.T) {
	m := lin{100, 50}
	nan, inf := math.NaN(), math.Inf(1)
	var np *nilPtr // a typed nil: its TCT would dereference the receiver
	cases := []struct {
		name string
		f    func() error
	}{
		{"CT nil model", func() error { _, e := CompletableTasks(nil, 1, []float64{1}); return e }},
		// Issue 19, defect 7: these four panicked on a nil pointer model.
		{"CT nil pointer model", func() error { _, e := CompletableTasks(np, 1, []float64{1}); return e }},
		{"C4 nil pointer model", func() error { _, e := CompletionTime(np, 1, []float64{1}); return e }},
		{"rate nil pointer model", func() error { _, e := CompletionTimeRate(np, 1, []float64{1}); return e }},
		{"Norm nil pointer model", func() error { _, e := NormTCT(np, 0.5, 1); return e }},
		{"CT nil func model", func() error { _, e := CompletableTasks(nilFunc(nil), 1, []float64{1}); return e }},
		{"CT NaN time", func() error { _, e := CompletableTasks(m, nan, nil); return e }},
		{"CT Inf time", func() error { _, e := CompletableTasks(m, inf, nil); return e }},
		{"CT R>1", func() error { _, e := CompletableTasks(m, 1, []float64{1.5}); return e }},
		{"CT R NaN", func() error { _, e := CompletableTasks(m, 1, []float64{nan}); return e }},
		{"CT R<0", func() error { _, e := CompletableTasks(m, 1, []float64{-0.1}); return e }},
		{"CT bad model", func() error { _, e := CompletableTasks(bad{}, 1, []float64{1}); return e }},
		{"CT negative model", func() error { _, e := CompletableTasks(lin{-1, 0}, 1, []float64{1}); return e }},
		{"C4 negative tasks", func() error { _, e := CompletionTime(m, -1, nil); return e }},
		{"C4 R NaN", func() error { _, e := CompletionTime(m, 1, []float64{nan}); return e }},
		{"rate negative tasks", func() error { _, e := CompletionTimeRate(m, -1, nil); return e }},
		{"rate bad model", func() error { _, e := CompletionTimeRate(bad{}, 1, []float64{0.3}); return e }},
		{"Norm r NaN", func() error { _, e := NormTCT(m, nan, 1); return e }},
		{"Norm rDed 2", func() error { _, e := NormTCT(m, 0.5, 2); return e }},
		{"Norm nil", func() error { _, e := NormTCT(nil, 0.5, 1); return e }},
		{"Norm zero at ded", func() error { _, e := NormTCT(lin{50, 50}, 0.5, 1); return e }},
		{"IO read90 NaN", func() error { _, e := IOLoad(nan, 1); return e }},
		{"IO read90 <0", func() error { _, e := IOLoad(-1, 1); return e }},
		{"IO norm 0", func() error { _, e := IOLoad(1, 0); return e }},
		{"IO norm Inf", func() error { _, e := IOLoad(1, inf); return e }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.f()
			var ve *ValueError
			if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field == "" {
				t.Fatalf("err = %v, want a *ValueError matching ErrBadInput", err)
			}
			if strings.Contains(c.name, "nil") && (!errors.Is(err, ErrNilModel) || ve.Field != "Model" || ve.Value != 0) {
				t.Errorf("err = %v, want ErrNilModel for field Model with value 0", err)
			}
		})
	}
}
