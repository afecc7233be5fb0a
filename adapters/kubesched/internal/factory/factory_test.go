package factory

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	fwk "k8s.io/kube-scheduler/framework"
	clocktesting "k8s.io/utils/clock/testing"
)

type args struct {
	Size *int `json:"size,omitempty"`
}

func (a *args) SetDefaults() {
	if a.Size == nil {
		v := 3
		a.Size = &v
	}
}

func (a *args) Validate(path *field.Path) error {
	if *a.Size < 1 {
		return field.ErrorList{field.Invalid(path.Child("size"), *a.Size, "must be >= 1")}.ToAggregate()
	}
	return nil
}

type plugin struct {
	size int
	now  time.Time
}

func (plugin) Name() string { return "Test" }

func build(_ context.Context, a *args, _ fwk.Handle, env Env) (fwk.Plugin, error) {
	return plugin{size: *a.Size, now: env.Clock.Now()}, nil
}

func TestFactory(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	f := New[args]("Test", build, NewEnv(clocktesting.NewFakePassiveClock(t0)))
	for _, tt := range []struct {
		obj     runtime.Object
		size    int
		wantErr string
	}{
		{nil, 3, ""},
		{&runtime.Unknown{Raw: []byte(`{"size":5}`), ContentType: runtime.ContentTypeJSON}, 5, ""},
		{&runtime.Unknown{Raw: []byte(`{"size":0}`), ContentType: runtime.ContentTypeJSON}, 0, "Test: args.size: Invalid value: 0: must be >= 1"},
		{&runtime.Unknown{Raw: []byte(`{"size":"x"}`), ContentType: runtime.ContentTypeJSON}, 0, "Test args: "},
	} {
		pl, err := f(context.Background(), tt.obj, nil)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: error %v, want one containing %q", tt.obj, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tt.obj, err)
		}
		if p := pl.(plugin); p.size != tt.size || !p.now.Equal(t0) {
			t.Errorf("%v: built %+v, want size %d on the given clock", tt.obj, p, tt.size)
		}
	}
	if _, err := Decode[args]("Test", &runtime.Unknown{Raw: []byte(`{"size":-1}`)}); err == nil || errors.Unwrap(err) == nil {
		t.Errorf("Decode of a bad size: %v", err)
	}
}
